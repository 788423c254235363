// train-speed.mjs: the training-speed rows. The one-head character model (cpp/learning/model.hpp) at
// d = 64, batch 16 × 64 characters, Adam, seed 0, trained per step by four peers within one
// round, alternately: PyTorch on one thread twice (bench/train_speed.py), once with Debian's
// OpenBLAS and once with the reference BLAS, the native C++ trainer (attention-train's own timing
// of its steps) and the page's wasm trainer in headless Chromium (trainingStart / trainingSteps
// through web/src/learning-core.js, as the page calls them); then 300 steps in Chromium the
// page's way (calls of 10 steps, each also measuring the held-out windows). Section 6 of the
// built page is timed with the other page rows (bench/page-speed.mjs).
//
// Run alone (`node bench/train-speed.mjs [--rounds N] [--steps N]`) after
// `bash scripts/build-native.sh native`, `bash scripts/build-wasm.sh` and
// `node scripts/build-web.mjs`, or as part of bench/run.mjs (which runs as many rounds as it has
// runs). PyTorch is optional: without Debian's python3-torch its rows and ratios say
// "not measured", and the rest runs; scripts/bench.sh installs it, with libopenblas0-serial.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../scripts/chromium.mjs';
import { serve } from '../scripts/serve.mjs';
import { median, missingReason, targetLine, times, unit } from './targets.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PYTHON = '/usr/bin/python3'; // Debian's, where python3-torch installs (not a pyenv one)
const SHAPE = { d: 64, batch: 16, context: 64 };
const PAGE_CHUNK = 10; // steps per trainingSteps call in the page's worker (figures/training/model.js)
const WASM_BATCH = 20; // steps per timed call for the per-step row

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

// ---- PyTorch, with each BLAS ----

function hasTorch() {
  const check = spawnSync(PYTHON, ['-c', 'import torch'], { stdio: 'ignore' });
  return check.status === 0;
}

// The folder holding a BLAS's libblas.so.3, which LD_LIBRARY_PATH then puts first for one
// process (Debian's python3-torch links libblas.so.3; which library that name means system-wide
// is update-alternatives' choice, so each peer names its folder instead). From the package's
// own file list, or else the multiarch folders under /usr/lib. null when not installed.
function blasFolder(debianPackage, folderName, library = 'libblas.so.3') {
  const listed = spawnSync('dpkg', ['-L', debianPackage], { encoding: 'utf8' });
  const file =
    listed.status === 0
      ? listed.stdout.split('\n').find((line) => line.endsWith(`/${folderName}/${library}`))
      : undefined;
  if (file) return dirname(file);
  if (!existsSync('/usr/lib')) return null;
  for (const triplet of readdirSync('/usr/lib')) {
    const folder = join('/usr/lib', triplet, folderName);
    if (existsSync(join(folder, library))) return folder;
  }
  return null;
}

// The reference BLAS's folder, and the reference LAPACK's before the system's: PyTorch also
// links liblapack.so.3, and with libopenblas0-serial installed that name means OpenBLAS's
// LAPACK, which loads libopenblas.so.0 and with it OpenBLAS's BLAS into the process.
function referenceFolders() {
  const blas = blasFolder('libblas3', 'blas');
  const lapack = blasFolder('liblapack3', 'lapack', 'liblapack.so.3');
  return blas && [blas, lapack].filter(Boolean).join(':');
}

// The two PyTorch peers: the BLAS each is meant to run, its folder, and what it needs if absent.
export const TORCH_PEERS = [
  {
    key: 'openblas',
    wanted: 'OpenBLAS',
    folder: () => blasFolder('libopenblas0-serial', 'openblas-serial'),
    install: 'libopenblas0-serial',
  },
  {
    key: 'reference',
    wanted: 'reference BLAS',
    folder: referenceFolders,
    install: 'libblas3',
  },
];

// One round of PyTorch with the BLAS in `folder`: ms per step, the BLAS the process reports
// having loaded (its /proc/self/maps) and that BLAS's rate on a 4096×64×64 product.
function torchRound(steps, folder) {
  const libraryPath = [folder, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':');
  const run = spawnSync(
    PYTHON,
    [join(root, 'bench/train_speed.py'), '--peer', 'torch', '--rounds', '1'].concat([
      '--steps',
      String(steps),
      '--json',
    ]),
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, LD_LIBRARY_PATH: libraryPath },
    },
  );
  if (run.status !== 0) throw new Error(`bench/train_speed.py failed (exit ${run.status})`);
  const result = JSON.parse(run.stdout);
  return {
    msPerStep: result.torchMsPerStep[0],
    version: result.torch,
    blas: result.blas,
    matmulGflops: result.matmulGflops,
  };
}

// ---- native C++ ----

// attention-train times only its steps (no start-up, no held-out measurement): one run, the 1/√d
// head that PyTorch trains, at one learning rate (Adam's step costs the same at any rate).
function nativeRound(steps) {
  const folder = mkdtempSync(join(tmpdir(), 'attention-train-speed-'));
  try {
    const run = spawnSync(
      join(root, 'build/native/attention-train'),
      [
        '--widths',
        String(SHAPE.d),
        '--steps',
        String(steps),
        '--batch',
        String(SHAPE.batch),
        '--context',
        String(SHAPE.context),
      ].concat([
        '--configs',
        'sqrt',
        '--seeds',
        '0',
        '--lr',
        '0.01',
        '--held-out-windows',
        '32',
        '--out',
        folder,
      ]),
      { stdio: 'ignore' },
    );
    if (run.status !== 0)
      throw new Error(
        'build/native/attention-train failed; run bash scripts/build-native.sh native',
      );
    const [header, ...lines] = readFileSync(join(folder, 'learning.csv'), 'utf8')
      .trim()
      .split('\n');
    const names = header.split(',');
    const rows = lines.map((line) =>
      Object.fromEntries(line.split(',').map((c, i) => [names[i], c])),
    );
    const row = rows.find((r) => r.config === 'sqrt');
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
// timed whole after its trainingStart. One core per product path (`options` for the factory);
// returns the path it runs (Module.simdKernel).
async function startInPage({ name, text, shape, options }) {
  window.trainingCores ??= {};
  const key = JSON.stringify(options);
  if (!window.trainingCores[key]) {
    const { wrapLearning } = await import('/web/src/learning-core.js');
    window.trainingCores[key] = wrapLearning(await window.AttentionLearning(options));
  }
  window.trainingCore = window.trainingCores[key];
  const core = window.trainingCore;
  core.trainingStop({ name });
  core.trainingStart({ name, text, ...shape, scale: { mode: 'sqrt' }, seed: 0, optimizer: 'adam' });
  return core.simdKernel;
}

function stepsInPage({ name, steps, batch }) {
  const core = window.trainingCore;
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

// The wasm trainer's two product paths: the one the page gets (relaxed SIMD where Chromium
// validates it) and the simd128 fallback, forced with { relaxedSimd: false }.
const WASM_PATHS = [
  { key: 'wasm', options: {} },
  { key: 'wasmSimd128', options: { relaxedSimd: false } },
];

async function wasmRound(page, cdp, text, steps, options) {
  const kernel = await page.evaluate(startInPage, {
    name: 'per-step',
    text,
    shape: SHAPE,
    options,
  });
  let cpu = await threadSeconds(cdp);
  const perStep = await page.evaluate(stepsInPage, { name: 'per-step', steps, batch: WASM_BATCH });
  const perStepCpu = (await threadSeconds(cdp)) - cpu;
  await page.evaluate(startInPage, { name: 'page-run', text, shape: SHAPE, options });
  cpu = await threadSeconds(cdp);
  const run = await page.evaluate(stepsInPage, { name: 'page-run', steps: 300, batch: PAGE_CHUNK });
  const runCpu = (await threadSeconds(cdp)) - cpu;
  return {
    kernel,
    msPerStep: median(perStep.perCall),
    cpuMsPerStep: (1000 * perStepCpu) / steps,
    run300Ms: run.totalMs,
    run300CpuMs: 1000 * runCpu,
  };
}

async function openWasmPage(browser) {
  const server = await serve(root, 0, {
    only: ['/build/', '/bench/', '/web/src/', '/web/assets/'],
  });
  const page = await browser.newPage();
  page.on('pageerror', (error) => console.error(`training page: ${error.message}`));
  await page.goto(`http://127.0.0.1:${server.address().port}/bench/page/training.html`);
  await page.waitForFunction(() => typeof window.AttentionLearning === 'function');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  return { page, server, cdp };
}

// ---- the rounds ----

// PyTorch's two peers in alternating order (OpenBLAS first in odd rounds), so that neither
// always runs on a core the other has just warmed.
function torchPeers(round, steps, folders) {
  const order = round % 2 ? TORCH_PEERS : [...TORCH_PEERS].reverse();
  const results = {};
  for (const peer of order) {
    if (!folders[peer.key]) results[peer.key] = { missing: `${peer.install} is not installed` };
    else results[peer.key] = torchRound(steps, folders[peer.key]);
  }
  return results;
}

export async function measureTrainingSpeed({ rounds = 3, steps = 100 } = {}) {
  const text = readFileSync(join(root, 'data/tinyshakespeare.txt'), 'utf8');
  const torch = hasTorch();
  const folders = Object.fromEntries(TORCH_PEERS.map((peer) => [peer.key, peer.folder()]));
  const result = { rounds: [], loadBefore: load(), torch, folders, steps };
  const browser = await launchChromium();
  try {
    const { page, server, cdp } = await openWasmPage(browser);
    try {
      for (let round = 1; round <= rounds; round++) {
        console.error(
          `training speed: round ${round} of ${rounds}: PyTorch (OpenBLAS, reference BLAS), ` +
            'native, wasm in Chromium ...',
        );
        const entry = { load: load() };
        if (torch) entry.torch = torchPeers(round, steps, folders);
        entry.native = nativeRound(steps);
        const paths = round % 2 ? WASM_PATHS : [...WASM_PATHS].reverse();
        for (const { key, options } of paths)
          entry[key] = await wasmRound(page, cdp, text, steps, options);
        result.rounds.push(entry);
      }
    } finally {
      await page.close();
      server.close();
    }
    result.browserVersion = browser.version();
  } finally {
    await browser.close();
  }
  result.loadAfter = load();
  return result;
}

// ---- the rows and the targets ----

const list = (values, digits) => values.map((v) => v.toFixed(digits)).join(', ');

// A round's PyTorch peer, if it ran with the BLAS it was meant to (read from its own process).
function torchAs(round, key) {
  const peer = round.torch?.[key];
  const wanted = TORCH_PEERS.find((p) => p.key === key).wanted;
  return peer?.blas?.name === wanted ? peer : null;
}

// Why a PyTorch peer has no value: not installed, or it loaded another BLAS than meant.
function torchMissing(result, key) {
  if (!result.torch)
    return 'not measured: python3-torch is not installed (scripts/bench.sh installs it)';
  const why = missingReason(result.rounds, (r) => {
    const peer = r.torch?.[key];
    if (peer?.missing) return `not measured: ${peer.missing}`;
    if (peer && !torchAs(r, key))
      return `not measured: the process meant for it loaded ${peer.blas?.name} (${peer.blas?.library})`;
    return undefined;
  });
  return why ?? 'not measured';
}

function blasLine(rounds, key) {
  const peers = rounds.map((r) => r.torch?.[key]).filter((p) => p?.blas);
  if (peers.length === 0) return '';
  const { blas } = peers[0];
  const gflops = peers.map((p) => p.matmulGflops);
  const config = blas.config ? `: ${blas.config}` : '';
  return (
    `      BLAS in the process: ${blas.name} (${blas.library}${config}); ` +
    `4096×64×64 product ${median(gflops).toFixed(1)} GFLOP/s (rounds: ${list(gflops, 1)})`
  );
}

// PyTorch's ms/step over a peer's, per round, against the PyTorch that used `key`'s BLAS.
function ratios(rounds, key, peer) {
  return rounds
    .filter((r) => torchAs(r, key))
    .map((r) => torchAs(r, key).msPerStep / r[peer].msPerStep);
}

// One product path's rows: ms/step, then 300 steps; each names the path that ran (a path that
// fell back says simd128).
function printWasmRows(runs, row) {
  const kernels = [...new Set(runs.map((run) => run.kernel))].join(' / ');
  row(
    `wasm in Chromium, ${kernels} (trainingSteps of ${WASM_BATCH})`,
    runs.map((run) => run.msPerStep),
    `; main-thread CPU ${median(runs.map((run) => run.cpuMsPerStep)).toFixed(2)} ms/step; ` +
      'each call also measures the held-out windows',
  );
  const run300 = runs.map((run) => run.run300Ms / 1000);
  console.log(
    `  ${`300 steps in Chromium, ${kernels} (${300 / PAGE_CHUNK} calls of ${PAGE_CHUNK})`.padEnd(52)} ` +
      `${median(run300).toFixed(2).padStart(8)} s        (rounds: ${list(run300, 2)}; main-thread CPU ` +
      `${median(runs.map((run) => run.run300CpuMs / 1000)).toFixed(2)} s)`,
  );
}

export function printTrainingSpeed(result) {
  const { rounds } = result;
  console.log(
    `\nTraining speed: the one-head character model, d = ${SHAPE.d}, batch ${SHAPE.batch} × ` +
      `${SHAPE.context} characters, Adam, seed 0, steps 1–${result.steps}, one thread; ` +
      `${rounds.length} round${rounds.length > 1 ? 's' : ''}, peers alternated within each; medians over the rounds`,
  );
  console.log(
    `  load average (1, 5, 15 min): before ${result.loadBefore.join(' ')}, after ${result.loadAfter.join(' ')}; ` +
      `per round ${rounds.map((r) => r.load[0]).join(', ')}; Chromium ${result.browserVersion}`,
  );
  const row = (name, values, note = '') =>
    console.log(
      `  ${name.padEnd(52)} ${median(values).toFixed(2).padStart(8)} ms/step  (rounds: ${list(values, 2)})${note}`,
    );
  for (const peer of TORCH_PEERS) {
    const name = `PyTorch (CPU, 1 thread, ${peer.wanted})`;
    const ran = rounds.filter((r) => torchAs(r, peer.key));
    if (ran.length === 0) {
      console.log(`  ${name.padEnd(52)} ${torchMissing(result, peer.key)}`);
      continue;
    }
    const values = ran.map((r) => torchAs(r, peer.key).msPerStep);
    const faster = rounds
      .filter((r) => torchAs(r, peer.key) && torchAs(r, 'reference'))
      .map((r) => torchAs(r, 'reference').msPerStep / torchAs(r, peer.key).msPerStep);
    const note =
      peer.key !== 'reference' && faster.length
        ? `; ${median(faster).toFixed(2)}× the reference-BLAS PyTorch (rounds: ${list(faster, 2)})`
        : '';
    row(`PyTorch ${ran[0].torch[peer.key].version} (CPU, 1 thread, ${peer.wanted})`, values, note);
    console.log(blasLine(rounds, peer.key));
  }
  row(
    'C++ native (attention-train)',
    rounds.map((r) => r.native.msPerStep),
  );
  for (const { key } of WASM_PATHS)
    printWasmRows(
      rounds.map((r) => r[key]),
      row,
    );
  const wasmOverNative = rounds.map((r) => r.wasm.msPerStep / r.native.msPerStep);
  console.log(`  (wasm in Chromium / native C++ per step: ${median(wasmOverNative).toFixed(2)}×)`);
}

// The training targets, one value per round.
export function trainingTargets(result) {
  const { rounds } = result;
  const perStep = (peer, name, wanted) => {
    const reference = ratios(rounds, 'reference', peer);
    return {
      what: `per training step, ${name} ÷ PyTorch (1 thread, OpenBLAS)`,
      wanted,
      show: times(2),
      values: ratios(rounds, 'openblas', peer),
      missing: torchMissing(result, 'openblas'),
      beside:
        reference.length > 0
          ? `against the reference-BLAS PyTorch ${times(2)(median(reference))}` +
            (reference.length > 1 ? ` (runs: ${reference.map(times(2)).join(', ')})` : '')
          : undefined,
    };
  };
  return [
    perStep('native', 'native C++', 2),
    perStep('wasm', `wasm in Chromium (${rounds[0].wasm.kernel})`, 1),
    {
      what: `300 steps of one head in Chromium, ${rounds[0].wasm.kernel} (${300 / PAGE_CHUNK} calls of ${PAGE_CHUNK}, as the page)`,
      wanted: 2,
      atMost: true,
      show: unit('s', 2),
      values: rounds.map((r) => r.wasm.run300Ms / 1000),
    },
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await measureTrainingSpeed(parseArguments(process.argv.slice(2)));
  printTrainingSpeed(result);
  for (const target of trainingTargets(result)) console.log(targetLine(target));
}
