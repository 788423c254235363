// The copying head on the built page (dist/) in Chromium: the map's choice of either layer, its
// link, its note against the weights the map draws (the downloaded CSV, read here), and a host
// without learning.js. The share is recounted here by the rule of
// cpp/trained/copying_head.hpp: a row i ≥ 1 whose character came earlier points into an
// earlier copy when its largest weight (the first, on a tie) lands on a key j ≥ 1 with
// token j − 1 equal to token i.
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useChromium, watchProblems } from './chromium.mjs';
import { poll } from './waits.mjs';
import { copyingHeadFloat64 } from './reference/copying-head-float64.mjs';

const chromium = useChromium();
const PHRASE = 'what shall I do? say what; what shall I do?';
const saved = JSON.parse(
  readFileSync(new URL('../assets/copying-head.json', import.meta.url), 'utf8'),
);

async function openPage(hash, body, { route } = {}) {
  const page = await chromium.newPage({ viewport: { width: 1280, height: 900 } });
  const problems = await watchProblems(page);
  if (route) await page.route('**/copying-head.js', route);
  try {
    await page.goto(chromium.url(hash));
    await poll(() => page.$('#map-table table'), { message: 'the map never drew' });
    await body(page, problems);
  } finally {
    await page.close();
  }
}

// The map's weights as its CSV carries them (six significant digits): { tokens, rows }.
async function downloadedWeights(page) {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.click('[data-role="csv"]'),
  ]);
  const lines = readFileSync(await download.path(), 'utf8')
    .trim()
    .split(/\r?\n/);
  const rows = lines.slice(1).map((line) =>
    line
      .split(',')
      .slice(-lines.length + 1)
      .map(Number),
  );
  return rows;
}

// The rule, on the drawn weights: [rows whose character came earlier, of those into a copy].
function shareByRule(characters, rows) {
  let withEarlier = 0;
  let intoCopy = 0;
  for (let i = 1; i < characters.length; i++) {
    if (!characters.slice(0, i).includes(characters[i])) continue;
    withEarlier++;
    const row = rows[i].slice(0, i + 1);
    const peak = row.indexOf(Math.max(...row));
    if (peak >= 1 && characters[peak - 1] === characters[i]) intoCopy++;
  }
  return [withEarlier, intoCopy];
}

const note = (page) => page.textContent('[data-role="recipe-note"]');

async function noteMentions(page, pattern, timeout = 10_000) {
  await poll(async () => pattern.test(await note(page)), {
    timeout,
    message: `no note matching ${pattern}`,
  });
}

describe('the copying head on the map', () => {
  test('layer 2 on a phrase said twice: the note quotes the share the drawn weights give', async () => {
    const hash = `#vectors=copying-2&text=${encodeURIComponent(PHRASE)}`;
    await openPage(hash, async (page, problems) => {
      await noteMentions(page, /Layer 2/);
      assert.equal(await page.inputValue('#map-vectors'), 'copying-2');
      for (const id of ['tokens', 'd', 'seed', 'scale', 'init', 'pos', 'causal'])
        assert.equal(await page.isDisabled(`#map-${id}`), true, id);
      assert.equal(await page.inputValue('#map-d'), String(saved.config.d));
      const rows = await downloadedWeights(page);
      assert.equal(rows.length, [...PHRASE].length);
      const [withEarlier, intoCopy] = shareByRule([...PHRASE], rows);
      const text = await note(page);
      assert.ok(
        text.includes(`Of the ${withEarlier} rows whose character came earlier, ${intoCopy} (`),
        text,
      );
      assert.ok(intoCopy / withEarlier > 0.3, `layer 2 copies: ${intoCopy}/${withEarlier}`);
      assert.ok(text.split(/\s+/).length <= 45, text);
      assert.deepEqual(problems, []);
    });
  });

  test('layer 1 draws too, and the choice travels in the link both ways', async () => {
    await openPage(`#text=${encodeURIComponent(PHRASE)}`, async (page, problems) => {
      await page.selectOption('#map-vectors', 'copying-1');
      await noteMentions(page, /Layer 1/);
      assert.match(page.url(), /vectors=copying-1/);
      const rows = await downloadedWeights(page);
      const [withEarlier, intoCopy] = shareByRule([...PHRASE], rows);
      assert.ok((await note(page)).includes(`Of the ${withEarlier} rows`));
      assert.ok((await note(page)).includes(`, ${intoCopy} (`));
      await page.selectOption('#map-vectors', 'copying-2');
      await noteMentions(page, /Layer 2/);
      assert.match(page.url(), /vectors=copying-2/);
      await page.selectOption('#map-vectors', 'position');
      await poll(async () => (await page.isDisabled('#map-seed')) === false, {
        message: 'the seed did not wake when the two heads were switched off',
      });
      assert.doesNotMatch(page.url(), /vectors=copying/);
      assert.deepEqual(problems, []);
    });
  });

  test('old links still open what they did', async () => {
    for (const [hash, vectors] of [
      ['#vectors=learned&text=to%20be', 'trained'],
      ['#vectors=token&d=8', 'token'],
      ['#pos=1', 'position'],
    ]) {
      await openPage(hash, async (page, problems) => {
        assert.equal(await page.inputValue('#map-vectors'), vectors, hash);
        assert.deepEqual(problems, []);
      });
    }
  });

  test('a host without copying-head.js: a message beside the text box, the last map stays', async () => {
    const route = (request) => request.fulfill({ status: 404, body: '' });
    await openPage(
      '',
      async (page) => {
        const uncaught = [];
        page.on('pageerror', (error) => uncaught.push(error.message));
        const before = await page.innerHTML('#map-table tbody');
        await page.selectOption('#map-vectors', 'copying-2');
        await poll(async () => /could not load/.test(await page.textContent('#map-text-message')), {
          message: 'no message when copying-head.js is missing',
        });
        assert.equal(await page.innerHTML('#map-table tbody'), before, 'the last map stays');
        assert.deepEqual(uncaught, []);
      },
      { route },
    );
  });
});

describe("the copying head's recorded growth (section 9)", () => {
  test('draws from the committed asset, marks where the head forms and says it was recorded', async () => {
    await openPage('', async (page, problems) => {
      await page.evaluate(() => document.querySelector('#copying').scrollIntoView());
      await page.waitForSelector('#copying .copying-growth canvas[role="img"]');
      const label = await page.getAttribute('#copying .copying-growth canvas', 'aria-label');
      // the first step at which layer 2's recorded induction score is 0.3 or more, found here
      const layer2 = saved.curve.induction[1];
      const formed = saved.curve.step[layer2.findIndex((score) => score >= 0.3)];
      assert.match(label, new RegExp(`at step ${formed}\\b`));
      const timing = await page.textContent('#copying [data-role="timing"]');
      assert.match(timing, /Recorded from the native run \(npm run grow\)/);
      const rows = await page.$$eval('#copying tbody tr', (trs) => trs.length);
      assert.equal(rows, saved.curve.step.length);
      const painted = await page.$eval('#copying .copying-growth canvas', (canvas) => {
        const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
        let inked = 0;
        for (let i = 3; i < data.length; i += 4) if (data[i] > 0) inked++;
        return inked;
      });
      assert.ok(painted > 1000, `the chart painted ${painted} pixels`);
      assert.deepEqual(problems, []);
    });
  });
});

describe('the experiment "Say it twice"', () => {
  test('puts layer 2 on a phrase said twice, with the share the drawn weights give', async () => {
    await openPage('', async (page, problems) => {
      await page.click('[data-experiment="say-twice"]');
      await poll(
        async () => /Layer 2/.test(await page.textContent('[data-role="experiment-note"]')),
        {
          message: 'the experiment never showed its note',
        },
      );
      assert.equal(await page.inputValue('#map-vectors'), 'copying-2');
      assert.equal(await page.inputValue('#map-text'), PHRASE);
      const rows = await downloadedWeights(page);
      const [withEarlier, intoCopy] = shareByRule([...PHRASE], rows);
      const shown = await page.textContent('[data-role="experiment-note"]');
      assert.ok(shown.includes(`Of the ${withEarlier} rows`), shown);
      assert.ok(shown.includes(`, ${intoCopy} (`), shown);
      assert.deepEqual(problems, []);
    });
  });
});

describe('section 9 reads the reader’s own text', () => {
  test('its map equals float64 on typed text, either layer, and the link keeps text and layer', async () => {
    const saved = JSON.parse(
      readFileSync(new URL('../assets/copying-head.json', import.meta.url), 'utf8'),
    );
    await openPage('', async (page, problems) => {
      await page.evaluate(() => document.querySelector('#copying').scrollIntoView());
      await page.waitForSelector('.copying-reading canvas[data-peaks]', { timeout: 30_000 });
      const text = 'the sun and the moon, the sun and the mo';
      for (const layer of [2, 1]) {
        await page.check(`input[name="copying-layer"][value="${layer}"]`);
        await page.fill('#copying-text', text);
        await page.waitForFunction(
          (count) =>
            document.querySelector('.copying-reading canvas').dataset.peaks.split(',').length ===
            count,
          [...text].length,
          { timeout: 20_000 },
        );
        const peaks = (await page.getAttribute('.copying-reading canvas', 'data-peaks'))
          .split(',')
          .map(Number);
        const expected = copyingHeadFloat64(saved, text).weights[layer - 1].map((row) =>
          row.indexOf(Math.max(...row)),
        );
        assert.deepEqual(peaks, expected, `layer ${layer}`);
      }
      assert.match(
        await page.textContent('.copying-reading__note'),
        /^Layer 1 mostly looks one character back/,
      );
      const hash = new URL(page.url()).hash;
      assert.match(hash, /copy-text=the%20sun/);
      assert.match(hash, /copy-layer=1/);
      await page.reload();
      await page.evaluate(() => document.querySelector('#copying').scrollIntoView());
      await page.waitForSelector('.copying-reading canvas[data-peaks]', { timeout: 30_000 });
      assert.equal(await page.inputValue('#copying-text'), text);
      assert.equal(await page.isChecked('input[name="copying-layer"][value="1"]'), true);
      assert.deepEqual(problems, []);
    });
  });
});

describe('section 9 grows a head in the reader’s browser', () => {
  test('the link fills in seed and steps; growing draws, says where it is, and stops and goes on', async () => {
    await openPage('#grow-seed=2&grow-steps=300', async (page, problems) => {
      await page.evaluate(() => document.querySelector('#copying').scrollIntoView());
      await page.waitForSelector('.copying-grow [data-role="grow"]', { timeout: 30_000 });
      assert.equal(await page.inputValue('.copying-grow [data-role="seed"]'), '2');
      assert.equal(await page.inputValue('.copying-grow [data-role="steps"]'), '300');
      await page.waitForSelector('.copying-reading canvas[data-peaks]', { timeout: 30_000 });
      const savedGuess = await page.textContent('.copying-reading__guesses');
      await page.click('.copying-grow [data-role="grow"]');
      const status = () => page.textContent('.copying-grow [data-role="status"]');
      const stepShown = async () => Number(/^Step (\d+) of 300,/.exec(await status())?.[1] ?? 0);
      await poll(async () => (await stepShown()) >= 50, {
        timeout: 60_000,
        message: 'the run never reached step 50',
      });
      await page.click('.copying-grow [data-role="pause"]');
      await poll(
        async () => (await page.textContent('.copying-grow [data-role="pause"]')) === 'Go on',
        {
          message: 'Stop never became Go on',
        },
      );
      // the reading follows the growing head, with its own guess
      assert.equal(await page.isChecked('input[name="copying-source"][value="grown"]'), true);
      await poll(async () => (await page.textContent('.copying-reading__guesses')) !== savedGuess, {
        message: 'the reading never showed the grown head',
      });
      const stoppedAt = await status();
      await page.click('.copying-grow [data-role="pause"]');
      // typing while it grows: the maps asked for share the run's worker, and the run goes on
      for (const typed of ['to be', 'to be or not', 'to be or not to be'])
        await page.fill('#copying-text', typed);
      await poll(async () => (await stepShown()) === 300, {
        timeout: 60_000,
        message: 'the run never went on to step 300',
      });
      assert.notEqual(await status(), stoppedAt);
      const text = [
        await status(),
        await page.getAttribute('.copying-grow canvas', 'aria-label'),
        await page.textContent('.copying-reading'),
      ].join(' ');
      assert.match(text, /Layer 2's induction score is 0\.\d\d/);
      assert.doesNotMatch(text, /NaN|undefined|Infinity/);
      assert.ok(
        (await page.evaluate(() => location.hash)).includes('grow-seed=2'),
        'the link keeps the seed',
      );
      assert.deepEqual(problems, []);
    });
  });

  test('a seed that is not a whole number is refused in words, and nothing starts', async () => {
    await openPage('', async (page, problems) => {
      await page.evaluate(() => document.querySelector('#copying').scrollIntoView());
      await page.waitForSelector('.copying-grow [data-role="grow"]', { timeout: 30_000 });
      await page.fill('.copying-grow [data-role="seed"]', '1.5');
      await page.click('.copying-grow [data-role="grow"]');
      assert.match(
        await page.textContent('.copying-grow [data-role="message"]'),
        /The seed must be a whole number from 0 to 999,999\./,
      );
      assert.doesNotMatch(await page.textContent('.copying-grow [data-role="status"]'), /Step/);
      assert.deepEqual(problems, []);
    });
  });
});

describe('the head the reader grows, on the main map', () => {
  test('a link to it opens the saved head in its place, grows nothing until asked, then follows the run', async () => {
    const hash = `#vectors=grown-2&grow-seed=2&grow-steps=100&text=${encodeURIComponent(PHRASE)}`;
    await openPage(hash, async (page, problems) => {
      await noteMentions(page, /seed 2 for 100 steps, which this page has not grown/);
      assert.equal(await page.inputValue('#map-vectors'), 'grown-2');
      assert.match(
        await page.textContent('[data-role="summary"]'),
        /layer 2 of the two grown heads/,
      );
      await page.waitForTimeout(2000); // opening the link starts nothing
      assert.match(await note(page), /has not grown/);
      await page.click('[data-role="recipe-note"] button');
      await noteMentions(
        page,
        /^Layer 2 of the head you grow from seed 2, at step 100 of 100\./,
        120_000,
      );
      assert.match(
        await page.textContent('[data-role="summary"]'),
        /layer 2 of the head you grow from seed 2, at step 100 of 100/,
      );
      // the note counts the rows of the weights the map draws
      const rows = await downloadedWeights(page);
      const [withEarlier, intoCopy] = shareByRule([...PHRASE], rows);
      assert.ok((await note(page)).includes(`Of the ${withEarlier} rows`), await note(page));
      assert.ok((await note(page)).includes(`, ${intoCopy} (`), await note(page));
      const link = await page.evaluate(() => location.hash);
      for (const part of ['vectors=grown-2', 'grow-seed=2', 'grow-steps=100'])
        assert.ok(link.includes(part), `${part} in ${link}`);
      assert.doesNotMatch(await page.textContent('.attention-map'), /NaN|undefined/);
      assert.deepEqual(problems, []);
    });
  });

  test('section 9 puts the head it grows on the map in one click', async () => {
    await openPage('#grow-seed=1&grow-steps=200', async (page, problems) => {
      await page.evaluate(() => document.querySelector('#copying').scrollIntoView());
      await page.waitForSelector('.copying-grow [data-role="grow"]', { timeout: 30_000 });
      assert.equal(await page.isHidden('.copying-grow [data-role="map"]'), true);
      await page.click('.copying-grow [data-role="grow"]');
      await page.waitForSelector('.copying-grow [data-role="map"]:not([hidden])', {
        timeout: 60_000,
      });
      await page.click('.copying-grow [data-role="map"]');
      // The map's menu shows the new choice once the map has it (a step call may be running
      // on the worker that answers the map's request).
      await poll(async () => (await page.inputValue('#map-vectors')) === 'grown-2', {
        timeout: 10_000,
        message: "the map's menu never showed the grown head",
      });
      await noteMentions(page, /^Layer 2 of the head you grow from seed 1, at step \d+ of 200/);
      await noteMentions(page, /at step 200 of 200\./, 120_000);
      assert.match(page.url(), /vectors=grown-2/);
      assert.deepEqual(problems, []);
    });
  });
});

// The map's weights once the head of seed 2 has grown 100 steps from the map's note, on a page that
// reports `cores` cores (and so takes each step on growthWorkers of them), with the number of
// workers it used.
async function grownWeights(cores) {
  const page = await chromium.newPage({ viewport: { width: 1280, height: 900 } });
  const problems = await watchProblems(page);
  try {
    await page.addInitScript((n) => {
      Object.defineProperty(navigator, 'hardwareConcurrency', { get: () => n });
    }, cores);
    await page.goto(
      chromium.url(
        `#vectors=grown-2&grow-seed=2&grow-steps=100&text=${encodeURIComponent(PHRASE)}`,
      ),
    );
    await noteMentions(page, /has not grown/, 30_000);
    await page.click('[data-role="recipe-note"] button');
    await noteMentions(page, /at step 100 of 100\./, 120_000);
    const workers = await page.evaluate(() => document.documentElement.dataset.growthWorkers);
    const rows = await downloadedWeights(page);
    assert.deepEqual(problems, []);
    return { workers, rows };
  } finally {
    await page.close();
  }
}

describe('growing on several workers in the page', () => {
  test('four reported cores grow on two workers, to the map one worker grows', async () => {
    const one = await grownWeights(2);
    const two = await grownWeights(4);
    assert.deepEqual([one.workers, two.workers], ['1', '2']);
    assert.equal(two.rows.length, [...PHRASE].length);
    assert.deepEqual(two.rows, one.rows);
  });
});
