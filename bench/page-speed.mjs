// page-speed.mjs: how fast the built page (dist/) feels, in headless Chromium on localhost:
// navigation to the first drawn attention map; a text change to the redrawn map at T = 64, 256
// and 512 (d = 64), from the input event to the end of drawing; the longest main-thread task
// (PerformanceObserver 'longtask', one helper: longestTaskDuring) while a 1,000-character text
// is pasted at d = 512, while 1,000 characters are typed there, while the √d chart's averaged
// study runs, while section 6 trains with its default settings, during a burst of 100 link
// changes and during the soak's 2,000 random changes to the map's controls; section 6's default
// training from the click to "Finished"; the first map and section 6's run again with the CPU
// slowed 6× (DevTools, as web/test/slow-device.test.mjs); and the gzipped size of what the page
// fetches before the reader scrolls, and of what each file fetched later adds.
// Run alone (`node bench/page-speed.mjs [--runs N] [--only training | firstMapMs,firstLoad | …]`) after `npm run build`, or as part of
// bench/run.mjs, which runs it once per run and holds the medians to the targets.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { launchChromium } from '../scripts/chromium.mjs';
import { serve } from '../scripts/serve.mjs';
import { applyInPage, generator, randomChange } from '../web/test/random-changes.mjs';
import { throttleCpu } from '../web/test/throttle.mjs';
import { median, missingReason, perRun, targetLine, unit } from './targets.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
// What the files fetched only as a reader nears the section that needs them carry
// (web/src/lib/when-near.js).
const LATER_FILES = {
  'later-figures.js': 'what sections 5 to 9 add (later-figures.js)',
  'learning.js': 'what the learning section adds (learning.js)',
  'torch-outputs.js': 'what the proof, section 7, adds (torch-outputs.js)',
};

// Every file of dist/ with its size raw and gzipped at level 9.
export function pageBytes() {
  return readdirSync(dist).map((file) => {
    const raw = readFileSync(join(dist, file));
    return { file, raw: raw.length, gzip: gzipSync(raw, { level: 9 }).length };
  });
}

// ---- the one helper for "the longest main-thread task during X" ----

// A page whose long tasks (over 50 ms on the main thread) are collected from the start, once
// its first map is drawn and the compute worker is up (it loads its own copy of the core after
// the first map): what follows measures the page as a reader uses it, not its start. The
// figures of sections 5 to 9 start as a reader scrolls to them; a row that needs one scrolls
// there and waits for it (sectionReady). `beforeLoad(page)` runs before the
// navigation (to watch its requests); `rate` slows the page's CPU that many times.
export async function openPage(browser, url, { beforeLoad, rate = 1 } = {}) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('pageerror', (error) => console.error(`page: ${error.message}`));
  if (rate > 1) await throttleCpu(page, rate);
  await page.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        window.__longTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask' });
  });
  await beforeLoad?.(page);
  await page.goto(url);
  await page.waitForSelector('#map-table table', { timeout: 60_000 });
  await page.waitForFunction(() => document.documentElement.dataset.compute !== 'starting', null, {
    timeout: 60_000,
  });
  return page;
}

// The CPU slowed this many times for the slow-device rows: a phone or school laptop 4-6×
// slower than this machine. DevTools slows the page's main thread, not its workers.
export const SLOW_RATE = 6;

// Scrolls to a later section and waits until its figure has started (its code loads as the
// section nears: web/src/main.js).
async function sectionReady(page, id) {
  await page.locator(`#${id}`).scrollIntoViewIfNeeded();
  await page.waitForFunction(
    (section) => !document.querySelector(`#${section} .figure-waiting`),
    id,
  );
}

// Waits until the figures of every section within a screen of the viewport have started: a
// row that focuses a control scrolls to it, and the sections it brings near load their code
// then (web/src/lib/when-near.js), as they do while a reader scrolls there, before they type.
async function nearbyFiguresStarted(page) {
  await page.waitForFunction(() =>
    [...document.querySelectorAll('.figure-waiting')].every((slot) => {
      const box = slot.closest('section').getBoundingClientRect();
      return box.top > 2 * innerHeight || box.bottom < -innerHeight;
    }),
  );
  await new Promise((done) => setTimeout(done, 500)); // their first drawing
}

// The page's main thread's tasks in a Chromium trace, { start, wallMs, cpuMs } each, `start` in
// the page's clock (the trace's mark CLOCK_MARK, made by the page, ties the two clocks): a
// task's CPU time (the trace's thread time) is what the page itself spent; the rest of its wall
// time, which a 'longtask' entry reports, the thread waited for a core (other processes, or the
// page's own workers on a machine with fewer cores than busy threads). The page's main thread
// is the one that made the mark.
const TRACE_CATEGORIES = ['toplevel', 'devtools.timeline', 'blink.user_timing'];
const CLOCK_MARK = 'bench-clock';
const TOP_TASKS = new Set(['RunTask', 'ThreadControllerImpl::RunTask']);
function mainThreadTasks(trace, markAtMs) {
  const events = JSON.parse(trace.toString()).traceEvents;
  const mark = events.find((e) => e.name === CLOCK_MARK);
  if (!mark || markAtMs === null) return [];
  const offsetMs = mark.ts / 1000 - markAtMs;
  const tasks = [];
  let end = -Infinity; // the end of the last outer task: nested ones are left out
  const main = events
    .filter(
      (e) => e.pid === mark.pid && e.tid === mark.tid && e.ph === 'X' && TOP_TASKS.has(e.name),
    )
    .sort((a, b) => a.ts - b.ts);
  for (const e of main) {
    if (e.ts < end) continue;
    end = e.ts + e.dur;
    tasks.push({
      start: e.ts / 1000 - offsetMs,
      wallMs: e.dur / 1000,
      cpuMs: (e.tdur ?? 0) / 1000,
    });
  }
  return tasks;
}

// The most CPU time any of these long tasks took (null when there were none, or untraced).
function mostCpu(tasks, cpuOf) {
  const times = tasks.map(cpuOf).filter((ms) => ms !== null);
  return times.length ? Math.max(...times) : null;
}

// The longest main-thread task while `action` runs (0 when none passed 50 ms, the shortest a
// 'longtask' entry can be), what `action` returned, the long tasks themselves ({ start,
// duration } in the page's clock) for a caller that must leave one out, cpuOf(task): the main
// thread's CPU time within that long task (null when the trace did not cover it), and cpuMs:
// the most any long task took. A long task's wall time beyond its CPU time is time the thread
// waited for a core.
export async function longestTaskDuring(page, action) {
  await page.evaluate(() => {
    window.__longTasks = [];
  });
  const browser = page.context().browser();
  await browser.startTracing(page, { categories: TRACE_CATEGORIES });
  let value;
  let traced = [];
  let markAtMs = null;
  try {
    markAtMs = await page.evaluate((name) => performance.mark(name).startTime, CLOCK_MARK);
    value = await action();
  } finally {
    traced = mainThreadTasks(await browser.stopTracing(), markAtMs);
  }
  // An entry arrives after its task: those of tasks before the action are left out.
  const tasks = (await page.evaluate(() => window.__longTasks)).filter((t) => t.start >= markAtMs);
  const cpuOf = (task) => {
    const within = traced.filter(
      (t) => t.start < task.start + task.duration + 1 && t.start + t.wallMs > task.start - 1,
    );
    return within.length ? within.reduce((sum, t) => sum + t.cpuMs, 0) : null;
  };
  return {
    longestMs: Math.max(0, ...tasks.map((t) => t.duration)),
    cpuMs: mostCpu(tasks, cpuOf),
    value,
    tasks,
    cpuOf,
  };
}

// ---- the first map, the redraw ----

// From navigation to the first screen's map drawn (the mark 'hero-drawn'), the one a reader
// sees first, and to section 4's ('map-drawn'), mounted in the task after it; the median of
// `loads` fresh loads, with the CPU slowed `rate` times.
async function firstMapMs(browser, url, { rate = 1, loads = 5 } = {}) {
  const times = { firstScreen: [], section4: [] };
  const at = (mark) => performance.getEntriesByName(mark)[0]?.startTime;
  for (let run = 0; run < loads; run++) {
    const page = await browser.newPage();
    if (rate > 1) await throttleCpu(page, rate);
    await page.goto(url);
    await page.waitForFunction(() => performance.getEntriesByName('map-drawn').length > 0, null, {
      timeout: 60_000,
    });
    times.firstScreen.push(await page.evaluate(at, 'hero-drawn'));
    times.section4.push(await page.evaluate(at, 'map-drawn'));
    await page.close();
  }
  return { firstScreen: median(times.firstScreen), section4: median(times.section4) };
}

// From the input event to the end of the redraw, so it includes waiting for the frame. Each
// change comes `pauseMs` after the last map was drawn: 300 ms, as a reader makes a change and
// looks, once the previous map's follow-up (the other figures, layout, paint) is done; 0, as
// fast as the page allows, where that follow-up is still running.
async function redrawMs(page, T, pauseMs) {
  const times = [];
  for (let run = 0; run < 7; run++) {
    await new Promise((done) => setTimeout(done, pauseMs));
    const text = Array.from({ length: T }, (_, i) =>
      String.fromCharCode(97 + ((i * 7 + run) % 26)),
    ).join('');
    times.push(
      await page.evaluate(
        (value) =>
          new Promise((done) => {
            const before = performance.getEntriesByName('map-drawn').length;
            const input = document.querySelector('#map-text');
            const start = performance.now();
            input.value = value;
            input.dispatchEvent(new Event('input', { bubbles: true }));
            const poll = () => {
              const marks = performance.getEntriesByName('map-drawn');
              if (marks.length > before) done(marks.at(-1).startTime - start);
              else requestAnimationFrame(poll);
            };
            requestAnimationFrame(poll);
          }),
        text,
      ),
    );
  }
  return median(times);
}

// ---- the map's text at d = 512: typed, pasted, and a burst of links ----

const TYPED =
  'To be, or not to be, that is the question: whether tis nobler in the mind to suffer ';
const TEXT_1000 = TYPED.repeat(12).slice(0, 1000);

// Until the map's summary starts "N tokens, d = 512": the map of the last text is drawn.
function mapShows(page, tokens) {
  return page.waitForFunction(
    (prefix) => document.querySelector('[data-role="summary"]').textContent.startsWith(prefix),
    `${tokens} tokens, d = 512`,
    { timeout: 60_000, polling: 100 },
  );
}

// 1,000 characters typed one key at a time (20 ms apart, faster than anyone types) into the
// map's text at d = 512, until the map of all 1,000 is drawn.
async function typingLongestTaskMs(browser, url) {
  const page = await openPage(browser, `${url}#d=512`);
  await page.fill('#map-text', '');
  await page.focus('#map-text');
  await nearbyFiguresStarted(page);
  const { longestMs, cpuMs } = await longestTaskDuring(page, async () => {
    await page.keyboard.type(TEXT_1000, { delay: 20 });
    await mapShows(page, 1000);
  });
  await page.close();
  return { longestMs, cpuMs };
}

// The map's text at d = 512 replaced by a 1,000-character text in one input event, as a paste
// does (select all, then insertText), until its map is drawn.
async function pasteLongestTaskMs(browser, url) {
  const page = await openPage(browser, `${url}#d=512`);
  await page.focus('#map-text');
  await page.keyboard.press('Control+A');
  await nearbyFiguresStarted(page);
  const { longestMs, cpuMs } = await longestTaskDuring(page, async () => {
    await page.keyboard.insertText(TEXT_1000);
    await mapShows(page, 1000);
  });
  await page.close();
  return { longestMs, cpuMs };
}

// location.hash set 100 times within one task, each a link to a different text at d = 512
// (401 to 500 characters), until the last link's map is drawn. What is held to the target is
// the longest task the page runs in answer, after the burst's own task; that task (Chromium's
// 100 fragment navigations, whose cost grows with the document) is returned beside it, with
// the same burst on a near-empty document (the page's favicon, an SVG) for scale.
const BURST = (text) => {
  const began = performance.now();
  for (let length = 401; length <= 500; length++)
    location.hash = `#text=${encodeURIComponent(text.slice(0, length))}&d=512`;
  return { began, ended: performance.now() };
};

async function linkBurst(browser, url) {
  const page = await openPage(browser, `${url}#d=512`);
  const {
    value: burst,
    tasks,
    cpuOf,
  } = await longestTaskDuring(page, async () => {
    const times = await page.evaluate(BURST, TEXT_1000);
    await mapShows(page, 500);
    return times;
  });
  await page.goto(new URL('favicon.svg', url).href);
  const empty = await page.evaluate(BURST, TEXT_1000);
  await page.close();
  const answer = tasks.filter((t) => t.start >= burst.ended);
  return {
    longestMs: Math.max(0, ...answer.map((t) => t.duration)),
    cpuMs: mostCpu(answer, cpuOf),
    burstMs: burst.ended - burst.began,
    emptyBurstMs: empty.ended - empty.began,
  };
}

// ---- the averaged study ----

const STUDY_DONE = /32 draws, T = 64, mask off, seed \d+: computed by the C\+\+ core in (\d+) ms/;

// The averaged study, from the click to its result.
async function studyRun(browser, url) {
  const page = await openPage(browser, url);
  await sectionReady(page, 'scale');
  const { longestMs, cpuMs, value } = await longestTaskDuring(page, async () => {
    // A CSS selector, not the text engine, and polled every 100 ms rather than every frame:
    // what the harness runs in the page counts in its longest task too.
    await page.click('#scale input[value="averaged"] + label');
    await page.waitForFunction(
      (source) => new RegExp(source).test(document.querySelector('#scale').textContent),
      STUDY_DONE.source,
      { timeout: 60_000, polling: 100 },
    );
    return Number(STUDY_DONE.exec(await page.textContent('#scale'))[1]);
  });
  await page.close();
  return { ms: value, longestMs, cpuMs };
}

// ---- section 6: the default training run ----

// The findings' comparisons of held-out loss (web/src/figures/training/findings.js): the first
// sentence that compares two models, whatever it says (a difference, or "about the same"), and
// the first that claims a difference (more than twice the seed spread).
const COMPARED =
  /After (\d+) steps the held-out loss[\s\S]*The unscaled head (is behind|is ahead of|is about the same as|has a loss)/;
const DIFFERENCE =
  /After (\d+) steps the held-out loss[\s\S]*(ahead of|behind) [^.;]* by ([\d.]+) nats/;
const FINISHED = /^Finished/; // the play button's label once the four runs are done (model.js)

// Clicks "Train the four models" with the default settings once the page computes in its worker,
// records in the page's clock every change of the findings, the status line and the button until
// the button says "Finished", and the longest main-thread task meanwhile; `rate` slows the CPU.
async function trainingRun(browser, url, { rate = 1 } = {}) {
  const page = await openPage(browser, url, { rate });
  try {
    const mode = await page.evaluate(() => document.documentElement.dataset.compute);
    await sectionReady(page, 'training');
    await page.waitForSelector('#training .training__buttons button');
    await page.evaluate(() => {
      const figure = document.querySelector('#training');
      const button = figure.querySelector('.training__buttons button');
      const findings = figure.querySelector('.training__findings');
      const status = figure.querySelector('.training__status');
      window.trainingTimeline = [];
      const record = () =>
        window.trainingTimeline.push({
          t: performance.now(),
          findings: findings.textContent,
          status: status.textContent,
          button: button.textContent,
        });
      const observer = new MutationObserver(record);
      for (const node of [findings, status, button])
        observer.observe(node, { childList: true, subtree: true, characterData: true });
      button.addEventListener(
        'click',
        () => {
          window.trainingClicked = performance.now();
        },
        { capture: true },
      );
    });
    const { longestMs, cpuMs, value } = await longestTaskDuring(page, async () => {
      await page.click('#training .training__buttons button');
      await page.waitForFunction(
        (source) =>
          new RegExp(source).test(
            document.querySelector('#training .training__buttons button').textContent,
          ),
        FINISHED.source,
        { timeout: 180_000, polling: 100 },
      );
      return page.evaluate(() => ({
        clicked: window.trainingClicked,
        timeline: window.trainingTimeline,
      }));
    });
    const events = value.timeline.map((e) => ({ ...e, seconds: (e.t - value.clicked) / 1000 }));
    const finished = events.find((e) => FINISHED.test(e.button));
    const learning = await page.evaluate(() => document.documentElement.dataset.learningCompute);
    const compared = events.find((e) => COMPARED.test(e.findings));
    const difference = events.find((e) => DIFFERENCE.test(e.findings));
    return {
      mode,
      learning,
      cores: await page.evaluate(() => navigator.hardwareConcurrency),
      longestMs,
      cpuMs,
      finishedSeconds: finished?.seconds,
      comparedSeconds: compared?.seconds,
      differenceSeconds: difference?.seconds,
      differenceStep: difference ? Number(DIFFERENCE.exec(difference.findings)[1]) : undefined,
    };
  } finally {
    await page.close();
  }
}

// ---- the soak's 2,000 random changes ----

// The soak's changes (web/test/soak.test.mjs, the same seed), at full speed: a batch of one to
// eight in one task, then a frame, a short pause or nothing, as the soak applies them, without
// its checks; until the last map is drawn and the page is idle. Returns the longest task and
// how many passed 50 ms.
const SOAK_CHANGES = 2000;
async function soakRun(browser, url) {
  const page = await openPage(browser, url);
  const { longestMs, cpuMs, tasks } = await longestTaskDuring(page, async () => {
    const random = generator(2026);
    for (let done = 0; done < SOAK_CHANGES; ) {
      const batch = Array.from({ length: 1 + Math.floor(random() * 8) }, () =>
        randomChange(random),
      );
      await page.evaluate(applyInPage, batch);
      done += batch.length;
      const pause = random();
      if (pause < 0.3) await page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
      else if (pause < 0.4) await page.waitForTimeout(Math.floor(random() * 40));
    }
    await page.waitForFunction(
      () => document.querySelector('[data-role="computing"]').hidden,
      null,
      { timeout: 60_000, polling: 100 },
    );
    await page.waitForTimeout(1000);
  });
  await page.close();
  return { longestMs, cpuMs, over50: tasks.length };
}

// ---- a slow device ----

// The first map and section 6's default run with the CPU slowed SLOW_RATE times.
async function slowRows(browser, url) {
  return {
    firstMapMs: await firstMapMs(browser, url, { rate: SLOW_RATE, loads: 3 }),
    training: await trainingRun(browser, url, { rate: SLOW_RATE }),
  };
}

// ---- what loads before the reader scrolls ----

// A fresh page (no cache), left at the top until its first map is drawn, the compute worker is
// up and the network has been idle for half a second: the files it fetched, by name in dist/.
async function firstLoadFiles(browser, url) {
  const fetched = new Set();
  const origin = new URL(url).origin;
  const page = await openPage(browser, url, {
    beforeLoad: (p) =>
      p.on('response', (response) => {
        const address = new URL(response.url());
        if (address.protocol !== 'http:' || address.origin !== origin) return;
        if (response.status() !== 200) return;
        fetched.add(address.pathname === '/' ? 'index.html' : address.pathname.slice(1));
      }),
  });
  await page.waitForLoadState('networkidle');
  await page.close();
  return [...fetched].sort();
}

// ---- one run of every page row ----

// Each row measured apart: one that fails says why instead of stopping the rest.
async function attempt(what, measure) {
  try {
    return await measure();
  } catch (error) {
    console.error(`page speed: ${what} failed: ${error.message.split('\n')[0]}`);
    return { failed: error.message.split('\n')[0] };
  }
}

async function redrawRows(browser, url) {
  const page = await openPage(browser, `${url}#d=64`);
  const ms = {};
  for (const T of [64, 256, 512]) ms[T] = await redrawMs(page, T, 300);
  ms.backToBack = await redrawMs(page, 512, 0);
  await page.close();
  return ms;
}

// Each row: its key in a run's result, what it is called in a message, and how it is measured.
const ROWS = [
  ['firstMapMs', 'first map', firstMapMs],
  ['redraw', 'redraw', redrawRows],
  ['pasteMs', 'paste', pasteLongestTaskMs],
  ['typingMs', 'typing', typingLongestTaskMs],
  ['study', 'averaged study', studyRun],
  ['training', 'section 6', trainingRun],
  ['links', 'link burst', linkBurst],
  ['soak', '2,000 random changes', soakRun],
  ['slow', `CPU ${SLOW_RATE}× slower`, slowRows],
  ['firstLoad', 'first load', firstLoadFiles],
];

// only: the keys of the rows to measure (e.g. training, or firstMapMs,firstLoad), or null for all.
async function measureOnce(browser, url, only = null) {
  const result = {};
  for (const [key, what, measure] of ROWS) {
    if (only && !only.includes(key)) continue;
    result[key] = await attempt(what, () => measure(browser, url));
  }
  return result;
}

export async function measurePageSpeed({ runs = 1, only = null } = {}) {
  const server = await serve(dist, 0);
  const browser = await launchChromium();
  try {
    const url = `http://127.0.0.1:${server.address().port}/index.html`;
    const results = [];
    for (let run = 1; run <= runs; run++) {
      console.error(`page speed: run ${run} of ${runs} ...`);
      results.push(await measureOnce(browser, url, only));
    }
    return { runs: results, browserVersion: browser.version() };
  } finally {
    await browser.close();
    server.close();
  }
}

// ---- the rows and the targets ----

const number = (x) => typeof x === 'number' && Number.isFinite(x);
const failure = (runs, pick) =>
  missingReason(runs, (r) => {
    const value = pick(r);
    return value?.failed ? `not measured: ${value.failed}` : undefined;
  });

// The gzipped bytes of the files a run fetched before scrolling (from dist/ as built).
function firstLoadBytes(files, bytes) {
  if (!Array.isArray(files)) return null;
  return files.reduce((sum, file) => sum + (bytes.get(file)?.gzip ?? 0), 0);
}

// Each page target: how to read its value from one run, and why it may be missing.
function pageMeasures(bytes) {
  return [
    {
      what: 'section 6, default training, click to "Finished"',
      wanted: 8,
      show: unit('s', 2),
      pick: (r) => r.training,
      value: (r) => r.training?.finishedSeconds,
    },
    {
      // The same run where each of the four has a core of its own: measured only there.
      what: 'section 6, default training, click to "Finished", with 4 or more cores',
      wanted: 4,
      show: unit('s', 2),
      pick: (r) => r.training,
      value: (r) => (r.training?.cores >= 4 ? r.training.finishedSeconds : null),
      missing: (runs) => {
        const cores = runs.map((r) => r.training?.cores).find(Number.isFinite);
        return cores < 4 ? `not measured: the page sees ${cores} cores here` : undefined;
      },
    },
    ...[
      ['pasting a 1,000-character text at d = 512', (r) => r.pasteMs],
      ['typing 1,000 characters at d = 512', (r) => r.typingMs],
      ['the averaged study', (r) => r.study],
      ["section 6's default training run", (r) => r.training],
      ["the page's answer to a burst of 100 link changes", (r) => r.links],
      ["the soak's 2,000 random changes to the map's controls", (r) => r.soak],
    ].map(([during, pick]) => ({
      what: `longest main-thread task, ${during}`,
      wanted: 50,
      show: unit('ms'),
      pick,
      value: (r) => pick(r)?.longestMs,
      beside: (runs) => cpuBeside(perRun(runs, (r) => pick(r)?.cpuMs)),
    })),
    {
      what: 'first load (fetched before the reader scrolls), gzipped',
      wanted: 170,
      show: unit('KB', 1),
      pick: (r) => r.firstLoad,
      value: (r) => {
        const total = firstLoadBytes(r.firstLoad, bytes);
        return total === null ? null : total / 1024;
      },
    },
    {
      what: "navigation to the first drawn map (the first screen's)",
      wanted: 200,
      show: unit('ms'),
      pick: (r) => r.firstMapMs,
      value: (r) => r.firstMapMs?.firstScreen,
    },
    {
      what: 'text change -> map redrawn, T = 512, d = 64',
      wanted: 16,
      show: unit('ms'),
      pick: (r) => r.redraw,
      value: (r) => r.redraw?.[512],
    },
  ];
}

// The most main-thread CPU time a long task took (the trace's), beside their longest wall time.
function cpuBeside(values) {
  if (values.length === 0) return undefined;
  const list = values.length > 1 ? ` (runs: ${values.map((v) => v.toFixed(0)).join(', ')})` : '';
  return `the most CPU time of a long task ${median(values).toFixed(0)} ms${list}`;
}

export function pageTargets({ runs }, files) {
  const bytes = new Map(files.map((f) => [f.file, f]));
  return pageMeasures(bytes).map(({ what, wanted, show, pick, value, missing, beside }) => ({
    what,
    wanted,
    atMost: true,
    show,
    values: perRun(runs, (r) => (number(value(r)) ? value(r) : null)),
    missing: failure(runs, pick) ?? missing?.(runs),
    beside: beside?.(runs),
  }));
}

// A row without a target: its median and its runs.
function infoRow(what, values, show) {
  if (values.length === 0) return `  ${what.padEnd(74)} not measured`;
  const list = values.length > 1 ? `  (runs: ${values.map(show).join(', ')})` : '';
  return `  ${what.padEnd(74)} ${show(median(values)).padStart(9)}${list}`;
}

export function printPageSpeed(speed, files) {
  const { runs } = speed;
  const bytes = new Map(files.map((f) => [f.file, f]));
  console.log(
    `\nPage speed: the built page in headless Chromium ${speed.browserVersion}, localhost; ` +
      `medians over ${runs.length} run${runs.length > 1 ? 's' : ''}` +
      '; a longest task of 0 ms means none passed 50 ms',
  );
  for (const target of pageTargets(speed, files)) {
    const row = infoRow(target.what, target.values, target.show);
    console.log(target.beside ? `${row}; ${target.beside}` : row);
  }
  const ms = unit('ms');
  const modes = [...new Set(runs.map((r) => r.training?.mode).filter(Boolean))].join(', ');
  const slowLearning = [...new Set(runs.map((r) => r.slow?.training?.learning).filter(Boolean))];
  const rows = [
    ["  navigation to section 4's map drawn", (r) => r.firstMapMs?.section4, ms],
    ['text change -> map redrawn, T = 64, d = 64', (r) => r.redraw?.[64], ms],
    ['text change -> map redrawn, T = 256, d = 64', (r) => r.redraw?.[256], ms],
    ['  the same at T = 512, changes back to back', (r) => r.redraw?.backToBack, ms],
    ['averaged study, d = 1…1024, 32 draws, T = 64 (in the worker)', (r) => r.study?.ms, ms],
    ["the link burst's own task (100 fragment navigations)", (r) => r.links?.burstMs, ms],
    ['  the same burst on a near-empty document (favicon.svg)', (r) => r.links?.emptyBurstMs, ms],
    ["  tasks over 50 ms during the soak's 2,000 changes", (r) => r.soak?.over50, unit('')],
    [
      `CPU ${SLOW_RATE}× slower: navigation to the first drawn map (the first screen's)`,
      (r) => r.slow?.firstMapMs?.firstScreen,
      ms,
    ],
    [
      `CPU ${SLOW_RATE}× slower: section 6 (${slowLearning.join(', ') || 'not run'}), click to "Finished"`,
      (r) => r.slow?.training?.finishedSeconds,
      unit('s', 2),
    ],
    [`  the longest main-thread task meanwhile`, (r) => r.slow?.training?.longestMs, ms],
    [
      `section 6 (${modes || 'not run'}): first comparison of two models stated`,
      (r) => r.training?.comparedSeconds,
      unit('s', 2),
    ],
    [
      '  first difference claimed (more than twice the seed spread)',
      (r) => r.training?.differenceSeconds,
      unit('s', 2),
    ],
  ];
  for (const [what, pick, show] of rows) console.log(infoRow(what, perRun(runs, pick), show));
  // What loads before scrolling, file by file, and what each file fetched later adds.
  const first = runs.map((r) => r.firstLoad).find(Array.isArray);
  if (first) {
    const kb = (file) => ((bytes.get(file)?.gzip ?? 0) / 1024).toFixed(1);
    console.log(
      `    before scrolling: ${first.map((file) => `${file} ${kb(file)}`).join(', ')} (KB, gzip -9)`,
    );
    for (const [file, what] of Object.entries(LATER_FILES))
      if (!first.includes(file) && bytes.has(file))
        console.log(infoRow(`  ${what}`, [bytes.get(file).gzip / 1024], unit('KB', 1)));
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const runsAt = process.argv.indexOf('--runs');
  const onlyAt = process.argv.indexOf('--only');
  const speed = await measurePageSpeed({
    runs: runsAt > 0 ? Number(process.argv[runsAt + 1]) : 1,
    only: onlyAt > 0 ? process.argv[onlyAt + 1].split(',') : null,
  });
  const files = pageBytes();
  printPageSpeed(speed, files);
  for (const target of pageTargets(speed, files)) console.log(targetLine(target));
}
