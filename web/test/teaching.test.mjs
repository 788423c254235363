// Does the page teach what it says, where the learner looks? The built page in Chromium:
// experiments show map and note together on a laptop and a phone, the same-token rows side by
// side, the recipe switch and the text-box note, taps and highlights, and the weights for the
// standard recipe and RoPE against PyTorch, set through the link.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { useChromium } from './chromium.mjs';
import { EXPERIMENT_TITLES } from './experiment-titles.mjs';

const root = new URL('../../', import.meta.url);

const chromium = useChromium();
const fixture = (name) => JSON.parse(readFileSync(new URL(`tests/fixtures/${name}`, root), 'utf8'));

async function open(hash = '', { width = 1280, height = 800, touch = false } = {}) {
  const page = await chromium.newPage({
    viewport: { width, height },
    hasTouch: touch,
    isMobile: touch,
    reducedMotion: 'reduce',
  });
  const problems = [];
  page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  await page.goto(chromium.url(hash));
  await page.waitForSelector('#map-table table');
  return { page, problems };
}

// The weights as the numbers table prints them.
function readWeights(page) {
  return page.$$eval('#map-table tbody tr', (rows) => {
    const T = rows.length;
    return rows.map((row) =>
      [...row.querySelectorAll('td')].slice(0, T).map((cell) => Number(cell.textContent)),
    );
  });
}

// After the hash shows a new state: one more frame and task, so the numbers table (built in
// the task after the frame that drew the map) shows that state too.
function settle(page) {
  return page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))),
  );
}

// Is the element's whole box inside the viewport?
function inView(page, selector) {
  return page.$eval(selector, (element) => {
    const box = element.getBoundingClientRect();
    return {
      // within a pixel: a smooth scroll may stop a fraction short
      inside:
        box.top >= -1 &&
        box.left >= -1 &&
        box.bottom <= innerHeight + 1 &&
        box.right <= innerWidth + 1,
      box: `${Math.round(box.top)}..${Math.round(box.bottom)} of ${innerHeight}`,
    };
  });
}

// Clicks an experiment's button (from where the reader sees it) and waits until the note shows
// and the page has stopped scrolling; returns how far the page moved.
async function runExperiment(page, title) {
  const button = page.locator(`[data-figure="experiments"] button:text-is("${title}")`);
  await button.scrollIntoViewIfNeeded();
  // Where the reader's eyes are: the button they press, in the viewport (the page's scroll
  // position alone also moves when sections above it lay out, with nothing on screen moving).
  const where = () => button.evaluate((element) => element.getBoundingClientRect().top);
  const before = await where();
  await button.click();
  await page.waitForFunction(
    (name) =>
      document.querySelector('#map .experiment-note .experiment-title')?.textContent === name,
    title,
    { timeout: 20000 },
  );
  let last = Number.NaN;
  for (let still = 0; still < 2; ) {
    await page.waitForTimeout(300);
    const now = await where();
    still = now === last ? still + 1 : 0;
    last = now;
  }
  await settle(page);
  return Math.abs(last - before);
}

for (const [width, height] of [
  [1280, 800],
  [390, 844],
]) {
  test(`after each experiment at ${width}×${height} its map and note are in view, the page moved less than a screen`, async () => {
    const { page, problems } = await open('', { width, height });
    for (const title of EXPERIMENT_TITLES) {
      const moved = await runExperiment(page, title);
      assert.ok(moved <= height, `${title}: the page moved ${moved} px`);
      const map = await inView(page, '[data-figure="experiments"] .experiment-scroller');
      const note = await inView(page, '[data-figure="experiments"] .experiment-note');
      assert.ok(map.inside, `${title}: map at ${map.box}`);
      assert.ok(note.inside, `${title}: note at ${note.box}`);
      const here = await page.textContent('[data-figure="experiments"] .experiment-note');
      assert.equal(here, await page.textContent('#map .experiment-note'), `${title}: section 4`);
    }
    assert.deepEqual(problems, []);
    await page.close();
  });
}

describe('the lesson holds on the page', () => {
  test('an experiment leaves nothing behind: the same-token pair ignores earlier settings', async () => {
    const { page, problems } = await open('#d=64&seed=9&scale=d&causal=1&pos=sinusoidal');
    await runExperiment(page, 'The same token at two positions');
    assert.match(
      page.url(),
      /text=the%20cat%20saw%20the%20dog&tokens=words&d=24&seed=1&causal=0&scale=sqrt/,
    );
    assert.match(page.url(), /pos=none/);
    const weights = await readWeights(page);
    assert.deepEqual(weights[0], weights[3], 'with the mask off, both “the” rows are one row');
    const side = await page.$$eval('#map .side-by-side tbody tr', (rows) =>
      rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent)),
    );
    assert.equal(side.length, 4, 'two weight rows, then two query rows');
    assert.deepEqual(side[0], side[1], 'the two weight rows are identical');
    assert.deepEqual(side[2], side[3], 'the two query rows are identical');
    await runExperiment(page, '…with sinusoidal positions');
    const added = await readWeights(page);
    assert.notDeepEqual(added[0], added[3]);
    assert.match(await page.textContent('#map .experiment-note'), /add a different wave/);
    await runExperiment(page, '…with RoPE');
    assert.match(page.url(), /pos=rope/);
    assert.match(
      await page.textContent('#map .experiment-note'),
      /rotates each pair of numbers in q and k/,
    );
    assert.match(await page.textContent('#map .experiment-note'), /identical without positions/);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('width d rests under the tutorial recipe; one click on the note lets it move alone', async () => {
    const { page, problems } = await open();
    assert.equal(await page.isEditable('#map-d'), false);
    assert.match(
      await page.textContent('#map [data-role="recipe-note"]'),
      /makes q, k and the scores grow with d, so width d is fixed at 24\./,
    );
    await page.click('#map [data-role="recipe-note"] button');
    await page.waitForFunction(() => /init=standard/.test(location.hash));
    await page.fill('#map-d', '256');
    await page.waitForFunction(() => /d=256/.test(location.hash));
    assert.match(page.url(), /init=standard/, 'moving d leaves the recipe alone');
    assert.match(
      await page.textContent('#map [data-role="recipe-note"]'),
      /q and k keep a spread of about 1 at every width/,
    );
    await page.click('#map [data-role="recipe-note"] button');
    await page.waitForFunction(() => /init=tutorial/.test(location.hash));
    assert.match(page.url(), /d=256/, 'and the recipe leaves d alone');
    assert.match(
      await page.textContent('#map [data-role="recipe-note"]'),
      /width d is fixed at 256, not the tutorial’s 24/,
    );
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('per-position vectors: the text box says typing cannot change the map, and one click fixes it', async () => {
    const { page, problems } = await open();
    const before = await readWeights(page);
    await page.fill('#map-text', 'Xo be, or not');
    await page.waitForFunction(() => /text=Xo/.test(location.hash));
    await settle(page);
    assert.deepEqual(await readWeights(page), before, 'the note is right: same weights');
    assert.match(
      await page.textContent('#map-text-note'),
      /typing changes the labels, not the map/,
    );
    await page.click('#map-text-note button');
    await page.waitForFunction(() => /vectors=token/.test(location.hash));
    await settle(page);
    assert.match(await page.textContent('#map-text-note'), /which tokens repeat/);
    const perToken = await readWeights(page);
    await page.fill('#map-text', 'Xo be, oX not'); // X now repeats: another pattern
    await page.waitForFunction(() => /oX/.test(location.hash));
    await settle(page);
    assert.notDeepEqual(await readWeights(page), perToken, 'other repeats, other weights');
    await page.fill('#map-text', 'Xa be, aX naX'); // other letters, the same pattern of repeats
    await page.waitForFunction(() => /naX/.test(location.hash));
    await settle(page);
    const renamed = await readWeights(page);
    await page.fill('#map-text', 'Xo be, oX noX');
    await page.waitForFunction(() => /noX/.test(location.hash));
    await settle(page);
    assert.deepEqual(await readWeights(page), renamed, 'which letters repeat does not matter');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('RoPE with an odd width: a message by the positions control, the last map kept', async () => {
    const { page, problems } = await open('#pos=rope&d=24&init=standard');
    const good = await readWeights(page);
    await page.fill('#map-d', '23');
    await page.waitForSelector('#map-pos-message:not(:empty)');
    assert.match(await page.textContent('#map-pos-message'), /even head width; d = 23 is odd/);
    assert.deepEqual(await readWeights(page), good);
    assert.match(page.url(), /d=24/);
    assert.deepEqual(problems, []);
    await page.close();
  });
});

describe('links', () => {
  test('a link opened while a computation is pending wins over the older state', async () => {
    const { page, problems } = await open();
    // In one task: a control change (its computation now waits for the next frame), then a
    // new link, whose hashchange event arrives after that frame has run.
    await page.evaluate(() => {
      const width = document.querySelector('#map-d');
      width.value = '30';
      width.dispatchEvent(new Event('input', { bubbles: true }));
      location.hash = '#text=link&d=12';
    });
    await page.waitForFunction(() => /text=link&.*d=12&/.test(location.hash), null, {
      timeout: 5000,
    });
    await settle(page);
    assert.equal(await page.inputValue('#map-text'), 'link');
    assert.equal(await page.inputValue('#map-d'), '12');
    assert.match(page.url(), /text=link&tokens=chars&d=12&/);
    assert.deepEqual(problems, []);
    await page.close();
  });
});

describe('reading cells', () => {
  test('a tap on a phone inspects the cell under the finger and marks it in the table', async () => {
    const { page, problems } = await open('', { width: 390, height: 844, touch: true });
    await page.locator('.map-canvas').scrollIntoViewIfNeeded();
    // The plot's geometry from lib/grid.js: 13 one-character labels leave 48 px on the left,
    // 8 px on top and 56 px on the right for the colour bar.
    const target = await page.evaluate(() => {
      const box = document.querySelector('.map-canvas').getBoundingClientRect();
      const cell = (box.width - 48 - 56) / 13;
      return { x: box.left + 48 + cell / 2, y: box.top + 8 + 12.5 * cell };
    });
    await page.touchscreen.tap(target.x, target.y);
    await page.waitForFunction(() =>
      /\(row 13\) → key/.test(document.querySelector('[data-role="inspector"]').textContent),
    );
    assert.match(
      await page.textContent('[data-role="inspector"]'),
      /query “t” \(row 13\) → key “T” \(column 1\)/, // counted from 1
    );
    assert.equal(await page.$$eval('#map-table td.highlighted', (cells) => cells.length), 1);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('a glossary term opens its plain-words definition on tap and closes with Escape', async () => {
    const { page, problems } = await open();
    const term = page.locator('#map .prose button.term', { hasText: 'peak weight' });
    await term.click();
    // While open, a definition lives in <body> (glossary.js), found by the term's aria-describedby.
    const definition = page.locator(`#${await term.getAttribute('aria-describedby')}`);
    assert.equal(await definition.isVisible(), true);
    assert.match(await definition.textContent(), /favourite token gets/);
    await page.keyboard.press('Escape');
    assert.equal(await definition.isVisible(), false);
    assert.deepEqual(problems, []);
    await page.close();
  });
});

// The fixtures script writes PyTorch's weights for the standard recipe and for RoPE.
const recipeCases = fixture('attention_map.json').cases.filter(
  (entry) => (entry.init && entry.init !== 'tutorial') || (entry.pos && entry.pos !== 'none'),
);

test('the standard recipe and RoPE equal PyTorch in the numbers table, set through the link', async () => {
  assert.ok(recipeCases.length > 0, 'the fixtures hold standard-recipe and RoPE cases');
  for (const entry of recipeCases) {
    const params = new URLSearchParams({
      text: entry.text,
      tokens: entry.tokens ?? 'chars',
      d: String(entry.d),
      seed: String(entry.seed),
      causal: entry.causal === false ? '0' : '1',
      scale: 'sqrt',
      vectors: entry.vectors ?? 'position',
      init: entry.init ?? 'tutorial',
      pos: entry.pos ?? 'none',
    });
    const { page, problems } = await open(`#${params.toString().replace(/\+/g, '%20')}`);
    const weights = await readWeights(page);
    const T = weights.length;
    for (let i = 0; i < T; i++) {
      for (let j = 0; j < T; j++) {
        const torch = entry.weights[i * entry.T + j];
        assert.ok(Math.abs(weights[i][j] - torch) <= 5e-4, `${params} cell ${i},${j}`);
      }
    }
    assert.deepEqual(problems, []);
    await page.close();
  }
});
