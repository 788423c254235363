// The page on a slow phone: the essential checks in Chromium at 390×844 with the CPU slowed 6×
// (DevTools' throttling, throttle.mjs), as on a reader's phone or school laptop 4–6× slower than
// the machines the page was written on. The first screen's map, every figure mounting, an
// experiment drawn in section 8, the copying head on section 4's map, section 6's default
// training run to its end, and an embedded figure: each works, nothing is logged, and the page
// takes no fallback a reader would notice (its heavy work stays in workers, no banner).
//
// DevTools slows the page's main thread and its same-site frames, not its workers ("only
// supported for pages, not workers"): the workers' own slowness is the unit tests' part
// (web/test/unit/compute.test.mjs: a worker that runs is waited for however long it loads).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { mountEveryFigure, useChromium, watchProblems } from './chromium.mjs';
import { copyingHeadFloat64 } from './reference/copying-head-float64.mjs';
import { throttleCpu } from './throttle.mjs';
import { poll } from './waits.mjs';

const chromium = useChromium();
const saved = JSON.parse(
  readFileSync(new URL('../assets/copying-head.json', import.meta.url), 'utf8'),
);
const RATE = 6;
const PHONE = { width: 390, height: 844 };
// At 6× the page's start and a later section's first drawing take seconds, not milliseconds.
const SLOW = { timeout: 60_000 };
// Section 6's four runs: about 8 s at full speed, their drawing slowed 6× on the page.
const TRAINING_LIMIT_MS = 240_000;

async function openSlow(path = 'index.html') {
  const page = await chromium.newPage({ viewport: PHONE, reducedMotion: 'reduce' });
  const problems = await watchProblems(page);
  await throttleCpu(page, RATE);
  await page.goto(chromium.url().replace('index.html', path));
  return { page, problems };
}

// What a reader would notice of a fallback or a failure: the banner, and the paths the page
// declares for its heavy work.
function fallbacks(page) {
  return page.evaluate(() => {
    const banner = document.getElementById('banner');
    const { compute, computeReason, learningCompute } = document.documentElement.dataset;
    return {
      banner: banner.hidden ? '' : banner.textContent,
      compute: compute === 'main-thread' ? `main thread: ${computeReason}` : 'ok',
      learning: learningCompute === 'main-thread' ? 'main thread' : 'ok',
    };
  });
}

const NONE = { banner: '', compute: 'ok', learning: 'ok' };

// Clicks an experiment in section 8 and waits until section 8 has drawn its map and note.
async function runExperiment(page, id) {
  const button = page.locator(`[data-figure="experiments"] button[data-experiment="${id}"]`);
  await button.scrollIntoViewIfNeeded();
  await button.click();
  await page.waitForFunction(
    (experiment) => {
      const figure = document.querySelector('[data-figure="experiments"]');
      const pressed = figure.querySelector('button[aria-pressed="true"]');
      const note = figure.querySelector('.experiment-note');
      return pressed?.dataset.experiment === experiment && !note.hidden && note.textContent;
    },
    id,
    SLOW,
  );
  return page.evaluate(() => {
    const figure = document.querySelector('[data-figure="experiments"]');
    return {
      map: figure.querySelector('.experiment-map').getAttribute('aria-label'),
      note: figure.querySelector('.experiment-note').textContent,
      summary: document.querySelector('#map [data-role="summary"]').textContent,
    };
  });
}

test(`at ${RATE}× slower on a phone: first map, every figure, experiments, the copying head`, async (t) => {
  const { page, problems } = await openSlow();
  await page.waitForSelector('.hero-map[data-peaks]', SLOW);
  const heroMs = await page.evaluate(() => performance.getEntriesByName('hero-drawn')[0].startTime);
  t.diagnostic(`the first screen's map was drawn ${Math.round(heroMs)} ms after navigation`);
  // The sentence names the letter the last row looks at most, by a float64 forward pass.
  const chars = [...(await page.inputValue('#hero-text'))];
  const last = copyingHeadFloat64(saved, chars.join('')).weights[1].at(-1);
  const peak = last.indexOf(Math.max(...last));
  assert.ok(
    (await page.textContent('.hero-line')).startsWith(
      `The last letter, “${chars.at(-1)}”, looks back at “${chars[peak]}”`,
    ),
  );
  await poll(() => page.evaluate(() => document.documentElement.dataset.compute === 'worker'), {
    ...SLOW,
    message: 'the compute worker never started',
  });

  await mountEveryFigure(page);
  const waiting = await page.$$eval('.figure-waiting', (slots) => slots.map((s) => s.textContent));
  assert.deepEqual(waiting, [], 'every figure mounted');

  // The standard recipe at d = 256: computed in the worker, drawn by section 8 and section 4.
  const widen = await runExperiment(page, 'widen');
  assert.match(widen.map, /: 41 tokens\.$/);
  assert.match(widen.summary, /^41 tokens, d = 256/);
  assert.match(widen.note, /Standard recipe/);

  // The copying head, computed on the page from its saved weights.
  const twice = await runExperiment(page, 'say-twice');
  assert.match(twice.map, /: \d+ tokens\.$/);
  assert.match(twice.summary, /layer 2 of the two grown heads/);
  assert.match(twice.note, /Layer 2 looks for what came next last time/);

  assert.deepEqual(await fallbacks(page), NONE);
  assert.deepEqual(problems, []);
  await page.close();
});

test(`at ${RATE}× slower on a phone: section 6's default run ends in its workers`, async (t) => {
  const { page, problems } = await openSlow('index.html#training');
  const button = page.locator('#training .training__buttons button').first();
  await button.scrollIntoViewIfNeeded(SLOW);
  await button.click(SLOW);
  const started = Date.now();
  await page.waitForFunction(
    () =>
      /^Finished/.test(document.querySelector('#training .training__buttons button').textContent),
    null,
    { timeout: TRAINING_LIMIT_MS, polling: 500 },
  );
  t.diagnostic(
    `the four runs finished ${((Date.now() - started) / 1000).toFixed(1)} s after the click`,
  );
  const view = await page.evaluate(() => ({
    learning: document.documentElement.dataset.learningCompute,
    status: document.querySelector('#training .training__status').textContent,
    findings: document.querySelector('#training .training__findings').textContent,
  }));
  assert.equal(view.learning, 'worker', 'the runs trained in the learning workers');
  assert.match(view.status, /^Step 300 of 300 \(100% of the four runs\)/);
  assert.match(view.findings, /After 300 steps the held-out loss/);
  assert.deepEqual(await fallbacks(page), NONE);
  assert.deepEqual(problems, []);
  await page.close();
});

test(`at ${RATE}× slower on a phone: an embedded map draws across its view`, async () => {
  const { page, problems } = await openSlow('embed.html?figure=map');
  await page.waitForSelector('#map-table table', SLOW);
  const widths = await page.evaluate(() => ({
    canvas: document.querySelector('.map-canvas').getBoundingClientRect().width,
    view: document.documentElement.clientWidth,
  }));
  assert.ok(widths.canvas > 0.75 * widths.view, `the map is ${JSON.stringify(widths)} px wide`);
  assert.deepEqual(await fallbacks(page), NONE);
  assert.deepEqual(problems, []);
  await page.close();
});
