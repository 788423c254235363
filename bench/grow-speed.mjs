// grow-speed.mjs: the two-layer copying-head model's training step, at the recipe of the saved head
// (web/assets/copying-head.json: its width, context, batch and repeats), timed three ways within
// each round: the native reference path and fast path (attention-grow --time, one process, the
// two alternately) and PyTorch on one thread with OpenBLAS (bench/grow_speed.py, the model of
// tests/fixtures/make_layered_fixtures.py), and the page's wasm step in Node with relaxed SIMD
// (bench/grow-wasm.mjs, after npm run build). Each ratio is PyTorch's ms/step over ours, per round,
// in thread CPU time (the wall clock beside it).
//
// Run alone (`node bench/grow-speed.mjs [--rounds N] [--steps N]`) after
// `bash scripts/build-native.sh native`, or as part of bench/run.mjs. Without Debian's
// python3-torch and libopenblas0-serial the PyTorch row and the ratios say "not measured".
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, missingReason, targetLine, times } from './targets.mjs';
import { TORCH_PEERS } from './train-speed.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PYTHON = '/usr/bin/python3';
const load = () => loadavg().map((x) => x.toFixed(2));

function parseArguments(argv) {
  const options = { rounds: 3, steps: 200 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--rounds') options.rounds = Number(argv[++i]);
    else if (argv[i] === '--steps') options.steps = Number(argv[++i]);
    else throw new Error(`unknown argument ${argv[i]}; see the top of bench/grow-speed.mjs`);
  }
  return options;
}

// The saved head's shape and batches: what a reader's browser would grow.
export function savedRecipe() {
  const saved = JSON.parse(readFileSync(join(root, 'web/assets/copying-head.json'), 'utf8'));
  const { d, context } = saved.config;
  const { batch, repeatedWindows, randomWindows = 0 } = saved.training;
  return { d, context, batch, repeated: repeatedWindows, random: randomWindows };
}

const recipeSpec = (r) =>
  `d=${r.d},context=${r.context},batch=${r.batch},repeated=${r.repeated},random=${r.random}`;

// One process of attention-grow --time: { reference, fast }, each { wallMsPerStep, cpuMsPerStep }.
function nativeRound(recipe, steps) {
  const run = spawnSync(
    join(root, 'build/native/attention-grow'),
    ['--time', String(steps), '--json', '--recipe', recipeSpec(recipe)],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  if (run.status !== 0)
    throw new Error('build/native/attention-grow failed; run bash scripts/build-native.sh native');
  const { rounds } = JSON.parse(run.stdout);
  return { reference: rounds.reference[0], fast: rounds.fast[0] };
}

// One process of Node with relaxed SIMD on, timing the page's wasm growth step (grow-wasm.mjs).
function wasmRound(steps) {
  const run = spawnSync(
    process.execPath,
    ['--experimental-wasm-relaxed-simd', join(root, 'bench/grow-wasm.mjs'), String(steps)],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  if (run.status !== 0) return { missing: 'bench/grow-wasm.mjs failed; run npm run build' };
  return JSON.parse(run.stdout);
}

// One process of PyTorch with OpenBLAS: ms/step (wall and CPU) and the BLAS it loaded.
function torchRound(recipe, steps, folder) {
  const args = ['d', 'context', 'batch', 'repeated', 'random'].flatMap((key) => [
    `--${key}`,
    String(recipe[key]),
  ]);
  const run = spawnSync(
    PYTHON,
    [join(root, 'bench/grow_speed.py'), ...args, '--steps', String(steps), '--json'],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        LD_LIBRARY_PATH: [folder, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
      },
    },
  );
  if (run.status !== 0) throw new Error(`bench/grow_speed.py failed (exit ${run.status})`);
  const result = JSON.parse(run.stdout);
  return {
    wallMsPerStep: result.torchMsPerStep[0],
    cpuMsPerStep: result.torchCpuMsPerStep[0],
    version: result.torch,
    blas: result.blas,
  };
}

// rounds of: PyTorch and native, in alternating order (PyTorch first in odd rounds).
export function measureGrowSpeed({ rounds = 3, steps = 200 } = {}) {
  const recipe = savedRecipe();
  const openblas = TORCH_PEERS.find((peer) => peer.key === 'openblas');
  const folder = openblas.folder();
  const torch = spawnSync(PYTHON, ['-c', 'import torch'], { stdio: 'ignore' }).status === 0;
  const result = { recipe, steps, loadBefore: load(), rounds: [] };
  for (let round = 1; round <= rounds; round++) {
    console.error(
      `grow speed: round ${round} of ${rounds}: native reference and fast, wasm, PyTorch (OpenBLAS) ...`,
    );
    const entry = { load: load() };
    const runTorch = () => {
      if (!torch) entry.torch = { missing: 'python3-torch is not installed' };
      else if (!folder) entry.torch = { missing: `${openblas.install} is not installed` };
      else entry.torch = torchRound(recipe, steps, folder);
    };
    if (round % 2) runTorch();
    Object.assign(entry, nativeRound(recipe, steps));
    entry.wasm = wasmRound(steps);
    if (!(round % 2)) runTorch();
    result.rounds.push(entry);
  }
  result.loadAfter = load();
  return result;
}

const usableTorch = (round) => (round.torch?.blas?.name === 'OpenBLAS' ? round.torch : null);
const list = (values) => values.map((v) => v.toFixed(2)).join(', ');

function torchMissing(result) {
  return (
    missingReason(result.rounds, (r) => {
      if (r.torch?.missing) return `not measured: ${r.torch.missing}`;
      if (r.torch && !usableTorch(r))
        return `not measured: the process meant for OpenBLAS loaded ${r.torch.blas?.name}`;
      return undefined;
    }) ?? 'not measured'
  );
}

export function printGrowSpeed(result) {
  const { rounds, recipe } = result;
  console.log(
    `\nGrowing the copying head: one training step of the saved head's recipe (d = ${recipe.d}, ` +
      `T = ${recipe.context}, batch ${recipe.batch}, ${recipe.repeated} repeated of which ${recipe.random} random), ` +
      `steps 6–${result.steps + 5}, one thread; ${rounds.length} round${rounds.length > 1 ? 's' : ''}, peers alternated; medians over the rounds`,
  );
  console.log(
    `  load average (1, 5, 15 min): before ${result.loadBefore.join(' ')}, after ${result.loadAfter.join(' ')}`,
  );
  const row = (name, entries) =>
    console.log(
      `  ${name.padEnd(44)} ${median(entries.map((e) => e.wallMsPerStep))
        .toFixed(2)
        .padStart(7)} ms/step  (rounds: ${list(entries.map((e) => e.wallMsPerStep))}; ` +
        `CPU ${median(entries.map((e) => e.cpuMsPerStep)).toFixed(2)} ms/step)`,
    );
  row(
    'native, reference path (attention-grow)',
    rounds.map((r) => r.reference),
  );
  row(
    'native, fast path (attention-grow)',
    rounds.map((r) => r.fast),
  );
  const wasm = rounds.map((r) => r.wasm).filter((w) => w && !w.missing);
  if (wasm.length) {
    row(`wasm, the page's module in Node (${wasm[0].kernel})`, wasm);
    const ratios = rounds
      .filter((r) => r.wasm && !r.wasm.missing)
      .map((r) => r.wasm.cpuMsPerStep / r.reference.cpuMsPerStep);
    console.log(`  (wasm / native reference path per step, CPU: ${median(ratios).toFixed(2)}×)`);
  } else console.log(`  ${'wasm (the page’s module in Node)'.padEnd(44)} not measured`);
  const torch = rounds.map(usableTorch).filter(Boolean);
  if (torch.length) row(`PyTorch ${torch[0].version} (CPU, 1 thread, OpenBLAS)`, torch);
  else console.log(`  ${'PyTorch (CPU, 1 thread, OpenBLAS)'.padEnd(44)} ${torchMissing(result)}`);
}

// The target compares thread CPU times: every peer runs on one thread, and on a shared machine the
// wall clock also counts the turns other programs take. The wall-clock ratio is printed beside it.
export function growTargets(result) {
  const ratios = (path, clock) =>
    result.rounds.filter(usableTorch).map((r) => usableTorch(r)[clock] / r[path][clock]);
  const reference = ratios('reference', 'cpuMsPerStep');
  const wasm = result.rounds
    .filter((r) => usableTorch(r) && r.wasm && !r.wasm.missing)
    .map((r) => usableTorch(r).cpuMsPerStep / r.wasm.cpuMsPerStep);
  const wall = ratios('fast', 'wallMsPerStep');
  return [
    {
      what: 'per step of the copying head (thread CPU time), native fast path ÷ PyTorch (1 thread, OpenBLAS)',
      wanted: 2,
      show: times(2),
      values: ratios('fast', 'cpuMsPerStep'),
      missing: torchMissing(result),
      beside: reference.length
        ? `the reference path ${times(2)(median(reference))} (runs: ${reference.map(times(2)).join(', ')}); ` +
          `by the wall clock the fast path ${times(2)(median(wall))}`
        : undefined,
    },
    {
      what: 'per step of the copying head (CPU time), the page’s wasm ÷ PyTorch (1 thread, OpenBLAS)',
      wanted: 1,
      show: times(2),
      values: wasm,
      missing: torchMissing(result),
    },
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = measureGrowSpeed(parseArguments(process.argv.slice(2)));
  printGrowSpeed(result);
  for (const target of growTargets(result)) console.log(targetLine(target));
}
