// The built page (dist/) in Debian's Chromium through playwright-core, served over http: what
// each control, experiment and link does in detail, bad input, and the page without
// WebAssembly or JavaScript. Every test also fails on any console error, uncaught error or
// Content-Security-Policy violation. The essential checks (the map against PyTorch, the proof,
// the √d chart, over http and file://, at two widths) run in three engines in
// engines.test.mjs.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useChromium } from './chromium.mjs';
import { poll } from './engines/page.mjs';

const chromium = useChromium();

// Opens the page with `hash`, runs `body(page)`, then checks nothing went wrong on the way.
async function withPage(base, hash, body, { width = 1280 } = {}) {
  const page = await chromium.browser().newPage({ viewport: { width, height: 900 } });
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

  test('each control changes the map the way it should', async () => {
    await withPage(url(), '', async (page) => {
      let map = await changeAndWait(page, () => page.fill('#map-text', 'hello world'));
      assert.equal(map.tokens.length, 11);
      map = await changeAndWait(page, () => page.selectOption('#map-tokens', 'words'));
      assert.deepEqual(map.tokens, ['hello', 'world']);
      map = await changeAndWait(page, () => page.fill('#map-text', 'a b a c a b'));
      assert.equal(map.tokens.length, 6);
      map = await changeAndWait(page, () => page.fill('#map-seed', '7'));
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
    // An old link (pos=1, no init) comes back in today's spelling.
    const hash =
      '#text=the%20cat%20sat&tokens=words&d=16&seed=42&causal=0&scale=none&vectors=token&pos=1';
    const today = hash.replace('pos=1', 'init=tutorial&pos=sinusoidal');
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
    await withPage(url(), '', async (page) => {
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
    const page = await chromium.browser().newPage();
    await page.addInitScript(() => {
      delete window.WebAssembly;
    });
    await page.goto(url());
    await poll(() => page.isVisible('#banner'), { message: 'no banner without WebAssembly' });
    assert.match(await page.textContent('#banner'), /WebAssembly/);
    assert.match(await page.textContent('#four-lines'), /four steps/);
    assert.equal(await page.isVisible('.needs-script'), true);
    await page.close();
  });

  test('with JavaScript off the whole narrative is readable', async () => {
    const context = await chromium.browser().newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(url());
    const headings = await page.$$eval('h2', (nodes) => nodes.map((node) => node.textContent));
    assert.equal(headings.length, 8);
    assert.match(await page.textContent('#scale'), /variance/);
    assert.equal(await page.isVisible('[data-figure="map"] .needs-script'), true);
    await context.close();
  });
});
