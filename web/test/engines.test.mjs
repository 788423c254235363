// The page's essential checks, written once and run in every engine a reader has: Chromium,
// Firefox ESR (Gecko) and WebKitGTK (Safari's engine), over http and from file://, at desktop
// and phone width, through the one driver interface of engines/page.mjs. Also: each engine
// reports the code path it can take (relaxed SIMD or not, a Blob-URL worker or not), and a
// build whose core cannot load fails the checks with the page's own message, not a timeout.
// ENGINES=firefox,webkit limits the run to some engines.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeSite } from './engines/site.mjs';

const ENGINES = (process.env.ENGINES || 'chromium,firefox,webkit').split(',');
const WIDTHS = [1280, 390];
const SCHEMES = ['http', 'file'];
const TEST_TIMEOUT_MS = 120_000;
const FAILURES = fileURLToPath(new URL('../../build/engine-failures/', import.meta.url));

// Every selector the suite relies on, in one place: the figures are being restructured.
const HOOKS = {
  mapTable: '#map-table', // the attention map's "Show numbers" table
  proofFigure: '[data-figure="proof"]',
  proofLines: '.proof-lines',
  scaleSection: '#scale',
  scaleFigure: '[data-figure="scale"]',
  experimentButtons: '[data-figure="experiments"] button',
  experimentNote: '.experiment-note',
  training: {
    d: '#training select[id$="-d"]',
    steps: '#training input[id$="-steps"]',
    train: '#training .training__buttons button',
    status: '#training .training__status',
  },
  banner: '#banner',
  printedNumbers: 'table.numbers td, .readout', // where numbers are printed in text
  controls: {
    text: '#map-text',
    tokens: '#map-tokens',
    d: '#map-d',
    seed: '#map-seed',
    scale: '#map-scale',
    factor: '#map-factor',
    vectors: '#map-vectors',
    causal: '#map-causal',
    init: '#map-init',
    pos: '#map-pos',
  },
};

const fixture = JSON.parse(
  readFileSync(new URL('../../tests/fixtures/attention_map.json', import.meta.url), 'utf8'),
).cases[0];
const TABLE_TOLERANCE = 5e-4 + 1e-6; // the table prints 3 decimals

// ---- functions that run inside the page (no closures: arguments only) ----

// The weights as the numbers table prints them, with its token labels.
function readMapInPage(table) {
  const rows = [...document.querySelectorAll(`${table} tbody tr`)];
  const header = [...document.querySelectorAll(`${table} thead th`)].map((th) => th.textContent);
  return {
    tokens: header.slice(1, 1 + rows.length),
    weights: rows.map((row) =>
      [...row.querySelectorAll('td')].slice(0, rows.length).map((td) => Number(td.textContent)),
    ),
  };
}

function readyStateInPage(table, banner) {
  const bannerElement = document.querySelector(banner);
  if (bannerElement && !bannerElement.hidden) return { banner: bannerElement.textContent };
  return document.querySelector(`${table} table`) ? { map: true } : null;
}

function textOf(selector) {
  return document.querySelector(selector)?.textContent ?? null;
}

// Every number printed in `selector` whose glyphs do not all sit on one line.
function brokenNumbersInPage(selector) {
  const broken = [];
  for (const container of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(container, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of node.data.matchAll(/[−-]?\d+(?:\.\d+)?(?:e[−+-]\d+)?/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const rects = [...range.getClientRects()].filter((rect) => rect.width > 0);
        if (rects.some((rect) => Math.abs(rect.top - rects[0].top) > rects[0].height / 2))
          broken.push(`"${match[0]}" in ${container.closest('[class]')?.className}`);
      }
    }
  }
  return broken;
}

function openAllNumberTables() {
  for (const button of document.querySelectorAll('button[aria-expanded="false"]')) {
    if (button.textContent.includes('Show numbers')) button.click();
  }
  scrollTo(0, document.body.scrollHeight); // figures that draw when visible
}

function controlValuesInPage(controls) {
  return Object.fromEntries(
    Object.entries(controls).map(([name, selector]) => {
      const element = document.querySelector(selector);
      return [name, element.type === 'checkbox' ? element.checked : element.value];
    }),
  );
}

// What this engine offers the page: relaxed SIMD (else the simd128 fallback), and a worker
// made from a Blob URL under the page's own CSP (else the main-thread fallback).
async function codePathInPage() {
  const zeros = (count) => new Array(count).fill(0);
  const vector = [0xfd, 0x0c, ...zeros(16)]; // v128.const 0
  const moduleWith = (instructions) => {
    const body = [0x00, ...vector, ...vector, ...vector, ...instructions, 0x0b];
    const code = [0x01, body.length, ...body];
    const header = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
    const types = [0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b]; // () -> v128
    return new Uint8Array([
      ...header,
      ...types,
      0x03,
      0x02,
      0x01,
      0x00,
      0x0a,
      code.length,
      ...code,
    ]);
  };
  const simd128 = WebAssembly.validate(moduleWith([0xfd, 0xe4, 0x01, 0xfd, 0xe4, 0x01])); // f32x4.add x2
  const relaxedSimd = WebAssembly.validate(moduleWith([0xfd, 0x85, 0x02])); // f32x4.relaxed_madd
  let worker;
  try {
    const source = new Blob(['postMessage(1)'], { type: 'text/javascript' });
    const blobWorker = new Worker(URL.createObjectURL(source));
    worker = await new Promise((resolve) => {
      blobWorker.onmessage = () => resolve('runs');
      blobWorker.onerror = () => resolve('refused (error event)');
      setTimeout(() => resolve('never answered in 3 s'), 3000);
    });
    blobWorker.terminate();
  } catch (error) {
    worker = `refused (${error.name} thrown)`;
  }
  // What the page says it chose, if it records its choices as data-* on <html>.
  const declared = Object.entries(document.documentElement.dataset).map(([k, v]) => `${k}=${v}`);
  return { simd128, relaxedSimd, worker, declared };
}

// ---- steps, in Node ----

// Opens the page and waits until it has drawn its map or shown its banner. A banner (or
// neither within the time) fails with what the page says and every problem recorded.
async function openReady(engine, url, width) {
  const page = await engine.open(url, { width, height: 844 });
  try {
    const state = await page.waitFor(
      readyStateInPage,
      { timeout: 20_000, message: 'the page neither drew its map nor showed its banner' },
      HOOKS.mapTable,
      HOOKS.banner,
    );
    if (state.banner) {
      const problems = await page.problems();
      throw new Error(
        `the page shows its banner: "${state.banner}"; problems: ${problems.join('; ')}`,
      );
    }
  } catch (error) {
    await page.close();
    throw error;
  }
  return page;
}

async function assertHealthy(page) {
  const text = await page.evaluate(() => document.body.textContent);
  assert.doesNotMatch(text, /\bNaN\b|\bundefined\b/, 'the page shows NaN or undefined');
  assert.deepEqual(await page.problems(), [], 'console errors, uncaught errors or CSP violations');
}

// Runs `body` on a freshly opened page, then checks the page stayed healthy. On a failure
// the page's screenshot is saved in build/engine-failures/ and named in the message.
async function withPage(engine, url, width, body) {
  const page = await openReady(engine, url, width);
  try {
    await body(page);
    await assertHealthy(page);
  } catch (error) {
    mkdirSync(FAILURES, { recursive: true });
    const file = join(FAILURES, `${engine.name}-${width}px-${Date.now()}.png`);
    await page.screenshot(file).then(
      () => (error.message += `\n(screenshot: ${file})`),
      () => {},
    );
    throw error;
  } finally {
    await page.close();
  }
}

const readMap = (page) => page.evaluate(readMapInPage, HOOKS.mapTable);

// True once the table differs from `previous` (readMapInPage spliced in as source text: a
// page function cannot call another, and the page's CSP forbids building one with eval).
const mapChangedInPage = `(table, previous) => {
  const now = (${readMapInPage})(table);
  return JSON.stringify(now) !== previous && now;
}`;

// Runs `action`, then waits for the map's table to change; fails with `what` if it does not.
async function changeAndWait(page, what, action) {
  const before = JSON.stringify(await readMap(page));
  await action();
  return page.waitFor(
    mapChangedInPage,
    { message: `${what} did not change the map` },
    HOOKS.mapTable,
    before,
  );
}

function upperTriangleSum(weights) {
  return weights.reduce(
    (sum, row, i) => sum + row.reduce((rowSum, w, j) => rowSum + (j > i ? w : 0), 0),
    0,
  );
}

const { controls } = HOOKS;
// Each control, one after the other from the default state, and what it is set to. One
// state change per step: a step that caused two redraws could let the next step see the
// second one as its own.
const CONTROL_CHANGES = [
  ['the text', (page) => page.fill(controls.text, 'the cat sat on the mat')],
  ['the tokenizer', (page) => page.choose(controls.tokens, 'words')],
  // Width d rests under the tutorial's recipe; the standard one lets it move.
  ['the recipe', (page) => page.choose(controls.init, 'standard')],
  ['the width d', (page) => page.fill(controls.d, '64')],
  ['the seed', (page) => page.fill(controls.seed, '7')],
  ['the scale', (page) => page.choose(controls.scale, 'd')],
  ['a custom scale', (page) => page.choose(controls.scale, 'custom')],
  ['the custom factor', (page) => page.fill(controls.factor, '0.5')],
  ['the vectors', (page) => page.choose(controls.vectors, 'token')],
  ['positions', (page) => page.choose(controls.pos, 'rope')],
  ['the causal mask', (page) => page.setChecked(controls.causal, false)],
];

// The essential checks, for one engine, one way of opening the page and one width.
function essentialChecks(engine, url, width) {
  test('the default map equals PyTorch, the proof prints OK, the √d chart quotes 0.88 / 0.11', async () => {
    await withPage(engine(), url(), width, async (page) => {
      const map = await readMap(page);
      assert.equal(map.tokens.join(''), 'To␣be,␣or␣not', 'the tutorial sentence');
      const T = fixture.T;
      assert.equal(map.weights.length, T, 'one table row per token');
      for (let i = 0; i < T; i++) {
        for (let j = 0; j < T; j++) {
          const torch = fixture.weights[i * T + j];
          assert.ok(
            Math.abs(map.weights[i][j] - torch) <= TABLE_TOLERANCE,
            `cell ${i},${j}: page ${map.weights[i][j]}, PyTorch ${torch}`,
          );
        }
      }
      // The proof runs as its figure comes near, once PyTorch's outputs (torch-outputs.js)
      // have loaded: scroll to the figure until it prints, as a reader would. Once is not
      // always enough: the sections above are laid out only as they near the screen, and
      // WebKit, which has no scroll anchoring, then leaves the view where the figure was.
      // (In the 390 px iframe WebKit ran it only once the figure itself was in view, as if
      // without the observer's one-screen margin.)
      const proof = await page
        .waitFor(
          ({ figure, lines }) => {
            const text = document.querySelector(lines)?.textContent ?? '';
            if (/causal=True/.test(text)) return text;
            document.querySelector(figure).scrollIntoView();
            return false;
          },
          { message: 'the proof panel printed no result' },
          { figure: HOOKS.proofFigure, lines: HOOKS.proofLines },
        )
        .catch(async (error) => {
          // Whether the page asked for PyTorch's outputs tells the observer from the loading.
          const scripts = await page.evaluate(() =>
            [...document.scripts].map((script) => script.src.split('/').pop()).join(', '),
          );
          error.message += ` (scripts on the page: ${scripts})`;
          throw error;
        });
      assert.match(proof, /causal=False +max\|mine - torch\| = \d\.\d\de-0[67] +OK/);
      assert.match(proof, /causal=True +max\|mine - torch\| = \d\.\d\de-0[67] +OK/);
      await page.evaluate(
        (section) => document.querySelector(section).scrollIntoView(),
        HOOKS.scaleSection,
      );
      const chart = await page.waitFor(
        (figure) => {
          const text = document.querySelector(figure).textContent;
          return /0\.88/.test(text) && /0\.11/.test(text) && text;
        },
        { message: 'the √d chart never quoted 0.88 and 0.11' },
        HOOKS.scaleFigure,
      );
      assert.match(chart, /0\.88/);
    });
  });

  test('each control changes the map', async () => {
    await withPage(engine(), url(), width, async (page) => {
      for (const [what, change] of CONTROL_CHANGES) {
        await changeAndWait(page, `changing ${what}`, () => change(page));
      }
      const map = await readMap(page);
      assert.ok(upperTriangleSum(map.weights) > 0.5, 'without the mask the upper triangle fills');
    });
  });

  test('every experiment runs and says what it shows', async () => {
    await withPage(engine(), url(), width, async (page) => {
      const titles = await page.waitFor(
        (buttons) => {
          const found = [...document.querySelectorAll(buttons)];
          return found.length > 0 && found.map((button) => button.textContent);
        },
        { message: 'the experiments figure shows no button' },
        HOOKS.experimentButtons,
      );
      assert.ok(titles.length >= 5, `found experiments: ${titles.join(', ')}`);
      for (const title of titles) {
        const before = await page.evaluate(textOf, HOOKS.experimentNote);
        await page.click({ text: title });
        await page.waitFor(
          (note, previous) => document.querySelector(note)?.textContent !== previous,
          { message: `the experiment "${title}" wrote no new note` },
          HOOKS.experimentNote,
          before,
        );
      }
      // The note and the map are separate figures: wait for the map to follow too.
      await page.waitFor(
        `(table) => (${readMapInPage})(table).tokens.join('') === 'To␣be,␣or␣not'`,
        { message: 'the last experiment did not restore the tutorial figure' },
        HOOKS.mapTable,
      );
    });
  });

  test('a shared link round-trips: the link of a changed page opens the same state', async () => {
    let shared;
    await withPage(engine(), url(), width, async (page) => {
      for (const [what, change] of CONTROL_CHANGES.slice(0, 4)) {
        await changeAndWait(page, `changing ${what}`, () => change(page));
      }
      shared = {
        hash: await page.evaluate(() => location.hash),
        controls: await page.evaluate(controlValuesInPage, controls),
        map: await readMap(page),
      };
    });
    assert.match(shared.hash, /d=64/, 'the link records the state');
    await withPage(engine(), url() + shared.hash, width, async (page) => {
      assert.deepEqual(await page.evaluate(controlValuesInPage, controls), shared.controls);
      assert.deepEqual(await readMap(page), shared.map);
      assert.equal(await page.evaluate(() => location.hash), shared.hash);
    });
  });

  test('no horizontal overflow, and no printed number breaks across lines', async () => {
    await withPage(engine(), url(), width, async (page) => {
      // Sections 5 to 7 mount their figures as they come near: bring each into view first.
      for (const section of ['#scale', '#training', '#proof']) {
        await page.evaluate((id) => document.querySelector(id).scrollIntoView(), section);
        await page.waitFor(
          (id) => !document.querySelector(`${id} .figure-waiting`),
          {
            message: `${section}'s figure never mounted`,
          },
          section,
        );
      }
      await page.waitFor(
        (figure) => {
          if (/0\.11/.test(document.querySelector(figure).textContent)) return true;
          document.querySelector(figure).scrollIntoView(); // it runs its study once in view
          return false;
        },
        { message: 'the √d chart never drew' },
        HOOKS.scaleFigure,
      );
      await page.evaluate(openAllNumberTables);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      assert.ok(overflow <= 0, `the page is ${overflow} px wider than its ${width} px screen`);
      assert.deepEqual(await page.evaluate(brokenNumbersInPage, HOOKS.printedNumbers), []);
    });
  });
}

let site;
let brokenSite;
before(async () => {
  site = await makeSite();
  brokenSite = await makeSite({ breakCore: true });
});
after(() => {
  site?.close();
  brokenSite?.close();
});

for (const name of ENGINES) {
  describe(name, () => {
    let engine;
    before(async () => {
      const { launch } = await import(`./engines/${name}.mjs`);
      engine = await launch();
    });
    after(() => engine?.close());

    for (const scheme of SCHEMES) {
      for (const width of WIDTHS) {
        describe(`over ${scheme} at ${width} px`, { timeout: TEST_TIMEOUT_MS }, () => {
          essentialChecks(
            () => engine,
            () => site[scheme],
            width,
          );
        });
      }

      test(`over ${scheme}: reports the code path it can take`, async (t) => {
        const page = await openReady(engine, site[scheme], 1280);
        try {
          const path = await page.evaluate(codePathInPage);
          assert.equal(path.simd128, true, 'every engine we test has simd128');
          // Where a worker runs at all, the page's own compute worker must start too (WebKit
          // once could not unpack the core's wasm in a worker of a page opened from disk).
          const compute = await page.waitFor(
            () => {
              const mode = document.documentElement.dataset.compute;
              return (
                mode !== 'starting' &&
                `${mode} ${document.documentElement.dataset.computeReason ?? ''}`
              );
            },
            { message: 'the compute worker never left "starting"' },
          );
          if (path.worker === 'runs')
            assert.match(compute, /^worker/, 'the page computes on the main thread');
          t.diagnostic(
            `${name} ${engine.version} over ${scheme}: ` +
              `${path.relaxedSimd ? 'relaxed SIMD validates' : 'no relaxed SIMD: simd128 fallback'}; ` +
              `a Blob-URL worker under the page's CSP ${path.worker}` +
              `${path.worker === 'runs' ? '' : ': main-thread fallback'}; ` +
              `the page declares ${path.declared.join(' ') || 'no choice (no data-* on <html>)'}`,
          );
        } finally {
          await page.close();
        }
      });

      test(`over ${scheme}: section 6 loads the learning module and trains it in workers of its own`, async () => {
        await withPage(engine, site[scheme], 1280, async (page) => {
          // Section 6's figure mounts as its section comes near: scroll to it until it has.
          await page.waitFor(
            (button) => {
              if (document.querySelector(button) !== null) return true;
              document.querySelector('#training').scrollIntoView();
              return false;
            },
            { message: 'section 6 never mounted' },
            HOOKS.training.train,
          );
          await page.choose(HOOKS.training.d, '16');
          await page.fill(HOOKS.training.steps, '10');
          await page.click(HOOKS.training.train);
          const status = await page.waitFor(
            (selector) => {
              const text = document.querySelector(selector)?.textContent ?? '';
              return /^Step 10 of 10/.test(text) && text;
            },
            { timeout: 60_000, message: 'the four models did not finish 10 steps' },
            HOOKS.training.status,
          );
          assert.match(status, /^Step 10 of 10/);
          const place = await page.evaluate(() => document.documentElement.dataset.learningCompute);
          assert.equal(place, 'worker', 'the heads trained on the main thread');
        });
      });

      test(`over ${scheme}: a build whose core cannot load fails with the page's banner, not a timeout`, async () => {
        const started = Date.now();
        await assert.rejects(openReady(engine, brokenSite[scheme], 1280), (error) => {
          assert.match(
            error.message,
            /the page shows its banner: "The live figures could not start/,
          );
          assert.match(error.message, /problems: .*(uncaught|could not load)/);
          return true;
        });
        assert.ok(Date.now() - started < 15_000, 'the failure came from the banner, not a timeout');
      });
    }
  });
}
