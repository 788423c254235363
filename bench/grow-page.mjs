// grow-page.mjs: section 9's "Grow it yourself" on the built page (dist/) in headless Chromium,
// as a reader uses it: a click on "Grow it" (seed 0, the recorded recipe) and the time until the
// page says the head has formed (layer 2's induction score ≥ 0.3), by this script's clock from
// the click and by the page's own sentence; the page's ms per step up to then (its worker's
// steps, a measurement every 25 steps, the drawing); and the main thread's longest task while
// it grows (PerformanceObserver 'longtask': only tasks of 50 ms or more are reported, so "none"
// means every task was shorter). The 4-core target is measured only where Chromium reports 4
// cores or more (navigator.hardwareConcurrency).
//
// Run alone (`node bench/grow-page.mjs [--runs N]`) after `npm run build`, or as part of
// bench/run.mjs.
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../scripts/chromium.mjs';
import { serve } from '../scripts/serve.mjs';
import { median, missingReason, perRun, unit } from './targets.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FORM_LIMIT_MS = 240_000; // a run that has not formed by then counts as not formed
const POLL_MS = 100;

// Collects the main thread's long tasks from the start of the page, before its scripts run.
function watchLongTasks() {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      window.__longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
}

// Waits (at most 20 s) until the page has had no long task for a second: the click comes once
// the page has settled, so the startup's own tasks are not counted as the growth's.
async function settledPage(page) {
  for (let waited = 0; waited < 20_000; waited += 250) {
    const quiet = await page.evaluate(
      () => performance.now() - Math.max(0, ...window.__longTasks.map((t) => t.start + t.duration)),
    );
    if (quiet >= 1000) return;
    await new Promise((r) => setTimeout(r, 250));
  }
}

const statusOf = (page) => page.textContent('.copying-grow [data-role="status"]');

// Polls the status sentence until it says the head formed (or the run stopped), bounded.
async function untilFormed(page, clicked) {
  for (;;) {
    const status = await statusOf(page);
    const formed = /The head formed at step ([\d,]+), (\d+) s after the click/.exec(status);
    if (formed)
      return {
        clickToFormedS: (performance.now() - clicked) / 1000,
        formedAt: Number(formed[1].replace(/,/g, '')),
        pageSaysS: Number(formed[2]),
      };
    if (/The run stopped/.test(status)) throw new Error(status);
    if (performance.now() - clicked > FORM_LIMIT_MS)
      throw new Error(`not formed in ${FORM_LIMIT_MS / 1000} s: ${status}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

async function onePageRun(browser, url) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(60_000);
  try {
    await page.addInitScript(watchLongTasks);
    await page.goto(url);
    await page.evaluate(() => document.querySelector('#copying').scrollIntoView());
    await page.waitForSelector('.copying-grow [data-role="grow"]');
    await page.waitForSelector('.copying-reading canvas[data-peaks]');
    await settledPage(page);
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    const since = await page.evaluate(() => performance.now());
    const clicked = performance.now();
    await page.click('.copying-grow [data-role="grow"]');
    const formed = await untilFormed(page, clicked);
    await page.click('.copying-grow [data-role="pause"]');
    const tasks = await page.evaluate((t) => window.__longTasks.filter((x) => x.start >= t), since);
    return {
      load: loadavg().map((x) => x.toFixed(2)),
      cores,
      ...formed,
      msPerStep: (1000 * formed.pageSaysS) / formed.formedAt,
      longestTaskMs: tasks.length ? Math.max(...tasks.map((x) => x.duration)) : null,
      longTasks: tasks.length,
    };
  } finally {
    await page.close();
  }
}

export async function measureGrowPage({ runs = 1 } = {}) {
  const browser = await launchChromium();
  const server = await serve(join(root, 'dist'), 0);
  const url = `http://127.0.0.1:${server.address().port}/index.html#grow-seed=0&grow-steps=3000`;
  const result = { browserVersion: browser.version(), runs: [] };
  try {
    for (let run = 1; run <= runs; run++) {
      console.error(`grow page: run ${run} of ${runs}: click, then until the head forms ...`);
      try {
        result.runs.push(await onePageRun(browser, url));
      } catch (error) {
        result.runs.push({ error: error.message });
      }
    }
  } finally {
    await browser.close();
    server.close();
  }
  return result;
}

const missing = (result) =>
  missingReason(result.runs, (r) => (r.error ? `not measured: ${r.error}` : undefined));

export function printGrowPage(result) {
  const ok = result.runs.filter((r) => !r.error);
  console.log(
    `\nGrowing the copying head on the page (section 9, seed 0), Chromium ${result.browserVersion}, ` +
      `${result.runs.length} run${result.runs.length > 1 ? 's' : ''}`,
  );
  if (!ok.length) return console.log(`  ${missing(result)}`);
  const list = (key, digits) => ok.map((r) => r[key].toFixed(digits)).join(', ');
  console.log(
    `  click → head formed (score ≥ 0.3)   ${median(ok.map((r) => r.clickToFormedS)).toFixed(1)} s ` +
      `(runs: ${list('clickToFormedS', 1)}; formed at step ${ok.map((r) => r.formedAt).join(', ')}; ` +
      `${ok[0].cores} cores seen)`,
  );
  console.log(
    `  page ms per step up to then         ${median(ok.map((r) => r.msPerStep)).toFixed(1)} ms ` +
      `(runs: ${list('msPerStep', 1)}; the worker's steps, a measurement every 25, the drawing)`,
  );
  console.log(
    `  load average (1, 5, 15 min) after each run: ${ok.map((r) => r.load.join(' ')).join('; ')}`,
  );
  const longest = ok.map((r) =>
    r.longestTaskMs === null ? 'none ≥ 50 ms' : `${r.longestTaskMs} ms`,
  );
  console.log(`  longest main-thread task             ${longest.join(', ')}`);
}

export function growPageTargets(result) {
  const ok = result.runs.filter((r) => !r.error);
  const twoCores = ok.filter((r) => r.cores < 4);
  const fourCores = ok.filter((r) => r.cores >= 4);
  const coresSeen = ok.length ? `Chromium sees ${ok[0].cores} cores` : missing(result);
  return [
    {
      what: 'growing in Chromium (2 cores), click → head formed',
      wanted: 20,
      atMost: true,
      show: unit('s', 1),
      values: perRun(twoCores, (r) => r.clickToFormedS),
      missing: ok.length ? `not measured: ${coresSeen}` : missing(result),
    },
    {
      what: 'growing in Chromium (4 cores), click → head formed',
      wanted: 10,
      atMost: true,
      show: unit('s', 1),
      values: perRun(fourCores, (r) => r.clickToFormedS),
      missing: `not measured: ${coresSeen}`,
    },
    {
      what: 'longest main-thread task while growing (long tasks are 50 ms or more)',
      wanted: 50,
      atMost: true,
      // A run with no long task at all (every task under 50 ms) counts as 0, as page-speed's do.
      show: unit('ms', 0),
      values: perRun(ok, (r) => r.longestTaskMs ?? 0),
      missing: missing(result),
    },
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const runs = process.argv.includes('--runs')
    ? Number(process.argv[process.argv.indexOf('--runs') + 1])
    : 1;
  const result = await measureGrowPage({ runs });
  printGrowPage(result);
  const { targetLine } = await import('./targets.mjs');
  for (const target of growPageTargets(result)) console.log(targetLine(target));
}
