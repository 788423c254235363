// The built page (dist/) in Debian's Chromium through playwright-core, served over http: what
// each control, experiment and link does in detail, bad input, and the page without
// WebAssembly or JavaScript. Every test also fails on any console error, uncaught error or
// Content-Security-Policy violation. The essential checks (the map against PyTorch, the proof,
// the √d chart, over http and file://, at two widths) run in three engines in
// engines.test.mjs.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useChromium, watchProblems } from './chromium.mjs';
import { poll } from './waits.mjs';
import { wrap } from '../src/core.js';
import { compact } from '../src/lib/format.js';

const chromium = useChromium();

// Opens the page with `hash`, runs `body(page)`, then checks nothing went wrong on the way.
async function withPage(base, hash, body, { width = 1280 } = {}) {
  const page = await chromium.newPage({ viewport: { width, height: 900 } });
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  try {
    await page.goto(base + hash);
    await poll(() => page.$('#map-table table'), {
      message: 'the map never drew its numbers table',
    });
    await body(page);
    const text = await page.evaluate(() => document.body.textContent);
    assert.doesNotMatch(text, /\bNaN\b|\bundefined\b/, 'the page shows NaN or undefined');
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
  }
}

// The weights as the "Show numbers" table prints them (3 decimals), with its token labels.
function readMap(page) {
  return page.evaluate(() => {
    const rows = [...document.querySelectorAll('#map-table tbody tr')];
    const header = [...document.querySelectorAll('#map-table thead th')].map(
      (th) => th.textContent,
    );
    const T = rows.length;
    return {
      tokens: header.slice(1, 1 + T),
      weights: rows.map((row) =>
        [...row.querySelectorAll('td')].slice(0, T).map((td) => Number(td.textContent)),
      ),
    };
  });
}

// Runs `action` and returns the map once its table has changed; fails quoting the action if not.
async function changeAndWait(page, action, what = String(action)) {
  const before = JSON.stringify(await readMap(page));
  await action();
  return poll(
    async () => {
      const now = await readMap(page);
      return JSON.stringify(now) !== before && now;
    },
    { message: `${what} did not change the map` },
  );
}

function upperTriangleSum(weights) {
  let sum = 0;
  weights.forEach((row, i) => {
    row.forEach((w, j) => {
      if (j > i) sum += w;
    });
  });
  return sum;
}

const nodeCore = wrap(await createRequire(import.meta.url)('../../build/wasm/attention-core.js')());

test('the inspector gives any cell its score, also past the 16 rows whose working the map keeps', async () => {
  const text = 'a sentence of forty characters, or so it is';
  const state = { text, d: 64, init: 'standard' };
  const all = nodeCore.attentionMap(state); // every intermediate, computed here
  await withPage(
    chromium.url(),
    `#d=64&init=standard&text=${encodeURIComponent(text)}`,
    async (page) => {
      await page.focus('.map-canvas');
      for (let i = 0; i < 30; i++) await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Home');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      const index = 30 * all.T + 2;
      const expected = `q·k = ${compact(all.rawScores[index])}, × scale ${compact(all.scaleFactor)} = ${compact(all.scaledScores[index])}`;
      await poll(
        async () => (await page.textContent('[data-role="inspector"]')).includes(expected),
        { message: `the inspector never said “${expected}” for the 31st row, 3rd column` },
      );
    },
  );
});

// A browser or host that refuses workers (here a CSP of worker-src 'none', as a host's own
// header might set): the heavy figures are computed on the page instead, the page says which
// path it took, and nothing but the refusal itself is logged.
test('where workers are refused, the heavy figures compute on the page and still agree with the core', async () => {
  const page = await chromium.newPage({ viewport: { width: 1280, height: 900 } });
  const problems = await watchProblems(page);
  await page.route('**/index.html', async (route) => {
    const response = await route.fetch();
    const body = (await response.text()).replace(/worker-src [^;]*/, "worker-src 'none'");
    await route.fulfill({ response, body });
  });
  const text = 'To be, or not to be, that is the question: '.repeat(8).slice(0, 300);
  try {
    await page.goto(chromium.url(`#d=512&text=${encodeURIComponent(text)}`));
    const reason = await poll(
      () =>
        page.evaluate(
          () =>
            document.documentElement.dataset.compute === 'main-thread' &&
            document.documentElement.dataset.computeReason,
        ),
      { message: 'the page never said it computes on the main thread' },
    );
    assert.match(reason, /refused a worker/);
    // 300 tokens at d = 512: work the page would otherwise send to its worker.
    await poll(async () => /^300 tokens/.test(await page.textContent('[data-role="summary"]')), {
      message: 'the 300-token map never drew',
    });
    const shown = await readMap(page);
    const core = nodeCore.attentionMap({ text, d: 512, detail: 'weights' });
    assert.equal(shown.weights.length, 24, 'rows in the numbers table');
    for (const [i, row] of shown.weights.entries()) {
      for (const [j, weight] of row.entries()) {
        assert.ok(Math.abs(weight - core.weights[i * core.T + j]) <= 5e-4, `weight ${i},${j}`);
      }
    }
    await page.locator('#scale').scrollIntoViewIfNeeded();
    await page.getByText('Averaged', { exact: true }).click();
    await poll(
      async () =>
        /32 draws, T = 64, .*computed by the C\+\+ core in \d+ ms/.test(
          await page.textContent('#scale'),
        ),
      { timeout: 60_000, message: 'the averaged study never finished on the page' },
    );
    assert.deepEqual(
      problems.filter((problem) => !/worker-src/.test(problem)),
      [],
    );
  } finally {
    await page.close();
  }
});

describe('controls, experiments and links (over http)', () => {
  const url = () => chromium.url();

  test('causal off fills the upper triangle; on empties it again', async () => {
    await withPage(url(), '', async (page) => {
      assert.equal(upperTriangleSum((await readMap(page)).weights), 0);
      assert.match(await page.getAttribute('.map-canvas', 'aria-label'), /causal mask/);
      const open = await changeAndWait(page, () => page.uncheck('#map-causal'));
      assert.ok(upperTriangleSum(open.weights) > 1);
      assert.match(page.url(), /causal=0/);
      const closed = await changeAndWait(page, () => page.check('#map-causal'));
      assert.equal(upperTriangleSum(closed.weights), 0);
    });
  });

  test('a map with more cells than the plot has pixels says each pixel shows the largest weight', async () => {
    const text = 'To be, or not to be, that is the question: '.repeat(24).slice(0, 1000);
    await withPage(url(), `#text=${encodeURIComponent(text)}`, async (page) => {
      await poll(async () => /^1000 tokens/.test(await page.textContent('[data-role="summary"]')), {
        message: 'the 1000-token map never drew',
      });
      assert.ok(await page.isVisible('[data-role="pooled-note"]'), 'the note under the map');
      assert.match(await page.textContent('[data-role="pooled-note"]'), /largest weight/);
      await changeAndWait(page, () => page.fill('#map-text', 'To be, or not'));
      assert.equal(await page.isVisible('[data-role="pooled-note"]'), false, '13 cells fit');
    });
  });

  test('each control changes the map the way it should', async () => {
    await withPage(url(), '', async (page) => {
      let map = await changeAndWait(page, () => page.fill('#map-text', 'hello world'));
      assert.equal(map.tokens.length, 11);
      map = await changeAndWait(page, () => page.selectOption('#map-tokens', 'words'));
      assert.deepEqual(map.tokens, ['hello', 'world']);
      map = await changeAndWait(page, () => page.fill('#map-text', 'a b a c a b'));
      assert.equal(map.tokens.length, 6);
      map = await changeAndWait(page, () => page.fill('#map-seed', '7'));
      // Width d rests under the tutorial's recipe: the standard one lets it move.
      map = await changeAndWait(page, () => page.selectOption('#map-init', 'standard'));
      map = await changeAndWait(page, () => page.fill('#map-d', '64'));
      assert.match(page.url(), /d=64/);
      map = await changeAndWait(page, () => page.selectOption('#map-scale', 'none'));
      const unscaledPeak = map.weights.reduce((sum, row) => sum + Math.max(...row), 0);
      map = await changeAndWait(page, () => page.selectOption('#map-scale', 'd'));
      const inverseDPeak = map.weights.reduce((sum, row) => sum + Math.max(...row), 0);
      assert.ok(
        inverseDPeak < unscaledPeak,
        'dividing by d spreads attention compared with no scaling',
      );
      map = await changeAndWait(page, () => page.selectOption('#map-scale', 'custom'));
      assert.equal(await page.isVisible('#map-factor'), true);
      await changeAndWait(page, () =>
        page.$eval('#map-factor', (slider) => {
          slider.value = '0.5'; // log10 of the factor
          slider.dispatchEvent(new Event('input', { bubbles: true }));
        }),
      );
      assert.match(page.url(), /scale=3\.16/);
      map = await changeAndWait(page, () => page.selectOption('#map-vectors', 'token'));
      map = await changeAndWait(page, () => page.selectOption('#map-pos', 'sinusoidal'));
      assert.match(page.url(), /pos=sinusoidal/);
    });
  });

  test('a shared link restores every field, and the state round-trips through the URL', async () => {
    // An old link (pos=1, no init, no first-screen keys) comes back in today's spelling: the
    // first screen reads the map's text.
    const hash =
      '#text=the%20cat%20sat&tokens=words&d=16&seed=42&causal=0&scale=none&vectors=token&pos=1';
    const today = `#words=the%20cat%20sat&head=copying&${hash
      .slice(1)
      .replace('pos=1', 'init=tutorial&pos=sinusoidal')}`;
    await withPage(url(), hash, async (page) => {
      assert.equal(await page.inputValue('#map-text'), 'the cat sat');
      assert.equal(await page.inputValue('#map-tokens'), 'words');
      assert.equal(await page.inputValue('#map-d'), '16');
      assert.equal(await page.inputValue('#map-seed'), '42');
      assert.equal(await page.isChecked('#map-causal'), false);
      assert.equal(await page.inputValue('#map-scale'), 'none');
      assert.equal(await page.inputValue('#map-vectors'), 'token');
      assert.equal(await page.inputValue('#map-pos'), 'sinusoidal');
      assert.equal(new URL(page.url()).hash, today);
      assert.deepEqual((await readMap(page)).tokens, ['the', 'cat', 'sat']);
    });
  });

  test('bad values in a link fall back to defaults with a visible message', async () => {
    await withPage(url(), '#d=abc&seed=-4&scale=0&causal=maybe&text=ok', async (page) => {
      const notice = await page.textContent('[data-role="notices"]');
      assert.match(notice, /d=“abc”/);
      assert.match(notice, /seed=“-4”/);
      assert.match(notice, /scale=“0”/);
      assert.match(notice, /causal=“maybe”/);
      assert.equal(await page.inputValue('#map-d'), '24');
      assert.deepEqual((await readMap(page)).tokens, ['o', 'k']);
    });
  });

  test('bad input shows a message beside its control and keeps the last good map', async () => {
    await withPage(url(), '#init=standard', async (page) => {
      const good = await readMap(page);
      await page.fill('#map-d', 'abc');
      await poll(() => page.textContent('#map-d-message'), {
        message: 'no message beside the d field',
      });
      assert.match(await page.textContent('#map-d-message'), /whole number from 1 to 1024/);
      assert.equal(await page.getAttribute('#map-d', 'aria-invalid'), 'true');
      await page.fill('#map-text', '');
      await poll(() => page.textContent('#map-text-message'), {
        message: 'no message beside the text field',
      });
      assert.deepEqual(await readMap(page), good);
      await changeAndWait(page, () => page.fill('#map-d', '8'));
      assert.equal(await page.textContent('#map-d-message'), '');
    });
  });

  test('the page works at phone width without horizontal scrolling', async () => {
    await withPage(
      url(),
      '',
      async (page) => {
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - window.innerWidth,
        );
        assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
      },
      { width: 360 },
    );
  });

  test('without WebAssembly a banner explains it and the narrative stays', async () => {
    const page = await chromium.newPage();
    await page.addInitScript(() => {
      delete window.WebAssembly;
    });
    await page.goto(url());
    await poll(() => page.isVisible('#banner'), { message: 'no banner without WebAssembly' });
    assert.match(await page.textContent('#banner'), /WebAssembly/);
    assert.match(await page.textContent('#four-lines'), /Score each query against each key/);
    assert.equal(await page.isVisible('.needs-script'), true);
    await page.close();
  });

  test('with JavaScript off the whole narrative is readable', async () => {
    const context = await chromium.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(url());
    const headings = await page.$$eval('section h2', (nodes) =>
      nodes.map((node) => node.textContent),
    );
    assert.equal(headings.length, 10);
    assert.match(await page.textContent('#scale'), /variance/);
    assert.equal(await page.isVisible('[data-figure="map"] .needs-script'), true);
    await context.close();
  });
});

// ---- The trained head (vectors=trained), against a float64 computation written here ----------
// The saved head, decoded here from its JSON (independent of web/src/trained/trained-head.js), and its
// causal attention weights in float64: x = E[t] + P[i], q = x·Wq, k = x·Wk, softmax(q·kᵀ/√d).
const savedHead = JSON.parse(
  readFileSync(new URL('../assets/trained-head.json', import.meta.url), 'utf8'),
);

function half(bits) {
  const exponent = (bits >> 10) & 31;
  const mantissa = bits & 1023;
  const magnitude =
    exponent === 0 ? mantissa / 2 ** 24 : ((1024 + mantissa) / 1024) * 2 ** (exponent - 15);
  return bits & 0x8000 ? -magnitude : magnitude;
}

function savedMatrix(name) {
  const bytes = Buffer.from(savedHead.parameters[name].float16, 'base64');
  const values = [];
  for (let i = 0; i < bytes.length; i += 2) values.push(half(bytes.readUInt16LE(i)));
  return values;
}

function float64Weights(text) {
  const { d, vocabulary } = savedHead;
  const [E, P, Wq, Wk] = ['embedding', 'position', 'query', 'key'].map(savedMatrix);
  const characters = [...text];
  const project = (x, W) =>
    Array.from({ length: d }, (_, c) => x.reduce((sum, xr, r) => sum + xr * W[r * d + c], 0));
  const x = characters.map((character, i) => {
    const t = vocabulary.indexOf(character);
    return Array.from({ length: d }, (_, r) => E[t * d + r] + P[i * d + r]);
  });
  const q = x.map((row) => project(row, Wq));
  const k = x.map((row) => project(row, Wk));
  return q.map((qi, i) => {
    const scores = k
      .slice(0, i + 1)
      .map((kj) => qi.reduce((sum, value, c) => sum + value * kj[c], 0) / Math.sqrt(d));
    const top = Math.max(...scores);
    const exps = scores.map((score) => Math.exp(score - top));
    const total = exps.reduce((a, b) => a + b, 0);
    return characters.map((_, j) => (j <= i ? exps[j] / total : 0));
  });
}

// The table prints 3 decimals: every cell within half a unit of the last digit, plus float32.
function assertMatchesFloat64(map, text) {
  const expected = float64Weights(text);
  assert.equal(map.weights.length, expected.length);
  expected.forEach((row, i) => {
    row.forEach((weight, j) => {
      assert.ok(
        Math.abs(map.weights[i][j] - weight) < 6e-4,
        `row ${i} column ${j}: page ${map.weights[i][j]}, float64 ${weight}`,
      );
    });
  });
}

const previousPeaks = (weights) =>
  weights.slice(1).filter((row, i) => row.indexOf(Math.max(...row)) === i).length;

describe('the trained head on the map (vectors=trained; old links say learned)', () => {
  const url = () => chromium.url();
  const text = 'To be, or not to be';

  test('a link shows the trained head: float64 weights, resting controls, a measured note', async () => {
    await withPage(url(), `#vectors=learned&text=${encodeURIComponent(text)}`, async (page) => {
      assertMatchesFloat64(await readMap(page), text);
      assert.equal(await page.inputValue('#map-vectors'), 'trained');
      assert.equal(await page.inputValue('#map-d'), String(savedHead.d));
      // The resting controls say what the head uses: no random recipe, its own positions.
      assert.equal(await page.inputValue('#map-init'), 'trained');
      assert.equal(await page.inputValue('#map-pos'), 'learned');
      for (const id of ['tokens', 'd', 'seed', 'scale', 'init', 'pos', 'causal'])
        assert.equal(await page.isDisabled(`#map-${id}`), true, id);
      assert.equal(await page.isVisible('[data-role="saved-fixed"]'), true);
      const note = await page.textContent('[data-role="recipe-note"]');
      const peaks = previousPeaks(float64Weights(text));
      assert.match(
        note,
        new RegExp(`In your text, ${peaks} of the ${[...text].length - 1} rows with a choice peak`),
      );
      assert.ok(note.includes(`${savedHead.peakCensus.rows.toLocaleString('en-US')} rows`));
      assert.match(new URL(page.url()).hash, /vectors=trained/);
    });
  });

  test('typing changes the map, and it still matches float64', async () => {
    await withPage(url(), `#vectors=learned&text=${encodeURIComponent(text)}`, async (page) => {
      const typed = 'First Citizen:\nBefore';
      const map = await changeAndWait(page, () => page.fill('#map-text', typed));
      assertMatchesFloat64(map, typed);
      const peaks = previousPeaks(float64Weights(typed));
      assert.match(
        await page.textContent('[data-role="recipe-note"]'),
        new RegExp(`In your text, ${peaks} of the ${[...typed].length - 1} rows with a choice`),
      );
    });
  });

  test('text the head cannot read gets a message beside the box; the last map stays', async () => {
    await withPage(url(), `#vectors=learned&text=${encodeURIComponent(text)}`, async (page) => {
      const good = await readMap(page);
      await page.fill('#map-text', 'café');
      await poll(() => page.textContent('#map-text-message'), {
        message: 'no message for a character outside the vocabulary',
      });
      assert.match(
        await page.textContent('#map-text-message'),
        /character "é" at position 4 is not one of the 65/,
      );
      assert.deepEqual(await readMap(page), good);
      await page.fill('#map-text', 'a'.repeat(savedHead.context + 1));
      await poll(async () => /at most/.test(await page.textContent('#map-text-message')), {
        message: 'no message for a text longer than the head',
      });
      assert.match(await page.textContent('#map-text-message'), /65 characters.*at most 64/);
      assert.deepEqual(await readMap(page), good);
      // long enough to count as a large map: a saved model's maps always go the background way
      // (its weights first, then the page's core), which says the same
      await page.fill('#map-text', 'a'.repeat(300));
      await poll(async () => /300 characters/.test(await page.textContent('#map-text-message')), {
        message: 'no message from the worker for a long text',
      });
      assert.deepEqual(await readMap(page), good);
      await changeAndWait(page, () => page.fill('#map-text', 'to be'));
      assert.equal(await page.textContent('#map-text-message'), '');
    });
  });

  test('a host without trained-head.js or learning.js: the trained head and section 6 say so, the map stays', async () => {
    const page = await chromium.newPage({ viewport: { width: 1280, height: 900 } });
    const uncaught = [];
    page.on('pageerror', (error) => uncaught.push(error.message));
    const missing = (route) => route.fulfill({ status: 404, body: '' });
    await page.route('**/learning.js', missing);
    await page.route('**/trained-head.js', missing);
    try {
      await page.goto(url());
      await poll(() => page.$('#map-table table'), { message: 'the map never drew' });
      const before = await readMap(page);
      await page.selectOption('#map-vectors', 'trained');
      await poll(async () => /could not load/.test(await page.textContent('#map-text-message')), {
        message: 'no message beside the map when trained-head.js is missing',
      });
      assert.deepEqual(await readMap(page), before, 'the last good map stays');
      await page.evaluate(() => document.querySelector('#training').scrollIntoView());
      await page.waitForSelector('#training .training__buttons button');
      await page.click('#training .training__buttons button');
      await poll(
        async () => /could not load/.test(await page.textContent('#training .training__notice')),
        { message: 'section 6 said nothing when learning.js is missing' },
      );
      assert.match(await page.textContent('#training .training__notice'), /retry/);
      assert.equal(await page.textContent('#training .training__status'), 'Not started.');
      assert.deepEqual(uncaught, []);
    } finally {
      await page.close();
    }
  });

  test('a host without later-figures.js: sections 5 to 7 say so, the map stays', async () => {
    const page = await chromium.newPage({ viewport: { width: 1280, height: 900 } });
    const uncaught = [];
    page.on('pageerror', (error) => uncaught.push(error.message));
    await page.route('**/later-figures.js', (route) => route.fulfill({ status: 404, body: '' }));
    try {
      await page.goto(url());
      await poll(() => page.$('#map-table table'), { message: 'the map never drew' });
      await page.evaluate(() => document.querySelector('#scale').scrollIntoView());
      await poll(async () => /could not load/.test(await page.textContent('#scale .figure')), {
        message: 'the scale chart said nothing when later-figures.js is missing',
      });
      assert.match(await page.textContent('#scale .figure'), /later-figures\.js.*Reload/);
      assert.ok(await page.$('#map-table table'), 'the map stays');
      assert.deepEqual(uncaught, []);
    } finally {
      await page.close();
    }
  });

  test('a host without torch-outputs.js: the proof says so and runs once the file is back', async () => {
    const page = await chromium.newPage({ viewport: { width: 1280, height: 900 } });
    const uncaught = [];
    page.on('pageerror', (error) => uncaught.push(error.message));
    let missing = true;
    await page.route('**/torch-outputs.js', (route) =>
      missing ? route.fulfill({ status: 404, body: '' }) : route.continue(),
    );
    const lines = () => page.textContent('.proof-lines');
    try {
      await page.goto(url());
      await poll(() => page.$('#map-table table'), { message: 'the map never drew' });
      assert.match(
        await page.textContent('#proof .figure'),
        /comes into view/,
        'nothing runs far above',
      );
      await page.evaluate(() => document.querySelector('#proof').scrollIntoView());
      await poll(async () => /could not load/.test(await lines()), {
        message: 'the proof said nothing when torch-outputs.js is missing',
      });
      assert.match(await lines(), /torch-outputs\.js.*Run the check again.*retry/);
      missing = false;
      await page.getByRole('button', { name: 'Run the check again' }).click();
      await poll(async () => /causal=True +max\|mine - torch\| = \S+ +OK/.test(await lines()), {
        message: 'the check did not run once torch-outputs.js was back',
      });
      assert.deepEqual(uncaught, []);
    } finally {
      await page.close();
    }
  });

  test('choosing the trained head in the controls and back again', async () => {
    await withPage(url(), '', async (page) => {
      const map = await changeAndWait(page, () => page.selectOption('#map-vectors', 'trained'));
      assertMatchesFloat64(map, 'To be, or not');
      assert.match(page.url(), /vectors=trained/);
      await changeAndWait(page, () => page.selectOption('#map-vectors', 'position'));
      assert.equal(await page.isDisabled('#map-init'), false);
      // d now rests for the tutorial's recipe, and the note beside it says so.
      assert.equal(await page.getAttribute('#map-d', 'aria-disabled'), 'true');
      assert.match(await page.textContent('[data-role="recipe-note"]'), /width d is fixed/);
      assert.equal(await page.isVisible('[data-role="saved-fixed"]'), false);
    });
  });
});
