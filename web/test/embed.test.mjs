// The embedded view of one figure (embed.html?figure=NAME#STATE) inside a teacher's page: the
// snippet the full page's Embed action gives, pasted into a page served from another origin
// and into a page opened from disk (file://). For each embeddable figure: it draws, one of its
// controls changes it, the link's state is read and written back unchanged, its height
// reaches the host page (whose copy of the snippet's script applies it), nothing is logged
// (no error, no CSP violation); axe finds nothing in the view alone. A figure changed on the
// full page gives a snippet that follows the change while its Embed box is open and opens the
// changed figure elsewhere. With the CPU slowed as a slow device is (web/test/throttle.mjs), the
// map fills a 760 px iframe on every load, and the iframe follows every change of its height.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { serve } from '../../scripts/serve.mjs';
import { snippet } from '../src/embed/snippet.js';
import { useChromium, watchProblems } from './chromium.mjs';
import { poll, within } from './waits.mjs';
import { outOfProcessFrames, throttleCpu } from './throttle.mjs';

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const chromium = useChromium();
const dist = new URL('../../dist/', import.meta.url);

// A whole state written by hand in the link's own form (web/src/state.js), none of it the
// default: read and written back, it must come out unchanged.
const STATE =
  '#text=Hello%20there&tokens=words&d=16&seed=3&causal=0&scale=none&vectors=token&init=standard&pos=sinusoidal';

// Does a canvas hold a picture (more than one colour)? Run in the frame.
function canvasDrawn(selector) {
  const canvas = document.querySelector(selector);
  if (!canvas || canvas.width === 0 || canvas.height === 0) return false;
  const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
  const colours = new Set();
  for (let i = 0; i < data.length && colours.size < 8; i += 4 * 97)
    colours.add(data.slice(i, i + 4).join());
  return colours.size >= 8;
}

function textOf(selector) {
  return document.querySelector(selector)?.textContent ?? '';
}

// The two helpers above, defined in every frame before its scripts run.
const HELPERS = `window.canvasDrawn = ${canvasDrawn};\nwindow.textOf = ${textOf};`;

// Per figure: `drawn` (in the frame, truthy once it has drawn), `look` (what a change of the
// control must alter), `change` (works the control through the frame).
const FIGURES = {
  map: {
    drawn: () => canvasDrawn('.map-canvas') && document.querySelector('.map-canvas').ariaLabel,
    look: () => `${document.querySelector('.map-canvas').ariaLabel} ${location.hash}`,
    change: (frame) => frame.fill('#map-d', '32'),
  },
  'name-tags': {
    drawn: () => /0\.\d\d/.test(textOf('.nt-bars')) && textOf('.nt-bars'),
    look: () => textOf('.nt-bars'),
    change: (frame) =>
      frame.evaluate(() => {
        const slider = document.querySelector('#nt-sharpness');
        slider.value = '1';
        slider.dispatchEvent(new Event('input', { bubbles: true }));
      }),
  },
  scale: {
    drawn: () => canvasDrawn('.scale-chart canvas') && /0\.11/.test(textOf('.scale-chart')),
    look: () => textOf('.scale-chart'),
    change: (frame) => frame.click('label[for$="-measure-entropy"]'),
  },
  training: {
    // Before its first run the training figure shows its controls and an empty chart; the
    // change (Train) starts the runs, and their loss curves are its drawing.
    drawn: () => textOf('.training__status') === 'Not started.',
    look: () => textOf('.training__status'),
    change: (frame) => frame.click('.training__buttons button'),
    after: (frame) =>
      poll(() => frame.evaluate(canvasDrawn, '.training canvas'), {
        timeout: 90_000,
        message: 'the training never drew its loss curves',
      }),
  },
};

// Per figure, a change made on the full page: `change` works controls of the page's figure,
// `key` is what its link then holds, and `shows` (in the embedded view) is truthy once the
// view shows that state.
const CHANGED = {
  map: {
    change: (page) => page.fill('#map-d', '32'),
    key: /&d=32&/,
    shows: () => document.querySelector('#map-d')?.value === '32' && canvasDrawn('.map-canvas'),
  },
  'name-tags': {
    change: (page) =>
      page.$eval('#nt-sharpness', (slider) => {
        slider.value = '0.8';
        slider.dispatchEvent(new Event('input', { bubbles: true }));
      }),
    key: /room-sharpness=6\.31/, // 10^0.8 to three figures
    shows: () => textOf('.nt-factor') === '× 6.31' && /0\.\d\d/.test(textOf('.nt-bars')),
  },
  scale: {
    change: async (page) => {
      await page.click('label[for$="-mode-averaged"]');
      await page.fill('[data-figure="scale"] input[id$="-draws"]', '4');
      await page.click('label[for$="-measure-entropy"]');
    },
    key: /study-data=averaged&study-measure=entropy&study-draws=4/,
    shows: () =>
      document.querySelector('input[value="entropy"]')?.checked &&
      /mean of 4 draws/.test(textOf('.scale-chart')) &&
      canvasDrawn('.scale-chart canvas'),
  },
  training: {
    change: async (page) => {
      await page.selectOption('[data-figure="training"] select[id$="-d"]', '16');
      await page.fill('[data-figure="training"] input[id$="-steps"]', '120');
    },
    key: /train-d=16&train-steps=120/,
    shows: () =>
      document.querySelector('.training select')?.value === '16' &&
      document.querySelector('.training input[type="number"]')?.value === '120',
  },
};

// The host page: a heading, the snippet, and a record of every message it hears.
function hostPage(figure, src) {
  return `<!doctype html><html lang="en"><title>A course page</title><link rel="icon" href="data:,"><body><h1>Week 3: attention</h1>\n${snippet(figure, src)}\n</body></html>`;
}

async function openHost(hostUrl) {
  const page = await chromium.newPage({ viewport: { width: 760, height: 900 } });
  const problems = await watchProblems(page);
  await page.addInitScript(HELPERS);
  await page.addInitScript(() => {
    if (window.top !== window) return;
    window.heard = [];
    addEventListener('message', (event) => window.heard.push(event.data));
  });
  await page.goto(hostUrl);
  const frame = await (await page.waitForSelector('iframe')).contentFrame();
  return { page, frame, problems };
}

// The height the view posted, as the host heard it, and as the snippet's script set it.
async function checkHeight(page, frame, figure) {
  const heard = await poll(
    () =>
      page.evaluate(
        (name) =>
          window.heard
            .filter((m) => m?.type === 'attention-head:height' && m.figure === name)
            .at(-1),
        figure,
      ),
    { timeout: 20_000, message: `no height message from ${figure}` },
  );
  await poll(
    async () => {
      const own = await frame.evaluate(() =>
        Math.ceil(document.documentElement.getBoundingClientRect().height),
      );
      const last = await page.evaluate(() => window.heard.at(-1)?.height);
      const styled = await page.evaluate(() => document.querySelector('iframe').style.height);
      return Math.abs(own - last) <= 1 && styled === `${last}px`;
    },
    { timeout: 20_000, message: `${figure}: the iframe never took the view's height` },
  );
  assert.ok(heard.height > 200, `${figure} posted a height of ${heard.height}`);
}

async function checkFigure(figure, hostUrl) {
  const { page, frame, problems } = await openHost(hostUrl);
  const spec = FIGURES[figure];
  await poll(() => frame.evaluate(spec.drawn), {
    timeout: 30_000,
    message: `${figure} never drew`,
  });
  assert.equal(
    await frame.evaluate(() => location.hash),
    STATE,
    'the link state read and written back',
  );
  await checkHeight(page, frame, figure);
  const before = await frame.evaluate(spec.look);
  await spec.change(frame);
  await poll(async () => (await frame.evaluate(spec.look)) !== before, {
    timeout: 30_000,
    message: `${figure}: its control changed nothing`,
  });
  await spec.after?.(frame);
  const hash = await frame.evaluate(() => location.hash);
  await frame.hover('#full-page');
  const full = await frame.evaluate(() => document.querySelector('#full-page').href);
  assert.ok(full.endsWith(`index.html${hash}`), `the full page link carries the state: ${full}`);
  await page.close();
  assert.deepEqual(problems, []);
  return { hash, full };
}

function embedSrc(base, figure) {
  return `${new URL(`embed.html?figure=${figure}`, base).href}${STATE}`;
}

test('each figure embedded in a page of another origin draws, changes, keeps its link and reports its height', async () => {
  const hostDirectory = mkdtempSync(join(tmpdir(), 'embed-host-'));
  const host = await serve(hostDirectory, 0); // its own port: another origin than the page's
  try {
    for (const figure of Object.keys(FIGURES)) {
      writeFileSync(
        join(hostDirectory, `${figure}.html`),
        hostPage(figure, embedSrc(chromium.url(), figure)),
      );
      const { hash, full } = await checkFigure(
        figure,
        `http://127.0.0.1:${host.address().port}/${figure}.html`,
      );
      if (figure !== 'map') continue;
      assert.equal(hash, STATE.replace('d=16', 'd=32'), 'the map wrote its new width, and only it');
      // The full page opened from the embedded view shows the same map.
      const page = await chromium.newPage();
      await page.goto(full);
      await page.waitForSelector('#map-table table');
      assert.equal(await page.inputValue('#map-d'), '32');
      assert.equal(await page.inputValue('#map-text'), 'Hello there');
      await page.close();
    }
  } finally {
    host.close();
  }
});

// Both from disk (a copy of dist/ beside the slides), and the hosted view in slides on disk.
test('each figure embedded in a page opened from disk works as from a host', async () => {
  const hostDirectory = mkdtempSync(join(tmpdir(), 'embed-file-'));
  for (const [where, base] of [
    ['disk', dist],
    ['host', chromium.url()],
  ]) {
    for (const figure of Object.keys(FIGURES)) {
      const file = join(hostDirectory, `${figure}-${where}.html`);
      writeFileSync(file, hostPage(figure, embedSrc(base, figure)));
      await checkFigure(figure, pathToFileURL(file).href);
    }
  }
});

test('the server lets any page frame the embedded view and only the page itself frame the rest', async () => {
  const headers = async (file) =>
    (
      await within(
        fetch(chromium.url().replace('index.html', file)),
        `the page's server to answer for ${file}`,
      )
    ).headers.get('content-security-policy');
  assert.equal(await headers('embed.html?figure=map'), 'frame-ancestors * file:');
  assert.equal(await headers('index.html'), "frame-ancestors 'self'");
});

test('an embedded view naming no figure it has says which it has, and links to the page', async () => {
  const page = await chromium.newPage();
  const problems = await watchProblems(page);
  await page.goto(chromium.url().replace('index.html', 'embed.html?figure=nonsense'));
  await page.waitForSelector('#banner:not([hidden])');
  assert.match(await page.textContent('#banner'), /one of map, name-tags, scale, training/);
  assert.match(await page.textContent('#banner'), /“nonsense” is not one/);
  assert.ok(await page.isVisible('#full-page'));
  await page.close();
  assert.deepEqual(problems, []);
});

test("the full page's Embed action gives the snippet for the figure as it is now", async () => {
  const page = await chromium.newPage();
  const problems = await watchProblems(page);
  await page.goto(chromium.url(STATE));
  await page.waitForSelector('#map-table table');
  await page.fill('#map-seed', '7');
  await poll(async () => page.url().includes('seed=7'), {
    message: 'the seed never reached the link',
  });
  await page.click('[data-figure="map"] .embed-action summary');
  // The disclosure fills in its snippet on its toggle event, a task after the click.
  const code = await poll(() => page.inputValue('#embed-snippet-map'), {
    message: 'the Embed disclosure never filled in its snippet',
  });
  const src = code.match(/<iframe src="([^"]+)"/)[1].replace(/&amp;/g, '&');
  assert.equal(
    src,
    `${chromium.url().replace('index.html', 'embed.html')}?figure=map${STATE.replace('seed=3', 'seed=7')}`,
  );
  const script = code.slice(code.indexOf('<script>') + 8, code.indexOf('</script>')).trim();
  assert.equal(script.split('\n').length, 5, 'the resizing script is five lines');
  for (const figure of Object.keys(FIGURES)) {
    assert.equal(await page.locator(`[data-figure="${figure}"] .embed-action`).count(), 1, figure);
    assert.match(
      await page.textContent(`[data-figure="${figure}"] .embed-action label`),
      /as it is now/,
    );
  }
  await page.close();
  assert.deepEqual(problems, []);
});

// The map showing the head grown in section 9 names that run by section 9's part of the link: the
// snippet carries it, and the embedded map (no section 9 on its page) reads it.
test('the map showing the grown head: its snippet and its embedded view keep the run it names', async () => {
  const page = await chromium.newPage();
  const problems = await watchProblems(page);
  await page.goto(chromium.url('#vectors=grown-2&grow-seed=3&grow-steps=1500'));
  await page.waitForSelector('#map-table table');
  await page.click('[data-figure="map"] .embed-action summary');
  const code = await poll(() => page.inputValue('#embed-snippet-map'), {
    message: 'the Embed disclosure never filled in its snippet',
  });
  const src = code.match(/<iframe src="([^"]+)"/)[1].replace(/&amp;/g, '&');
  for (const part of ['vectors=grown-2', 'grow-seed=3', 'grow-steps=1500'])
    assert.ok(src.includes(part), `${part} in ${src}`);
  await page.goto(src);
  await poll(
    async () =>
      /seed 3 for 1,500 steps/.test((await page.textContent('[data-role="recipe-note"]')) ?? ''),
    { message: 'the embedded map never named seed 3 and 1,500 steps' },
  );
  assert.match(
    page.url(),
    /grow-seed=3&grow-steps=1500|grow-steps=1500.*grow-seed=3|grow-seed=3.*grow-steps=1500/,
  );
  await page.close();
  assert.deepEqual(problems, []);
});

// The snippet in an open Embed box, and its "See it alone" link, as the host page would use them.
async function openSnippet(page, figure) {
  const code = await page.inputValue(`#embed-snippet-${figure}`);
  const src = code.match(/<iframe src="([^"]+)"/)?.[1].replace(/&amp;/g, '&') ?? '';
  const alone = await page.getAttribute(`[data-figure="${figure}"] [data-role="preview"]`, 'href');
  return { code, src, alone };
}

// The full page, at STATE, with `figure` started (a later section's starts as it comes near).
async function pageWith(figure) {
  const page = await chromium.newPage({ viewport: { width: 1280, height: 900 } });
  const problems = await watchProblems(page);
  await page.goto(chromium.url(STATE));
  await page.waitForSelector('#map-table table');
  const slot = `[data-figure="${figure}"]`;
  await page.locator(slot).scrollIntoViewIfNeeded();
  await page.waitForFunction((at) => !document.querySelector(`${at} .figure-waiting`), slot);
  return { page, problems };
}

test('each figure changed on the full page: its open Embed box follows, and its snippet opens it so elsewhere', async () => {
  const hostDirectory = mkdtempSync(join(tmpdir(), 'embed-changed-'));
  const host = await serve(hostDirectory, 0); // another origin than the page's
  try {
    for (const [figure, spec] of Object.entries(CHANGED)) {
      const { page, problems } = await pageWith(figure);
      await page.click(`[data-figure="${figure}"] .embed-action summary`);
      const before = await poll(async () => (await openSnippet(page, figure)).src, {
        message: `${figure}: the Embed box never filled in its snippet`,
      });
      assert.doesNotMatch(before, spec.key, `${figure}: the snippet before the change`);
      await spec.change(page);
      await poll(async () => spec.key.test(page.url()), {
        message: `${figure}: the change never reached the page's link`,
      });
      // The box stayed open: its snippet and its link follow, with no click.
      const after = await poll(
        async () => {
          const open = await openSnippet(page, figure);
          return spec.key.test(open.src) && open.alone === open.src && open;
        },
        { message: `${figure}: the open Embed box kept its old snippet` },
      );
      assert.ok(after.src.includes(`embed.html?figure=${figure}#`), after.src);
      await page.close();
      assert.deepEqual(problems, [], figure);
      // The snippet as pasted into a course page on another origin.
      writeFileSync(
        join(hostDirectory, `${figure}.html`),
        `<!doctype html><html lang="en"><title>A course page</title><link rel="icon" href="data:,"><body><h1>Week 3</h1>\n${after.code}\n</body></html>`,
      );
      const opened = await openHost(`http://127.0.0.1:${host.address().port}/${figure}.html`);
      await poll(() => opened.frame.evaluate(spec.shows), {
        timeout: 30_000,
        message: `${figure}: the embedded view does not show the changed state`,
      });
      assert.match(await opened.frame.evaluate(() => location.hash), spec.key);
      await opened.page.close();
      assert.deepEqual(opened.problems, [], `${figure} embedded`);
    }
  } finally {
    host.close();
  }
});

// The map's canvas and the iframe's height in a host page, once the map has drawn and the
// iframe has taken the height the view last posted.
async function settledMap(page, frame) {
  await poll(() => frame.evaluate(FIGURES.map.drawn), {
    timeout: 60_000,
    message: 'the embedded map never drew',
  });
  return poll(
    async () => {
      const view = await frame.evaluate(() => ({
        canvas: document.querySelector('.map-canvas').getBoundingClientRect().width,
        height: Math.ceil(document.documentElement.getBoundingClientRect().height),
      }));
      const iframe = await page.evaluate(() => document.querySelector('iframe').style.height);
      return iframe === `${view.height}px` && view;
    },
    { timeout: 30_000, message: 'the iframe never took the view’s height' },
  );
}

test('on a slow device the map fills a 760 px iframe on every load, and the iframe follows its height', async (t) => {
  const hostDirectory = mkdtempSync(join(tmpdir(), 'embed-slow-'));
  const host = await serve(hostDirectory, 0);
  writeFileSync(join(hostDirectory, 'map.html'), hostPage('map', embedSrc(chromium.url(), 'map')));
  const hostUrl = `http://127.0.0.1:${host.address().port}/map.html`;
  try {
    for (const [rate, loads] of [
      [4, 5],
      [6, 10],
    ]) {
      const widths = [];
      for (let load = 0; load < loads; load += 1) {
        // The host's body margins (8 px) around the iframe: 760 px across inside its border.
        const page = await chromium.newPage({ viewport: { width: 776, height: 900 } });
        const problems = await watchProblems(page);
        await page.addInitScript(HELPERS);
        await throttleCpu(page, rate);
        await page.goto(hostUrl);
        const frame = await (await page.waitForSelector('iframe')).contentFrame();
        const { canvas } = await settledMap(page, frame);
        assert.equal(await frame.evaluate(() => innerWidth), 760, 'the iframe’s width');
        widths.push(canvas);
        // The view (another origin, the same site) runs in the throttled page's process.
        assert.deepEqual(await outOfProcessFrames(page.context().browser()), []);
        if (rate === 6 && load === 0) await heightFollows(page, frame);
        await page.close();
        assert.deepEqual(problems, []);
      }
      t.diagnostic(`CPU ${rate}× slower: the map was ${widths.join(', ')} px wide`);
      assert.deepEqual(
        widths.filter((width) => width < 700),
        [],
        `${rate}×: maps narrower than 700 px`,
      );
    }
  } finally {
    host.close();
  }
});

// The numbers table shown and hidden again: the iframe grows and shrinks with the view.
async function heightFollows(page, frame) {
  const heights = [(await settledMap(page, frame)).height];
  for (let turn = 0; turn < 2; turn += 1) {
    await frame.click('[data-role="toggle-table"]');
    await poll(async () => (await settledMap(page, frame)).height !== heights.at(-1), {
      timeout: 30_000,
      message: 'the view’s height did not change with its table',
    });
    heights.push((await settledMap(page, frame)).height);
  }
  assert.ok(heights[1] > heights[0] + 100, `the table shown: ${heights}`);
  assert.equal(heights[2], heights[0], `the table hidden again: ${heights}`);
}

// Light at a course page's width, dark at a phone's, where nothing may overflow sideways.
const LOOKS = [
  { colorScheme: 'light', width: 700 },
  { colorScheme: 'dark', width: 340 },
];

for (const figure of Object.keys(FIGURES)) {
  test(`axe finds nothing in the embedded ${figure}, light and dark, wide and narrow`, async () => {
    for (const { colorScheme, width } of LOOKS) {
      const page = await chromium.newPage({ viewport: { width, height: 900 }, colorScheme });
      await page.addInitScript(HELPERS);
      await page.goto(chromium.url().replace('index.html', `embed.html?figure=${figure}${STATE}`));
      await poll(() => page.evaluate(FIGURES[figure].drawn), {
        timeout: 30_000,
        message: `${figure} never drew`,
      });
      await page.evaluate(`${axeSource}\n;0`);
      const { violations } = await page.evaluate(() =>
        window.axe.run(document, { resultTypes: ['violations'] }),
      );
      assert.deepEqual(
        violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
        [],
        `${colorScheme}, ${width} px`,
      );
      const widths = await page.evaluate(() => [
        document.documentElement.scrollWidth,
        document.documentElement.clientWidth,
      ]);
      assert.ok(widths[0] <= widths[1], `${colorScheme}, ${width} px: ${widths} overflows`);
      await page.close();
    }
  });
}
