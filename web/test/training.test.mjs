// The training section in Chromium: a short run of the three heads and the model with no head,
// whose losses fall, each writing a sample, with no
// console error, no NaN on the page, and the longest main-thread task while it trains
// (PerformanceObserver 'longtask'), printed rather than asserted: on a machine shared by
// several jobs a single descheduling can exceed 50 ms, which says nothing about the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useChromium, watchProblems } from './chromium.mjs';

const chromium = useChromium();

test('the page trains four models off the main thread, their losses fall and each writes', async () => {
  const page = await chromium.newPage({ viewport: { width: 1280, height: 900 } });
  const problems = await watchProblems(page);
  await page.addInitScript(() => {
    window.longestTask = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        window.longestTask = Math.max(window.longestTask, entry.duration);
    }).observe({ type: 'longtask', buffered: false });
  });
  try {
    await page.goto(chromium.url());
    await page.waitForSelector('#map-table table', { timeout: 30000 });
    await page.evaluate(() => document.querySelector('#training').scrollIntoView());
    await page.waitForSelector('#training .training__buttons button');
    // Before the first run: a sentence where the chart will be, no message and nothing red,
    // even once the reader picks a text of their own and has typed nothing yet.
    assert.equal(await page.isVisible('#training .training__placeholder'), true);
    await page.selectOption('#training select[id$="-source"]', 'pasted');
    const messages = await page.$$eval('#training .message', (ps) => ps.map((p) => p.textContent));
    assert.deepEqual(messages.filter(Boolean), []);
    assert.equal(await page.locator('#training [aria-invalid]').count(), 0);
    await page.selectOption('#training select[id$="-source"]', 'shakespeare');
    await page.selectOption('#training select[id$="-d"]', '16');
    await page.fill('#training input[id$="-steps"]', '30');
    await page.evaluate(() => {
      window.longestTask = 0;
    });
    const started = Date.now();
    await page.click('#training .training__buttons button');
    await page.waitForFunction(
      () =>
        document
          .querySelector('#training .training__status')
          ?.textContent.startsWith('Step 30 of 30'),
      null,
      { timeout: 300000 },
    );
    const seconds = (Date.now() - started) / 1000;
    // The rate was left empty: the width's own, from web/assets/learning-results.json.
    assert.equal(
      await page.getAttribute('#training input[id$="-rate"]', 'placeholder'),
      '0.03 (this width’s own)',
    );
    // The table is written while it is open.
    await page.click('#training .training__table summary');
    await page.waitForFunction(
      () => document.querySelectorAll('#training .training__table tbody tr').length === 4,
    );
    const rows = await page.$$eval('#training .training__table tbody tr', (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
    );
    const { longest } = await page.evaluate(() => ({ longest: window.longestTask }));
    console.log(
      `4 × 30 steps at d = 16 in ${seconds.toFixed(1)} s; longest main-thread task ${longest.toFixed(0)} ms`,
    );
    assert.equal(rows.length, 4);
    for (const [step, , heldOut] of rows) {
      assert.equal(step, '30');
      assert.ok(
        Number(heldOut) < Math.log(65),
        `held-out loss ${heldOut} is not below uniform guessing`,
      );
    }
    await page.waitForFunction(
      () => document.querySelectorAll('#training .training__samples dd').length === 4,
    );
    const samples = await page.$$eval('#training .training__samples dd', (dds) =>
      dds.map((dd) => dd.textContent),
    );
    for (const sample of samples) assert.equal([...sample].length, 81, `sample "${sample}"`);
    assert.equal(await page.isVisible('#training .training__placeholder'), false);
    // The learning module (learning.js) loaded on Train and runs the heads in its own workers.
    const place = await page.evaluate(() => document.documentElement.dataset.learningCompute);
    assert.equal(place, 'worker', 'the three heads trained on the main thread');
    const findings = await page.textContent('#training .training__findings');
    assert.match(findings, /After 30 steps the held-out loss/);
    await page.click('#training .training__buttons button:nth-of-type(2)');
    await page.waitForFunction(
      () => document.querySelector('#training .training__status').textContent === 'Not started.',
    );
    assert.equal(await page.textContent('#training .training__findings'), '');
    const text = await page.evaluate(() => document.body.textContent);
    assert.doesNotMatch(text, /\bNaN\b|\bundefined\b/);
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
  }
});

// Each run lives in one worker: when one of them dies mid-training, the page says so and
// restarts it, that run says it was lost with it, and the other three train to the end.
test('a learning worker that dies mid-training loses its run only, and says so', async () => {
  const page = await chromium.newPage({ viewport: { width: 1280, height: 900 } });
  const problems = await watchProblems(page);
  try {
    await page.goto(chromium.url());
    await page.waitForSelector('#map-table table', { timeout: 30000 });
    await page.evaluate(() => document.querySelector('#training').scrollIntoView());
    await page.waitForSelector('#training .training__buttons button');
    await page.selectOption('#training select[id$="-d"]', '16');
    await page.fill('#training input[id$="-steps"]', '400');
    await page.click('#training .training__buttons button');
    await page.waitForFunction(
      () =>
        /^Step [1-9]\d* of 400/.test(
          document.querySelector('#training .training__status')?.textContent,
        ),
      null,
      { timeout: 120000 },
    );
    const learning = [];
    for (const worker of page.workers())
      if (await worker.evaluate(() => typeof self.AttentionLearning === 'function'))
        learning.push(worker);
    assert.ok(learning.length >= 2, `${learning.length} learning workers`);
    await learning[0].evaluate(() =>
      setTimeout(() => {
        throw new Error('a test killed this worker');
      }),
    );
    await page.waitForFunction(
      () =>
        /^Finished/.test(document.querySelector('#training .training__buttons button').textContent),
      null,
      { timeout: 300000 },
    );
    assert.match(await page.textContent('#banner'), /stopped .*and was restarted/);
    const text = await page.textContent('#training');
    const lost = text.match(/this run was lost with it/g) ?? [];
    assert.ok(lost.length >= 1, 'no run said it was lost with its worker');
    assert.doesNotMatch(text, /no training run is called/);
    assert.doesNotMatch(text, /NaN/);
    await page.click('#training .training__table summary'); // written while it is open
    await page.waitForFunction(
      () => document.querySelectorAll('#training .training__table tbody tr').length === 4,
    );
    const finished = await page.$$eval('#training .training__table tbody tr', (trs) =>
      trs.map((tr) => tr.querySelector('td')?.textContent),
    );
    // A worker holds one run where there are four, two where there are two.
    const reached = finished.filter((step) => step === '400').length;
    assert.ok(reached >= 4 - Math.ceil(4 / learning.length), `steps: ${finished.join(', ')}`);
    assert.ok(reached < 4, 'every run finished: the killed worker held none');
    assert.deepEqual(
      problems.filter((p) => !/a test killed this worker/.test(p)),
      [],
    );
  } finally {
    await page.close();
  }
});
