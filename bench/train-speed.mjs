// train-speed.mjs: issue 10's training-speed rows. The one-head character model (cpp/learning/model.hpp)
// at d = 64, batch 16 × 64 characters, Adam, seed 0, trained per step by three peers within one
// run, alternately: PyTorch on one thread (bench/train_speed.py, the anchor), the native C++
// trainer (build/native/attention-train's own timing of its steps) and the page's wasm trainer in
// headless Chromium (trainingStart / trainingSteps through web/src/learning-core.js, as the page calls
// them). Then 300 steps in Chromium the page's way (calls of 10 steps, each also measuring the
// held-out windows), and the built page's section 6 (dist/, its default settings, the compute
// worker) from the click on its button to the moment its findings first state a difference.
// Run alone (`node bench/train-speed.mjs [--rounds N] [--steps N]`) after
// `bash scripts/build-native.sh native`, `bash scripts/build-wasm.sh` and
// `node scripts/build-web.mjs`, or as part of bench/run.mjs. PyTorch is optional: without
// Debian's python3-torch its row says "not measured".
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../scripts/chromium.mjs';
import { serve } from '../scripts/serve.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PYTHON = '/usr/bin/python3'; // Debian's, where python3-torch installs (not a pyenv one)
const SHAPE = { d: 64, batch: 16, context: 64 };
const PAGE_CHUNK = 10; // steps per trainingSteps call in the page's worker (figures/training/model.js)
const WASM_BATCH = 20; // steps per timed call for the per-step row

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const load = () => loadavg().map((x) => x.toFixed(2));

function parseArguments(argv) {
  const options = { rounds: 3, steps: 100 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--rounds') options.rounds = Number(argv[++i]);
    else if (argv[i] === '--steps') options.steps = Number(argv[++i]);
    else throw new Error(`unknown argument ${argv[i]}; see the top of bench/train-speed.mjs`);
  }
  return options;
}

// ---- PyTorch and native C++: one round each, by bench/train_speed.py and attention-train ----

function hasTorch() {
  const check = spawnSync(PYTHON, ['-c', 'import torch'], { stdio: 'ignore' });
  return check.status === 0;
}

function torchRound(steps) {
  const run = spawnSync(
    PYTHON,
    [
      join(root, 'bench/train_speed.py'),
      '--peer',
      'torch',
      '--rounds',
      '1',
      '--steps',
      String(steps),
      '--json',
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  if (run.status !== 0) throw new Error(`bench/train_speed.py failed (exit ${run.status})`);
  const result = JSON.parse(run.stdout);
  return { msPerStep: result.torchMsPerStep[0], version: result.torch };
}

// attention-train times only its steps (no start-up, no held-out measurement), per scale; the
// 1/√d run is the one PyTorch trains.
function nativeRound(steps) {
  const folder = mkdtempSync(join(tmpdir(), 'attention-train-speed-'));
  try {
    const table = join(folder, 'speed.csv');
    const run = spawnSync(
      join(root, 'build/native/attention-train'),
      [
        '--widths',
        String(SHAPE.d),
        '--steps',
        String(steps),
        '--batch',
        String(SHAPE.batch),
      ].concat(['--context', String(SHAPE.context), '--csv', table]),
      { stdio: 'ignore' },
    );
    if (run.status !== 0)
      throw new Error(
        'build/native/attention-train failed; run bash scripts/build-native.sh native',
      );
    const [header, ...lines] = readFileSync(table, 'utf8').trim().split('\n');
    const names = header.split(',');
    const rows = lines.map((line) =>
      Object.fromEntries(line.split(',').map((c, i) => [names[i], c])),
    );
    const row = rows.find((r) => r.scale === '1/sqrt(d)');
    return { msPerStep: (1000 * Number(row.seconds)) / steps };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

// ---- wasm in Chromium ----

// In the page, in three calls so that each can be timed on its own: a fresh core and run (its
// start-up not timed); steps 1…steps of the same run as the native and PyTorch rounds, in calls
// of WASM_BATCH (each call also measures the held-out windows, as every call of the page does),
// ms/step the median over the calls; then a second run of 300 steps in calls of PAGE_CHUNK,
// timed whole after its trainingStart.
async function startInPage({ name, text, shape }) {
  if (!window.trainingCore) {
    const { wrapLearning } = await import('/web/src/learning-core.js');
    window.trainingCore = { core: wrapLearning(await window.AttentionLearning()) };
  }
  const { core } = window.trainingCore;
  core.trainingStop({ name });
  core.trainingStart({ name, text, ...shape, scale: { mode: 'sqrt' }, seed: 0, optimizer: 'adam' });
}

function stepsInPage({ name, steps, batch }) {
  const { core } = window.trainingCore;
  const perCall = [];
  const began = performance.now();
  for (let done = 0; done < steps; done += batch) {
    const count = Math.min(batch, steps - done);
    const callBegan = performance.now();
    core.trainingSteps({ name, count });
    perCall.push((performance.now() - callBegan) / count);
  }
  const totalMs = performance.now() - began;
  core.trainingStop({ name });
  return { perCall, totalMs };
}

// Main-thread CPU time of the page (Chrome DevTools Protocol's ThreadTime), beside the wall
// clock: on a shared machine the two differ by the time the thread waited for a core.
async function threadSeconds(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return metrics.find((m) => m.name === 'ThreadTime').value;
}

async function wasmRound(page, cdp, text, steps) {
  await page.evaluate(startInPage, { name: 'per-step', text, shape: SHAPE });
  let cpu = await threadSeconds(cdp);
  const perStep = await page.evaluate(stepsInPage, { name: 'per-step', steps, batch: WASM_BATCH });
  const perStepCpu = (await threadSeconds(cdp)) - cpu;
  await page.evaluate(startInPage, { name: 'page-run', text, shape: SHAPE });
  cpu = await threadSeconds(cdp);
  const run = await page.evaluate(stepsInPage, { name: 'page-run', steps: 300, batch: PAGE_CHUNK });
  const runCpu = (await threadSeconds(cdp)) - cpu;
  return {
    msPerStep: median(perStep.perCall),
    perCall: perStep.perCall,
    cpuMsPerStep: (1000 * perStepCpu) / steps,
    run300Ms: run.totalMs,
    run300CpuMs: 1000 * runCpu,
  };
}

async function openWasmPage(browser) {
  const server = await serve(root, 0, {
    only: ['/build/', '/bench/', '/web/src/core.js', '/web/src/learning-core.js'],
  });
  const page = await browser.newPage();
  page.on('pageerror', (error) => console.error(`training page: ${error.message}`));
  await page.goto(`http://127.0.0.1:${server.address().port}/bench/page/training.html`);
  await page.waitForFunction(() => typeof window.AttentionLearning === 'function');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  return { page, server, cdp };
}

// ---- the page's section 6 ----

// The findings' verdict on held-out loss (web/src/figures/training/findings.js): the unscaled
// head behind the 1/√d one by more than the page's 0.02 nats of "level".
const BEHIND =
  /After (\d+) steps the held-out loss[\s\S]*The unscaled head is behind the 1\/√d head by ([\d.]+) nats/;
const COLLAPSED = /its attention has collapsed onto one character per row/;
// The collapse sentence also quotes the 1/√d head's mean peak weight: 22% at the start, and the
// head has learned where to look once it passes 40% (it ends near 64%, docs/learning.md).
const SHARPENED = /against (\d+)% with 1\/√d/;
const SHARPENED_PERCENT = 40;

// Clicks "Train the three heads" with the default settings once the page computes in its worker,
// and records, in the page's own clock, every change of the findings and of the status line until
// the three runs finish.
async function demoTimeline(browser) {
  const server = await serve(join(root, 'dist'), 0);
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  try {
    page.on('pageerror', (error) => console.error(`page: ${error.message}`));
    await page.goto(`http://127.0.0.1:${server.address().port}/index.html`);
    await page.waitForFunction(
      () => document.documentElement.dataset.compute !== 'starting',
      null,
      {
        timeout: 30_000,
      },
    );
    const mode = await page.evaluate(() => document.documentElement.dataset.compute);
    await page.locator('#training').scrollIntoViewIfNeeded();
    await page.evaluate(() => {
      const figure = document.querySelector('#training');
      const findings = figure.querySelector('.training__findings');
      const status = figure.querySelector('.training__status');
      window.trainingTimeline = [];
      const record = () =>
        window.trainingTimeline.push({
          t: performance.now(),
          findings: findings.textContent,
          status: status.textContent,
        });
      const observer = new MutationObserver(record);
      for (const node of [findings, status])
        observer.observe(node, { childList: true, subtree: true, characterData: true });
      figure.querySelector('.training__buttons button').addEventListener(
        'click',
        () => {
          window.trainingClicked = performance.now();
        },
        { capture: true },
      );
    });
    await page.click('#training .training__buttons button');
    await page.waitForFunction(
      () =>
        /^Step 300 of 300/.test(document.querySelector('#training .training__status').textContent),
      null,
      { timeout: 180_000, polling: 200 },
    );
    const { clicked, timeline } = await page.evaluate(() => ({
      clicked: window.trainingClicked,
      timeline: window.trainingTimeline,
    }));
    return { mode, events: timeline.map((e) => ({ ...e, seconds: (e.t - clicked) / 1000 })) };
  } finally {
    await page.close();
    server.close();
  }
}

// The moments a reader sees: the first findings at all (the start, before any step: the unscaled
// head's attention already collapsed at initialisation), the first verdict "behind", whether that
// verdict held at every later update, and the end of the three runs.
function demoMoments({ mode, events }) {
  const first = (test) => events.find((e) => test(e));
  const start = first((e) => e.findings.startsWith('Before any training'));
  const behind = first((e) => BEHIND.test(e.findings));
  const later = behind
    ? events.filter((e) => e.t >= behind.t && /After \d+ steps/.test(e.findings))
    : [];
  const held = behind !== undefined && later.every((e) => BEHIND.test(e.findings));
  const collapsed = first((e) => COLLAPSED.test(e.findings));
  const sharpened = first((e) => Number(SHARPENED.exec(e.findings)?.[1] ?? 0) >= SHARPENED_PERCENT);
  const done = first((e) => /^Step 300 of 300/.test(e.status));
  const [, step, gap] = behind ? BEHIND.exec(behind.findings) : [];
  return {
    mode,
    startSeconds: start?.seconds,
    behindSeconds: behind?.seconds,
    behindStep: step ? Number(step) : undefined,
    behindGap: gap ? Number(gap) : undefined,
    behindHeld: held,
    collapsedSeconds: collapsed?.seconds,
    sharpenedSeconds: sharpened?.seconds,
    sharpenedStep: sharpened
      ? Number(/After (\d+) steps/.exec(sharpened.findings)?.[1])
      : undefined,
    doneSeconds: done?.seconds,
  };
}

// ---- one run of the whole section ----

export async function measureTrainingSpeed({ rounds = 3, steps = 100 } = {}) {
  const text = readFileSync(join(root, 'data/tinyshakespeare.txt'), 'utf8');
  const torch = hasTorch();
  const result = { rounds: [], loadBefore: load(), torch, steps };
  const browser = await launchChromium();
  try {
    const { page, server, cdp } = await openWasmPage(browser);
    try {
      for (let round = 1; round <= rounds; round++) {
        console.error(
          `training speed: round ${round} of ${rounds}: PyTorch, native, wasm in Chromium ...`,
        );
        const entry = { load: load() };
        if (torch) entry.torch = torchRound(steps);
        entry.native = nativeRound(steps);
        entry.wasm = await wasmRound(page, cdp, text, steps);
        result.rounds.push(entry);
      }
    } finally {
      await page.close();
      server.close();
    }
    console.error('training speed: the page, section 6, default settings ...');
    result.demo = demoMoments(await demoTimeline(browser));
    result.browserVersion = browser.version();
  } finally {
    await browser.close();
  }
  result.loadAfter = load();
  return result;
}

// ---- the rows ----

const verdict = (met) => (met ? 'MET' : 'MISSED');
const list = (values, digits) => values.map((v) => v.toFixed(digits)).join(', ');

export function printTrainingSpeed(result) {
  const { rounds, demo } = result;
  const torch = rounds.filter((r) => r.torch).map((r) => r.torch.msPerStep);
  const native = rounds.map((r) => r.native.msPerStep);
  const wasm = rounds.map((r) => r.wasm.msPerStep);
  const run300 = rounds.map((r) => r.wasm.run300Ms / 1000);
  console.log(
    `\nTraining speed (issue 10): the one-head character model, d = ${SHAPE.d}, batch ${SHAPE.batch} × ` +
      `${SHAPE.context} characters, Adam, seed 0, steps 1–${result.steps}, one thread; ` +
      `${rounds.length} rounds, peers alternated within each; medians over the rounds`,
  );
  console.log(
    `  load average (1, 5, 15 min): before ${result.loadBefore.join(' ')}, after ${result.loadAfter.join(' ')}; ` +
      `per round ${rounds.map((r) => r.load[0]).join(', ')}; Chromium ${result.browserVersion}`,
  );
  const row = (name, values, note) =>
    console.log(
      `  ${name.padEnd(44)} ${median(values).toFixed(2).padStart(8)} ms/step  (rounds: ${list(values, 2)})${note}`,
    );
  if (torch.length) row(`PyTorch ${rounds[0].torch.version} (CPU, 1 thread)`, torch, '');
  else console.log(`  ${'PyTorch (CPU, 1 thread)'.padEnd(44)} not measured: install python3-torch`);
  row('C++ native (attention-train)', native, '');
  const wasmCpu = rounds.map((r) => r.wasm.cpuMsPerStep);
  row(
    `wasm in Chromium (trainingSteps of ${WASM_BATCH})`,
    wasm,
    `; main-thread CPU ${median(wasmCpu).toFixed(2)} ms/step; each call also measures the held-out windows`,
  );
  const ratios = (peer) =>
    rounds.filter((r) => r.torch).map((r) => r.torch.msPerStep / r[peer].msPerStep);
  if (torch.length) {
    const nativeRatio = ratios('native');
    const wasmRatio = ratios('wasm');
    console.log(
      `target: native C++ >= 3× faster than PyTorch per step: ${median(nativeRatio).toFixed(1)}× ` +
        `(rounds: ${list(nativeRatio, 1)}) ${verdict(median(nativeRatio) >= 3)}`,
    );
    console.log(
      `target: wasm in Chromium at least as fast as PyTorch per step: ${median(wasmRatio).toFixed(1)}× ` +
        `(rounds: ${list(wasmRatio, 1)}) ${verdict(median(wasmRatio) >= 1)}`,
    );
  } else {
    console.log(
      'target: native C++ >= 3× faster than PyTorch per step: not measured: install python3-torch',
    );
    console.log(
      'target: wasm in Chromium at least as fast as PyTorch per step: not measured: install python3-torch',
    );
  }
  const wasmOverNative = rounds.map((r) => r.wasm.msPerStep / r.native.msPerStep);
  console.log(`  (wasm in Chromium / native C++ per step: ${median(wasmOverNative).toFixed(2)}×)`);
  console.log(
    `target: 300 steps in Chromium (${300 / PAGE_CHUNK} calls of ${PAGE_CHUNK}, as the page) < 3 s: ` +
      `${median(run300).toFixed(2)} s (rounds: ${list(run300, 2)}; main-thread CPU ` +
      `${median(rounds.map((r) => r.wasm.run300CpuMs / 1000)).toFixed(2)} s) ${verdict(median(run300) < 3)}`,
  );
  const seen = demo.behindSeconds;
  console.log(
    `target: section 6 (defaults, ${demo.mode}) states a difference < 10 s after the click: ` +
      (seen === undefined
        ? 'never stated MISSED'
        : `${seen.toFixed(2)} s ("behind by ${demo.behindGap} nats" after step ${demo.behindStep}; ` +
          `${demo.behindHeld ? 'held at every later update' : 'NOT held at every later update'}) ` +
          verdict(seen < 10 && demo.behindHeld)),
  );
  const at = (s) => (s === undefined ? 'never' : `${s.toFixed(2)} s`);
  console.log(
    `  (section 6: start findings ${at(demo.startSeconds)}, collapse sentence ${at(demo.collapsedSeconds)}, ` +
      `1/√d head's peak >= ${SHARPENED_PERCENT}% ${at(demo.sharpenedSeconds)} (step ${demo.sharpenedStep ?? '–'}), ` +
      `3 × 300 steps done ${at(demo.doneSeconds)})`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  printTrainingSpeed(await measureTrainingSpeed(parseArguments(process.argv.slice(2))));
}
