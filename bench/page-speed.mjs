// page-speed.mjs: how fast the built page (dist/) feels, in headless Chromium on localhost, each
// row held to issue 9's target: navigation to the first drawn attention map; a text change to
// the redrawn map at T = 64, 256 and 512 (d = 64), from the input event to the end of drawing;
// the longest main-thread task (PerformanceObserver 'longtask') while 1000 characters are typed
// at d = 512 and while the √d chart's averaged study runs; the averaged study's time as the
// page reports it; and the gzipped size of what the page loads before the learning section
// and what each file fetched later adds. Run alone
// (`node bench/page-speed.mjs`) after `npm run build`, or as part of bench/run.mjs.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { launchChromium } from '../scripts/chromium.mjs';
import { serve } from '../scripts/serve.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
// The files the page fetches only as a reader nears the section that needs them
// (web/src/lib/when-near.js), with what each carries.
const LATER_FILES = {
  'learning.js': 'what the learning section adds (learning.js)',
  'torch-outputs.js': 'what the proof, section 7, adds (torch-outputs.js)',
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export function pageBytes() {
  return readdirSync(dist).map((file) => {
    const raw = readFileSync(join(dist, file));
    return { file, raw: raw.length, gzip: gzipSync(raw, { level: 9 }).length };
  });
}

// A page whose long tasks (over 50 ms on the main thread) are collected from the start.
async function openPage(browser, url) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
    }).observe({ type: 'longtask' });
  });
  await page.goto(url);
  await page.waitForSelector('#map-table table');
  // The compute worker is up (it loads its own copy of the core after the first map), and
  // every figure has mounted (section 6's is among the last): what follows measures the page
  // as a reader uses it, not its start.
  await page.waitForFunction(() => document.documentElement.dataset.compute !== 'starting');
  await page.waitForSelector('#training .training__buttons button');
  return page;
}

// The longest main-thread task while `action` runs (0 when none reached 50 ms).
async function longestTaskDuring(page, action) {
  await page.evaluate(() => {
    window.__longTasks = [];
  });
  await action();
  return page.evaluate(() => Math.max(0, ...window.__longTasks));
}

async function firstMapMs(browser, url) {
  const times = [];
  for (let run = 0; run < 5; run++) {
    const page = await browser.newPage();
    await page.goto(url);
    await page.waitForFunction(() => performance.getEntriesByName('map-drawn').length > 0);
    times.push(await page.evaluate(() => performance.getEntriesByName('map-drawn')[0].startTime));
    await page.close();
  }
  return median(times);
}

// From the input event to the end of the redraw, so it includes waiting for the frame. Each
// change comes `pauseMs` after the last map was drawn: 300 ms, as a reader makes a change and
// looks, once the previous map's follow-up (the other figures, layout, paint) is done; 0, as
// fast as the page allows, where that follow-up is still running (about 10 ms more at T = 512).
async function redrawMs(page, T, pauseMs) {
  const times = [];
  for (let run = 0; run < 7; run++) {
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
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

const TYPED =
  'To be, or not to be, that is the question: whether tis nobler in the mind to suffer ';

// 1000 characters typed one key at a time (20 ms apart, faster than anyone types) into the
// map's text at d = 512, until the map of all 1000 is drawn.
async function typingLongestTaskMs(browser, url) {
  const page = await openPage(browser, `${url}#d=512`);
  await page.fill('#map-text', '');
  await page.focus('#map-text');
  const text = TYPED.repeat(12).slice(0, 1000);
  const longest = await longestTaskDuring(page, async () => {
    await page.keyboard.type(text, { delay: 20 });
    await page.waitForFunction(
      () => /^1000 tokens/.test(document.querySelector('[data-role="summary"]').textContent),
      null,
      { timeout: 60_000 },
    );
  });
  await page.close();
  return longest;
}

const STUDY_DONE = /32 draws, T = 64, mask off, seed \d+: computed by the C\+\+ core in (\d+) ms/;

// The averaged study, from the click to its result.
async function studyRun(browser, url) {
  const page = await openPage(browser, url);
  await page.locator('#scale').scrollIntoViewIfNeeded();
  let ms = 0;
  const longest = await longestTaskDuring(page, async () => {
    await page.getByText('Averaged', { exact: true }).click();
    await page.waitForFunction(
      (source) => new RegExp(source).test(document.querySelector('#scale').textContent),
      STUDY_DONE.source,
      { timeout: 60_000 },
    );
    ms = Number(STUDY_DONE.exec(await page.textContent('#scale'))[1]);
  });
  await page.close();
  return { ms, longest };
}

export async function measurePageSpeed() {
  const server = await serve(dist, 0);
  const browser = await launchChromium();
  try {
    const url = `http://127.0.0.1:${server.address().port}/index.html`;
    const result = { firstMapMs: await firstMapMs(browser, url), redrawMs: {} };
    const page = await openPage(browser, `${url}#d=64`);
    for (const T of [64, 256, 512]) result.redrawMs[T] = await redrawMs(page, T, 300);
    result.backToBackMs = await redrawMs(page, 512, 0);
    await page.close();
    result.typingLongestTaskMs = await typingLongestTaskMs(browser, url);
    const study = await studyRun(browser, url);
    result.scaleStudyMs = study.ms;
    result.studyLongestTaskMs = study.longest;
    return result;
  } finally {
    await browser.close();
    server.close();
  }
}

// One row: what, the measurement, its target (or none), MET or MISSED.
function row(what, value, unit, target) {
  const measured = `${value.toFixed(unit === 'KB' ? 1 : 0).padStart(7)} ${unit}`;
  if (!target) return `  ${what.padEnd(58)} ${measured}`;
  const verdict = value <= target ? 'MET' : 'MISSED';
  return `  ${what.padEnd(58)} ${measured}   target <= ${target} ${unit}   ${verdict}`;
}

export function printPageSpeed(speed, files) {
  const total = files.reduce((sum, f) => sum + f.gzip, 0);
  console.log('\nPage speed (headless Chromium, localhost; issue 9 targets)');
  console.log(row('navigation to the first drawn map', speed.firstMapMs, 'ms', 200));
  for (const [T, ms] of Object.entries(speed.redrawMs)) {
    const target = Number(T) === 512 ? 16 : 0;
    console.log(row(`text change -> map redrawn, T = ${T}, d = 64`, ms, 'ms', target));
  }
  console.log(row('  the same at T = 512, changes back to back', speed.backToBackMs, 'ms'));
  console.log(
    row(
      'longest main-thread task, typing 1000 characters at d = 512',
      speed.typingLongestTaskMs,
      'ms',
      50,
    ),
  );
  console.log(
    row(
      'longest main-thread task while the averaged study runs',
      speed.studyLongestTaskMs,
      'ms',
      50,
    ),
  );
  console.log(
    row('averaged study, d = 1…1024, 32 draws, T = 64 (in the worker)', speed.scaleStudyMs, 'ms'),
  );
  // What a reader loads before the learning section: everything but the files fetched as a
  // later section comes near.
  const later = files.filter((f) => f.file in LATER_FILES);
  const before = total - later.reduce((sum, f) => sum + f.gzip, 0);
  console.log(row('page weight, gzipped, before the learning section', before / 1024, 'KB', 170));
  for (const f of later) console.log(row(`  ${LATER_FILES[f.file]}`, f.gzip / 1024, 'KB'));
  console.log(`    ${files.map((f) => `${f.file} ${(f.gzip / 1024).toFixed(1)}`).join(', ')}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  printPageSpeed(await measurePageSpeed(), pageBytes());
}
