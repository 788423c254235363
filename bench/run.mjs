// run.mjs: runs the whole benchmark in one go and prints one table (scripts/bench.sh builds
// first; run that, or `npm run bench`). Native: our fast path and the formula (native_bench)
// against onnxruntime-node on one thread. In headless Chromium: our wasm fast path against
// onnxruntime-web, TensorFlow.js (wasm) and plain JavaScript. Every peer's output is compared
// with ours before it is timed. Then the training rows (bench/train-speed.mjs: PyTorch with
// OpenBLAS and with the reference BLAS, the native and the wasm trainer), the copying head's
// training step (bench/grow-speed.mjs: the native reference and fast paths against PyTorch), the
// page rows (bench/page-speed.mjs), and last the list of targets, each MET or MISSED. The kernel table
// also goes to build/bench/results.json.
//
// Usage: node bench/run.mjs [--lengths 64,256,1024,4096] [--runs N] [--no-native] [--no-browser]
// Everything is measured N times (3 by default): the kernel benchmark runs N times and every
// cell is the median over the runs, the training rows run N rounds and the page rows N runs;
// each target is the median of its N values (the machine is shared; one run's numbers can move
// by 10% and more).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import ort from 'onnxruntime-node';

import { launchChromiumWithProfile } from '../scripts/chromium.mjs';
import { serve } from '../scripts/serve.mjs';

import {
  LENGTHS,
  WIDTH,
  flopCount,
  makeInputs,
  maxAbsDifference,
  medianMsPerCall,
} from './inputs.mjs';
import { attentionModel } from './onnx-model.mjs';
import { measurePageSpeed, pageBytes, pageTargets, printPageSpeed } from './page-speed.mjs';
import { median, percent, targetLine, times } from './targets.mjs';
import { growPageTargets, measureGrowPage, printGrowPage } from './grow-page.mjs';
import { growTargets, measureGrowSpeed, printGrowSpeed } from './grow-speed.mjs';
import { measureTrainingSpeed, printTrainingSpeed, trainingTargets } from './train-speed.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outputDir = join(root, 'build/bench');
const nativeBench = join(outputDir, 'native/native_bench');

function parseArguments(argv) {
  const options = { lengths: LENGTHS, runs: 3, native: true, browser: true };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--lengths') options.lengths = argv[++i].split(',').map(Number);
    else if (argv[i] === '--runs') options.runs = Number(argv[++i]);
    else if (argv[i] === '--no-native') options.native = false;
    else if (argv[i] === '--no-browser') options.browser = false;
    else throw new Error(`unknown argument ${argv[i]}; see the usage line in bench/run.mjs`);
  }
  return options;
}

// ---- native ----

function runNativeBench(lengths) {
  const run = spawnSync(nativeBench, [join(outputDir, 'out'), ...lengths.map(String)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (run.status !== 0)
    throw new Error(`${nativeBench} failed (exit ${run.status}); did scripts/bench.sh build it?`);
  return JSON.parse(run.stdout);
}

async function onnxRuntimeNode(T, causal) {
  const session = await ort.InferenceSession.create(
    attentionModel({ d: WIDTH, causal, scale: 1 / Math.sqrt(WIDTH) }),
    {
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
    },
  );
  const { q, k, v } = makeInputs(T);
  const shape = [1, 1, T, WIDTH];
  const run = async () => {
    const feeds = {
      Q: new ort.Tensor('float32', q, shape),
      K: new ort.Tensor('float32', k, shape),
      V: new ort.Tensor('float32', v, shape),
    };
    return (await session.run(feeds)).Y.data;
  };
  const output = await run();
  const ms = await medianMsPerCall(run, { budgetMs: 1500 });
  await session.release();
  return { output, ms };
}

// One length at a time, ours then ONNX Runtime: on a shared machine the speed of the core drifts
// by 20% over minutes, so each ratio compares timings taken seconds apart, not a minute apart.
async function nativeResults(lengths) {
  const rows = [];
  let peakGflops = 0;
  let lanes = 0;
  for (const T of lengths) {
    console.error(
      `native: T=${T}: fast path, formula and peak (native_bench), then onnxruntime-node ...`,
    );
    const native = runNativeBench([T]);
    peakGflops = Math.max(peakGflops, native.peakGflops);
    lanes = native.lanes;
    for (const r of native.results) {
      const ours = new Float32Array(readFileSync(r.output).buffer.slice(0));
      const peer = await onnxRuntimeNode(r.T, r.causal);
      const common = { T: r.T, causal: r.causal, flops: flopCount(r.T, WIDTH, r.causal) };
      rows.push({ ...common, name: 'ours (fast path)', ms: r.fusedMs, maxDiff: 0 });
      rows.push({ ...common, name: 'ours (formula)', ms: r.formulaMs, maxDiff: r.formulaDiff });
      rows.push({
        ...common,
        name: 'onnxruntime-node (CPU, 1 thread)',
        ms: peer.ms,
        maxDiff: maxAbsDifference(peer.output, ours),
      });
    }
  }
  return { peakGflops, lanes, rows };
}

// ---- browser ----

// The page's rows with the kernel's: "ours" named after the kernel attention-core.js chose, the
// simd128 fallback right after it, and the peak that kernel is held to (relaxed SIMD's when it
// runs, simd128's otherwise).
function withKernelRows(result, kernel) {
  const rows = [];
  for (const row of result.results) {
    const isOurs = row.name.startsWith('ours (');
    rows.push(isOurs ? { ...row, name: `ours (wasm, ${kernel.kernel})` } : row);
    if (isOurs) rows.push(...kernel.rows.filter((r) => r.T === row.T && r.causal === row.causal));
  }
  const relaxed = kernel.kernel === 'relaxed-simd' && kernel.relaxedPeakGflops;
  return {
    results: rows,
    peakGflops: relaxed ? kernel.relaxedPeakGflops : result.peakGflops,
    simd128PeakGflops: result.peakGflops,
    relaxedPeakGflops: kernel.relaxedPeakGflops,
    kernel: kernel.kernel,
  };
}

async function browserResults(lengths) {
  // The repository root, but only build/ (our wasm) and bench/ (this page and the peers).
  const server = await serve(root, 0, { only: ['/build/', '/bench/'] });
  const profile = mkdtempSync(join(tmpdir(), 'attention-bench-chromium-'));
  const browser = await launchChromiumWithProfile(profile);
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    page.on('console', (message) => {
      if (message.type() === 'error') console.error(`page: ${message.text()}`);
    });
    page.on('pageerror', (error) => console.error(`page: ${error.message}`));
    page.on('requestfailed', (request) => console.error(`page: cannot load ${request.url()}`));
    page.on('response', (response) => {
      if (response.status() >= 400)
        console.error(`page: ${response.status()} for ${response.url()}`);
    });
    await page.goto(`http://127.0.0.1:${server.address().port}/bench/page/index.html`);
    await page.waitForFunction(() => window.benchmarkReady === true, null, { timeout: 60_000 });
    console.error('browser: running (ours, onnxruntime-web, tfjs, plain JavaScript) ...');
    const options = { lengths, d: WIDTH, budgetMs: 1500 };
    const result = await page.evaluate((o) => window.benchmark(o), options);
    console.error('browser: the kernel rows (relaxed-SIMD peak, simd128 fallback) ...');
    const kernel = await page.evaluate(
      (o) => import('/bench/kernel-page.mjs').then((module) => module.kernelRows(o)),
      options,
    );
    return {
      ...withKernelRows(result, kernel),
      browserVersion: browser.browser()?.version() ?? '',
    };
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
    server.close();
  }
}

// ---- the table ----

const pad = (text, width) => String(text).padEnd(width);
const padLeft = (text, width) => String(text).padStart(width);

function formatTable(sections) {
  const header = [
    'where',
    'implementation',
    'T',
    'mask',
    'ms/call',
    'GFLOP/s',
    '% peak',
    'ours ×',
    'max|diff|',
  ];
  const widths = [9, 33, 5, 7, 10, 8, 7, 8, 9];
  const line = (cells) =>
    cells
      .map((cell, i) => (i < 2 ? pad(cell, widths[i]) : padLeft(cell, widths[i])))
      .join('  ')
      .trimEnd();
  const lines = [line(header), line(widths.map((w) => '-'.repeat(w)))];
  for (const section of sections) {
    for (const row of section.rows) {
      const ours = section.rows.find(
        (r) => r.T === row.T && r.causal === row.causal && r.name.startsWith('ours ('),
      );
      const isOurs = row === ours;
      if (row.failed) {
        const failure =
          row.failed.length > 90
            ? `${row.failed.slice(0, 40)} … ${row.failed.slice(-45)}`
            : row.failed;
        lines.push(
          `${line([section.where, row.name, row.T, row.causal ? 'causal' : 'none'])}  failed: ${failure}`,
        );
        continue;
      }
      const gflops = row.flops / row.ms / 1e6;
      lines.push(
        line([
          section.where,
          row.name,
          row.T,
          row.causal ? 'causal' : 'none',
          row.ms < 1 ? row.ms.toFixed(4) : row.ms.toFixed(2),
          gflops.toFixed(1),
          `${((100 * gflops) / section.peakGflops).toFixed(0)}%`,
          isOurs ? '' : `${(row.ms / ours.ms).toFixed(2)}×`,
          isOurs ? '' : row.maxDiff.toExponential(1),
        ]),
      );
    }
  }
  return lines.join('\n');
}

// The kernel targets at T = 1024: each ratio (or share of the peak) is taken within one run,
// then the median over the runs is held to the target.
const KERNEL_TARGETS = [
  { where: 'chromium', peer: 'onnxruntime-web', causal: false, wanted: 1.5 },
  { where: 'chromium', peer: 'tfjs', causal: false, wanted: 1.5 },
  { where: 'chromium', peer: 'onnxruntime-web', causal: true, wanted: 3 },
  { where: 'chromium', peer: 'tfjs', causal: true, wanted: 3 },
  { where: 'chromium', share: 'relaxed-SIMD', causal: false, wanted: 0.7 },
  { where: 'native', peer: 'onnxruntime-node', causal: false, wanted: 1.1 },
  { where: 'native', peer: 'onnxruntime-node', causal: true, wanted: 2.2 },
];

// One run's measure for a target, or null when it was not measured.
function measureTarget(sections, { where, peer, share, causal }) {
  const section = sections.find((s) => s.where === where);
  const at = (name) =>
    section?.rows.find((r) => r.T === 1024 && r.causal === causal && r.name.startsWith(name));
  const ours = at('ours (');
  if (!ours?.ms) return null;
  if (share) {
    if (!section.relaxedPeakGflops || section.kernel !== 'relaxed-simd') return null;
    return ours.flops / ours.ms / 1e6 / section.relaxedPeakGflops;
  }
  const other = at(peer);
  return other?.ms ? other.ms / ours.ms : null;
}

function kernelTargets(runs, options) {
  return KERNEL_TARGETS.map((target) => {
    const mask = target.causal ? 'causal' : 'no mask';
    const what = target.share
      ? `${target.where} kernel, T = 1024, ${mask}: ours' share of the measured ${target.share} peak`
      : `${target.where} kernel, T = 1024, ${mask}: ours ÷ ${target.peer}`;
    const skipped = target.where === 'native' ? !options.native : !options.browser;
    return {
      what,
      wanted: target.wanted,
      show: target.share ? percent : times(2),
      values: runs.map((run) => measureTarget(run, target)).filter((x) => x !== null),
      missing: skipped
        ? `not measured: --no-${target.where === 'native' ? 'native' : 'browser'}`
        : 'not measured: the T = 1024 rows are missing (--lengths without 1024, or the run failed)',
    };
  });
}

// The peak a section's "% peak" is taken against, and the others measured beside it.
function peakLine(section) {
  const base = `${section.where}: measured single-core peak ${section.peakGflops.toFixed(1)} GFLOP/s`;
  if (section.where !== 'chromium') return `${base} (${section.note})`;
  const relaxed = section.relaxedPeakGflops
    ? `relaxed-SIMD f32x4.relaxed_madd ${section.relaxedPeakGflops.toFixed(1)}`
    : 'relaxed SIMD not available';
  return (
    `${base} (Chromium ${section.note}; ours runs the ${section.kernel} kernel; ` +
    `peaks: ${relaxed}, simd128 multiply + add ${section.simd128PeakGflops.toFixed(1)} GFLOP/s)`
  );
}

// What ran: the CPU, and the version of every peer, for the record in docs/benchmarks.md.
function machineLine() {
  const cpu =
    readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.*)/)?.[1] ?? 'unknown CPU';
  const version = (name) =>
    JSON.parse(readFileSync(join(root, 'bench/node_modules', name, 'package.json'), 'utf8'))
      .version;
  const peers = ['onnxruntime-node', 'onnxruntime-web', '@tensorflow/tfjs-backend-wasm'].map(
    (name) => `${name} ${version(name)}`,
  );
  return `${cpu}; node ${process.versions.node}; ${peers.join(', ')}`;
}

async function runOnce(options) {
  const sections = [];
  if (options.native) {
    const native = await nativeResults(options.lengths);
    sections.push({
      where: 'native',
      peakGflops: native.peakGflops,
      rows: native.rows,
      note: `${native.lanes}-lane FMA`,
    });
  }
  if (options.browser) {
    const browser = await browserResults(options.lengths);
    sections.push({
      where: 'chromium',
      peakGflops: browser.peakGflops,
      simd128PeakGflops: browser.simd128PeakGflops,
      relaxedPeakGflops: browser.relaxedPeakGflops,
      kernel: browser.kernel,
      rows: browser.results,
      note: browser.browserVersion,
    });
  }
  return sections;
}

function medianPeaks(sections) {
  const peaks = {};
  for (const key of ['peakGflops', 'simd128PeakGflops', 'relaxedPeakGflops'])
    if (sections[0][key]) peaks[key] = median(sections.map((section) => section[key]));
  return peaks;
}

// Cell by cell: the median time and peak over the runs, the largest difference seen.
function mergeRuns(runs) {
  return runs[0].map((section, s) => ({
    ...section,
    ...medianPeaks(runs.map((run) => run[s])),
    rows: section.rows.map((row, r) => {
      const timed = runs.map((run) => run[s].rows[r]).filter((x) => !x.failed);
      if (timed.length === 0) return row;
      return {
        ...row,
        failed: undefined,
        ms: median(timed.map((x) => x.ms)),
        maxDiff: Math.max(...timed.map((x) => x.maxDiff)),
      };
    }),
  }));
}

const options = parseArguments(process.argv.slice(2));
const loadAtStart = loadavg().map((x) => x.toFixed(2));
mkdirSync(join(outputDir, 'out'), { recursive: true });
const runs = [];
for (let run = 1; run <= options.runs; run++) {
  if (options.runs > 1) console.error(`run ${run} of ${options.runs}`);
  runs.push(await runOnce(options));
}
const sections = mergeRuns(runs);
writeFileSync(
  join(outputDir, 'results.json'),
  JSON.stringify({ date: new Date().toISOString(), machine: machineLine(), sections }, null, 2),
);

console.log(machineLine());
console.log(
  `load average (1, 5, 15 min) at the start: ${loadAtStart.join(' ')}, after the kernel runs: ` +
    `${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')} on ${availableParallelism()} cores`,
);
console.log(
  `d = ${WIDTH}; ms per call is the median of batches of >= 25 ms${options.runs > 1 ? `, then the median over ${options.runs} runs` : ''};`,
);
console.log('GFLOP/s counts 4·T²·d (no mask) or 2·T·(T+1)·d (causal: only the visible pairs);');
console.log(
  '"ours ×" is how many times faster ours is than that row; max|diff| is against our output.',
);
for (const section of sections) console.log(peakLine(section));
console.log(formatTable(sections));

// The training rows: PyTorch (OpenBLAS and reference BLAS), the native trainer and the wasm
// trainer in Chromium per step, and 300 steps in Chromium (bench/train-speed.mjs), one round per
// run.
const targets = kernelTargets(runs, options);
if (options.browser) {
  const training = await measureTrainingSpeed({ rounds: options.runs });
  printTrainingSpeed(training);
  targets.push(...trainingTargets(training));
}

// The copying head's training step: native reference and fast path against PyTorch
// (bench/grow-speed.mjs), one round per run.
if (options.native) {
  const grow = measureGrowSpeed({ rounds: options.runs });
  printGrowSpeed(grow);
  targets.push(...growTargets(grow));
}

// Section 9's "Grow it yourself" in Chromium: click → head formed, and the longest main-thread
// task meanwhile (bench/grow-page.mjs), one page run per run.
if (options.browser) {
  const grown = await measureGrowPage({ runs: options.runs });
  printGrowPage(grown);
  targets.push(...growPageTargets(grown));
}

// How the page itself feels (bench/page-speed.mjs), one page run per run, and the tutorial's
// whole run natively against its quoted ~20 s.
if (options.browser) {
  const page = await measurePageSpeed({ runs: options.runs });
  const files = pageBytes();
  printPageSpeed(page, files);
  targets.push(...pageTargets(page, files));
}
const tutorial = spawnSync(
  join(root, 'build/native/attention-tutorial'),
  ['--csv', join(outputDir, 'results.csv')],
  { encoding: 'utf8' },
);
const took = /took ([\d.]+) ms/.exec(tutorial.stdout || '');
console.log(
  `\nThe tutorial's whole run natively (check + map + scale demo + CSV): ${took ? `${took[1]} ms` : 'failed'} ` +
    '(its PyTorch script: about 20 s)',
);

console.log(
  `\nTargets: the median over ${options.runs} run${options.runs > 1 ? 's' : ''}, each run's value ` +
    `taken within that run; load average now ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')} ` +
    `on ${availableParallelism()} cores`,
);
for (const target of targets) console.log(targetLine(target));
