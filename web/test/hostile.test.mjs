// A catalogue of hostile input, each with its expected outcome, tried in Chromium on the built
// page. After every case: a clear message (or the right map), the last good figure kept, no
// console error, uncaught error, dialog or CSP violation, no NaN/undefined in the page text,
// no injected element, and the very next valid input computes normally.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useChromium } from './chromium.mjs';
import { poll } from './waits.mjs';

const chromium = useChromium();

const url = chromium.url;

async function openPage(hash = '') {
  const page = await chromium.newPage({ viewport: { width: 1100, height: 900 } });
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('dialog', async (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    await dialog.dismiss();
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(`CSP: ${event.violatedDirective}`),
    );
    window.addEventListener('unhandledrejection', (event) =>
      console.error(`unhandled rejection: ${event.reason}`),
    );
  });
  await page.goto(url(hash));
  await poll(() => page.$('#map-table table'), {
    message: 'the map never drew its numbers table',
  });
  return { page, problems };
}

// The map's own count ("N tokens, d = …"); its numbers table lists at most 24 tokens.
const tokenCount = (page) =>
  page.$eval('[data-role="summary"]', (summary) =>
    Number(/^(\d+) tokens/.exec(summary.textContent)[1]),
  );
const mapSignature = (page) => page.$eval('#map-table', (table) => table.textContent);
// Elements that could run or fetch something, less the page's own scripts, which it adds as a
// reader nears the sections that need them (lib/load-script.js).
const OWN_SCRIPTS = [
  'app.js',
  'attention-core.js',
  'copying-head.js',
  'later-figures.js',
  'learning.js',
  'trained-head.js',
  'torch-outputs.js',
];
const elementCount = (page) =>
  page.evaluate(
    (own) =>
      [...document.querySelectorAll('script, img, iframe, object, embed')].filter(
        (element) => !(element.tagName === 'SCRIPT' && own.includes(element.getAttribute('src'))),
      ).length,
    OWN_SCRIPTS,
  );

async function checkHealthy(page, problems, elementsBefore) {
  // Everything but the link notices, which quote what the person typed (e.g. scale=“NaN”).
  const text = await page.evaluate(() => {
    const copy = document.body.cloneNode(true);
    for (const notice of copy.querySelectorAll('[data-role="notices"]')) notice.remove();
    return copy.textContent;
  });
  assert.doesNotMatch(text, /\bNaN\b|\bundefined\b/);
  assert.equal(await elementCount(page), elementsBefore, 'an element was injected');
  assert.equal(await page.evaluate(() => window.__injected), undefined, 'injected code ran');
  assert.deepEqual(problems, []);
}

// field: which control; value: what a person types; expect: { message } (kept figure) or { tokens }
const CONTROL_CASES = [
  { name: 'empty text', field: 'text', value: '', expect: { message: /at least one token/ } },
  {
    name: 'only spaces in word mode',
    field: 'text',
    value: '    ',
    expect: { message: /at least one token/ },
  },
  { name: 'one character', field: 'text', value: 'x', expect: { tokens: 1 } },
  {
    name: '10 000 characters',
    field: 'text',
    value: 'ab '.repeat(3334),
    expect: { message: /limited to 4000 characters \(this has 10002\)/ },
  },
  {
    name: 'more tokens than the map shows (its T×T budget)',
    field: 'text',
    value: 'z'.repeat(1500),
    expect: { message: /at most 1024/ },
  },
  {
    name: 'emoji, one token per code point',
    field: 'text',
    value: '🙂🙃 ok',
    expect: { tokens: 5 },
  },
  { name: 'combining marks', field: 'text', value: 'e\u0301te\u0301', expect: { tokens: 5 } },
  { name: 'right-to-left text', field: 'text', value: 'שלום עולם', expect: { tokens: 9 } },
  { name: 'zero-width characters', field: 'text', value: 'a\u200Bb\u200D', expect: { tokens: 4 } },
  {
    name: '<script> in the text',
    field: 'text',
    value: '<script>window.__injected=1</script>',
    expect: { tokens: 36 },
  },
  {
    name: '<img onerror> in the text',
    field: 'text',
    value: '<img src=x onerror="window.__injected=1">',
    expect: { tokens: 41 },
  },
  { name: 'd of 0', field: 'd', value: '0', expect: { message: /whole number from 1 to 1024/ } },
  {
    name: 'negative d',
    field: 'd',
    value: '-5',
    expect: { message: /whole number from 1 to 1024/ },
  },
  {
    name: 'huge d',
    field: 'd',
    value: '99999999999999999999',
    expect: { message: /whole number from 1 to 1024/ },
  },
  { name: 'fractional d', field: 'd', value: '2.5', expect: { message: /whole number/ } },
  { name: 'non-numeric d', field: 'd', value: 'twenty', expect: { message: /whole number/ } },
  {
    name: 'negative seed',
    field: 'seed',
    value: '-1',
    expect: { message: /Seed must be a whole number/ },
  },
  {
    name: 'huge seed',
    field: 'seed',
    value: '1e30',
    expect: { message: /Seed must be a whole number/ },
  },
  {
    name: 'non-integer seed',
    field: 'seed',
    value: '1.5',
    expect: { message: /Seed must be a whole number/ },
  },
];

const VALID = { text: 'To be, or not', d: '24', seed: '1' };

test('every hostile control input gets its expected outcome and the next valid input works', async () => {
  // The standard recipe, under which width d moves (it rests under the tutorial's).
  const { page, problems } = await openPage('#init=standard');
  const elementsBefore = await elementCount(page);
  for (const c of CONTROL_CASES) {
    const before = await mapSignature(page);
    await page.fill(`#map-${c.field}`, c.value);
    if (c.expect.message) {
      await poll(() => page.textContent(`#map-${c.field}-message`), {
        message: `${c.name}: no message beside the ${c.field} field`,
      });
      assert.match(await page.textContent(`#map-${c.field}-message`), c.expect.message, c.name);
      assert.equal(
        await mapSignature(page),
        before,
        `${c.name}: the last good figure was not kept`,
      );
    } else {
      await poll(async () => (await tokenCount(page)) === c.expect.tokens, {
        message: `${c.name}: the map never showed ${c.expect.tokens} tokens`,
      });
    }
    await checkHealthy(page, problems, elementsBefore);
    // The very next valid input computes normally and clears the message.
    await page.fill(`#map-${c.field}`, VALID[c.field]);
    await poll(
      () =>
        page.evaluate(
          (field) =>
            document.querySelector(`#map-${field}-message`).textContent === '' &&
            document.querySelectorAll('#map-table tbody tr').length === 13,
          c.field,
        ),
      { message: `${c.name}: the next valid input did not clear the message and recompute` },
    );
    assert.equal(await page.getAttribute(`#map-${c.field}`, 'aria-invalid'), 'false', c.name);
  }
  await page.close();
});

const LINK_CASES = [
  {
    name: '<script> in the hash text',
    hash: '#text=%3Cscript%3Ewindow.__injected%3D1%3C%2Fscript%3E',
    tokens: 36,
  },
  {
    name: '<img onerror> in the hash text',
    hash: '#text=%3Cimg%20src%3Dx%20onerror%3D%22window.__injected%3D1%22%3E',
    tokens: 41,
  },
  { name: 'temperature 0', hash: '#scale=0', notice: /scale=“0”/ },
  { name: 'negative temperature', hash: '#scale=-2', notice: /scale=“-2”/ },
  { name: 'NaN temperature', hash: '#scale=NaN', notice: /scale=“NaN”/ },
  { name: 'Infinity temperature', hash: '#scale=Infinity', notice: /scale=“Infinity”/ },
  { name: 'malformed percent-encoding', hash: '#text=%E0%A4%A&d=%%%', notice: /d=“%%%”/ },
  { name: 'truncated hash', hash: '#text=To%20be&d=', notice: /d=“”/ },
  { name: 'unknown keys only', hash: '#foo=bar&&&=', tokens: 13 },
  {
    name: 'markup in a bad value',
    hash: '#d=%3Cimg%20src%3Dx%20onerror%3D%22window.__injected%3D1%22%3E',
    notice: /d=“<img src=x onerror/,
  },
];

test('every hostile link loads with defaults, a visible message and nothing injected', async () => {
  for (const c of LINK_CASES) {
    const { page, problems } = await openPage(c.hash);
    if (c.notice) assert.match(await page.textContent('[data-role="notices"]'), c.notice, c.name);
    if (c.tokens) assert.equal(await tokenCount(page), c.tokens, c.name);
    // Nothing that runs or fetches, beyond the page's own scripts.
    await checkHealthy(page, problems, 0);
    assert.equal(
      await page.evaluate(() => document.querySelectorAll('script').length),
      3,
      `${c.name}: scripts changed`,
    );
    await page.fill('#map-seed', '8');
    await poll(() => page.evaluate(() => /seed=8/.test(location.hash)), {
      message: `${c.name}: the next valid input did not reach the link`,
    });
    await page.close();
  }
});

test('a hundred control changes in a burst end on the last value, computed once per frame', async () => {
  const { page, problems } = await openPage();
  const elementsBefore = await elementCount(page);
  await page.evaluate(() => {
    const d = document.querySelector('#map-d');
    for (let i = 1; i <= 100; i++) {
      d.value = String((i % 64) + 1);
      d.dispatchEvent(new Event('input', { bubbles: true }));
    }
    const causal = document.querySelector('#map-causal');
    for (let i = 0; i < 51; i++) causal.click(); // odd number of clicks: ends unchecked
  });
  await poll(
    () => page.evaluate(() => /d=37/.test(location.hash) && /causal=0/.test(location.hash)),
    { message: 'the burst did not end on d = 37 with the mask off' },
  );
  assert.equal(await page.inputValue('#map-d'), '37');
  await checkHealthy(page, problems, elementsBefore);
  await page.close();
});

test('a factor the core refuses gets its message beside the scale control, not the text', async () => {
  const { page, problems } = await openPage();
  const elementsBefore = await elementCount(page);
  const before = await mapSignature(page);
  await page.evaluate(() => {
    location.hash = '#scale=1e31'; // a positive number, so a valid link: the core's range says no
  });
  await poll(() => page.textContent('#map-scale-message'), {
    message: 'no message beside the scale control',
  });
  assert.match(await page.textContent('#map-scale-message'), /from 1e-30 to 1e30/);
  assert.equal(await page.textContent('#map-text-message'), '');
  assert.equal(await page.getAttribute('#map-scale', 'aria-invalid'), 'true');
  assert.equal(await mapSignature(page), before, 'the last good figure was not kept');
  await checkHealthy(page, problems, elementsBefore);
  await page.close();
});
