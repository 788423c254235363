// The attention map as a beginner meets it: its colours mean one thing (the colour bar's top
// reads 1 in the default state and after every experiment, unless the reader stretches the
// colours), after each experiment at least half of the map and its note are on screen
// together on a laptop and a phone (with smooth scrolling, as most readers have it), and
// moving only the width d changes only d. The last is measured twice: on the wasm core in
// Node over several texts, seeds and widths, and on the page through its controls.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useChromium, watchProblems } from './chromium.mjs';
import { loadCores } from './cores.mjs';
import { poll } from './waits.mjs';
import { DEFAULT_STATE } from '../src/state.js';
import { rowAverages } from '../src/lib/map-statistics.js';
import { EXPERIMENT_TITLES } from './experiment-titles.mjs';

const chromium = useChromium();

async function open(
  hash = '',
  { width = 1280, height = 800, reducedMotion = 'no-preference' } = {},
) {
  const page = await chromium.newPage({ viewport: { width, height }, reducedMotion });
  const problems = await watchProblems(page);
  await page.goto(chromium.url(hash));
  await page.waitForSelector('#map-table table');
  return { page, problems };
}

// Clicks an experiment's button and waits until the map shows its note and the page has
// stopped scrolling (the same scroll position over 400 ms).
async function runExperiment(page, title) {
  await page.click(`[data-figure="experiments"] button:text-is("${title}")`);
  await page.waitForFunction(
    (name) =>
      document.querySelector('#map .experiment-note .experiment-title')?.textContent === name,
    title,
  );
  let last = -1;
  await poll(
    async () => {
      const now = await page.evaluate(
        () => new Promise((resolve) => setTimeout(() => resolve(window.scrollY), 400)),
      );
      const still = now === last;
      last = now;
      return still;
    },
    { message: `${title}: the page never stopped scrolling` },
  );
}

const colourTop = (page) => page.getAttribute('#map .map-canvas', 'data-colour-top');

describe('colours mean one thing', () => {
  test('the colour bar reads 1 at its top by default and after every experiment', async () => {
    const { page, problems } = await open('', { reducedMotion: 'reduce' });
    assert.equal(await colourTop(page), '1');
    assert.equal(await page.isVisible('#map [data-role="colour-note"]'), false);
    for (const title of EXPERIMENT_TITLES) {
      await runExperiment(page, title);
      assert.equal(await colourTop(page), '1', title);
    }
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('stretched colours: the bar reads the largest weight, a sentence says so, the link keeps it', async () => {
    const { page, problems } = await open('', { reducedMotion: 'reduce' });
    await runExperiment(page, 'Scale by 1/d instead of 1/√d');
    await page.check('#map-stretch');
    await page.waitForFunction(() => /stretch=1/.test(location.hash));
    await poll(async () => (await colourTop(page)) !== '1', { message: 'the bar still reads 1' });
    // The largest weight, from the numbers table (every row of this 41-token map).
    const largest = await page.$$eval('#map-table tbody td:not(.stat)', (cells) =>
      Math.max(...cells.map((cell) => Number(cell.textContent))),
    );
    const top = Number(await colourTop(page));
    assert.ok(top > 0 && top < 0.1 && Math.abs(top - largest) < 0.002, `${top} vs ${largest}`);
    const words = await page.textContent('#map [data-role="colour-note"]');
    assert.match(
      words,
      /Colours are stretched: the brightest is this map’s largest weight, 0\.0\d+, not 1/,
    );
    assert.equal(
      await page.textContent('#map .experiment-note .experiment-title'),
      'Scale by 1/d instead of 1/√d',
      'the experiment stays named: only its colours changed',
    );
    await runExperiment(page, 'No scaling at d = 512');
    assert.notEqual(await colourTop(page), '1', 'an experiment keeps the colours the reader chose');
    await page.uncheck('#map-stretch');
    await poll(async () => (await colourTop(page)) === '1', {
      message: 'the bar never read 1 again',
    });
    assert.doesNotMatch(page.url(), /stretch/);
    assert.deepEqual(problems, []);
    await page.close();
  });
});

// ---- Moving only d ---------------------------------------------------------------------------
// Texts of at least 13 tokens, as characters or words.
const TEXTS = [
  ['To be, or not', 'chars'],
  ['attention is a weighted average of values', 'chars'],
  ['one two three four five six seven eight nine ten eleven twelve thirteen', 'words'],
];
const WIDTHS = [8, 16, 24, 32, 64, 128, 256, 512, 1024];
const SEEDS = [1, 2, 3, 4, 5];

const meanPeak = (core, state) => rowAverages(core.attentionMap(state)).peak;

describe('moving only d', () => {
  test('under the standard recipe: how far the mean peak moves when only d moves', async (t) => {
    const { core } = await loadCores();
    let worst = { change: 0 };
    let worstAverage = { change: 0 };
    for (const [text, tokens] of TEXTS) {
      for (const causal of [true, false]) {
        const state = { ...DEFAULT_STATE, text, tokens, causal, init: 'standard' };
        assert.ok(core.tokenCount(state) >= 13, text);
        const peaks = WIDTHS.map((d) => SEEDS.map((seed) => meanPeak(core, { ...state, d, seed })));
        const averages = peaks.map((row) => row.reduce((a, b) => a + b, 0) / SEEDS.length);
        for (const [i, from] of WIDTHS.entries()) {
          for (const [j, to] of WIDTHS.entries()) {
            for (const [s, seed] of SEEDS.entries()) {
              const change = Math.abs(peaks[j][s] - peaks[i][s]);
              if (change > worst.change) worst = { change, text, causal, seed, from, to };
            }
            const change = Math.abs(averages[j] - averages[i]);
            if (change > worstAverage.change) worstAverage = { change, text, causal, from, to };
          }
        }
      }
    }
    t.diagnostic(`worst change of one map's mean peak: ${JSON.stringify(worst)}`);
    t.diagnostic(
      `worst change of the mean over ${SEEDS.length} seeds: ${JSON.stringify(worstAverage)}`,
    );
    // Each width draws a new random head (x, Wq and Wk of another size), so one map's mean peak
    // moves by the spread of a draw: 0.15 at worst on this grid (0.19 with one vector per
    // token), over 0.06. What the recipe decides, the level the draws fall around, stays
    // within 0.04 for d ≥ 8.
    assert.ok(worst.change < 0.25, JSON.stringify(worst));
    assert.ok(worstAverage.change < 0.06, JSON.stringify(worstAverage));
    // Below d = 8 a dot product sums too few products to keep its spread: the level itself
    // drops (reported, not bounded).
    const [text, tokens] = TEXTS[0];
    const level = (d) =>
      SEEDS.reduce(
        (sum, seed) =>
          sum + meanPeak(core, { ...DEFAULT_STATE, text, tokens, d, seed, init: 'standard' }),
        0,
      ) / SEEDS.length;
    const at24 = level(24);
    const narrow = [1, 2, 4].map((d) => `d = ${d}: ${(level(d) - at24).toFixed(3)}`);
    t.diagnostic(
      `mean over seeds against d = 24 (${at24.toFixed(3)}), ${text}: ${narrow.join(', ')}`,
    );
  });

  test('on the page: d rests under the tutorial recipe, and then moves alone', async (t) => {
    const { page, problems } = await open('', { reducedMotion: 'reduce' });
    assert.equal(await page.isEditable('#map-d'), false, 'd rests under the tutorial recipe');
    assert.equal(await page.getAttribute('#map-d', 'aria-disabled'), 'true');
    assert.match(await page.getAttribute('#map-d', 'aria-describedby'), /map-recipe-note/);
    const before = new URL(page.url()).hash;
    await page.click('#map [data-role="recipe-note"] button');
    await page.waitForFunction(() => /init=standard/.test(location.hash));
    assert.equal(new URL(page.url()).hash, before.replace('init=tutorial', 'init=standard'));
    assert.equal(await page.isEditable('#map-d'), true);
    const peak = () =>
      page.$$eval('#map-table tbody tr', (rows) => {
        const T = rows.length;
        const maxima = rows.map((row) =>
          Math.max(
            ...[...row.querySelectorAll('td')].slice(0, T).map((cell) => Number(cell.textContent)),
          ),
        );
        return maxima.reduce((a, b) => a + b, 0) / T;
      });
    let previous = await peak();
    let worst = 0;
    for (const d of [32, 64, 256, 1024, 24]) {
      const hash = new URL(page.url()).hash;
      await page.fill('#map-d', String(d));
      await page.waitForFunction((width) => location.hash.includes(`d=${width}&`), d);
      assert.equal(new URL(page.url()).hash, hash.replace(/&d=\d+&/, `&d=${d}&`), 'only d moved');
      await page.waitForFunction(
        (width) =>
          document.querySelector('[data-role="summary"]').textContent.includes(`d = ${width},`),
        d,
      );
      await page.evaluate(
        () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))),
      );
      const now = await peak();
      worst = Math.max(worst, Math.abs(now - previous));
      previous = now;
    }
    t.diagnostic(
      `worst change of the mean peak, moving d on the default text: ${worst.toFixed(3)}`,
    );
    assert.ok(worst < 0.25, `${worst}`);
    assert.deepEqual(problems, []);
    await page.close();
  });
});

// A large map's cells are max-pooled and coloured in the compute worker, which hands the page
// a finished bitmap (web/src/compute/pictures.js). What the page then shows must be what it
// paints itself where workers are refused: the same link, drawn both ways, pixel for pixel.
describe('a large map painted in the worker', () => {
  const text = 'Shall I compare thee to a summer’s day? '.repeat(25).slice(0, 1000);

  // The map and the first screen's map as drawn, once a 1,000-token text was typed in.
  async function drawn(hash, { refuseWorkers }) {
    const page = await chromium.newPage({ viewport: { width: 1280, height: 800 } });
    const problems = await watchProblems(page);
    if (refuseWorkers)
      await page.route('**/index.html', async (route) => {
        const response = await route.fetch();
        const body = (await response.text()).replace(/worker-src [^;]*/, "worker-src 'none'");
        await route.fulfill({ response, body });
      });
    await page.goto(chromium.url(hash));
    const path = refuseWorkers ? 'main-thread' : 'worker';
    await page.waitForFunction((mode) => document.documentElement.dataset.compute === mode, path);
    await page.fill('#map-text', text);
    await page.waitForFunction(() =>
      /^1000 tokens/.test(document.querySelector('[data-role="summary"]').textContent),
    );
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 200))),
    );
    const shown = await page.evaluate(() => ({
      painted: document.querySelector('#map .map-canvas').dataset.cellsPainted,
      map: document.querySelector('#map .map-canvas').toDataURL(),
      hero: document.querySelector('.hero-map').toDataURL(),
    }));
    await page.close();
    return { ...shown, problems: problems.filter((problem) => !/worker-src/.test(problem)) };
  }

  for (const hash of ['#d=64', '#d=64&stretch=1']) {
    test(`${hash}: the worker's picture is the one the page paints itself`, async () => {
      const worker = await drawn(hash, { refuseWorkers: false });
      const page = await drawn(hash, { refuseWorkers: true });
      assert.equal(worker.painted, 'worker');
      assert.equal(page.painted, 'page');
      assert.ok(worker.map === page.map, 'section 4’s map differs');
      assert.ok(worker.hero === page.hero, 'the first screen’s map differs');
      assert.deepEqual([...worker.problems, ...page.problems], []);
    });
  }
});
