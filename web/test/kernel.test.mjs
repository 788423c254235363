// Both wasm kernels of fused() against a float64 reference written here: the relaxed-SIMD module
// (cpp/attention/kernel/relaxed_kernel.cpp, one fused multiply-add per f32x4.relaxed_madd) and the simd128
// kernel built into attention-core.js, which the module falls back to where relaxed SIMD does not
// validate. Node 20 runs relaxed SIMD only behind a flag, so the outputs come from a child node
// started with it (this same file, given --outputs), which loads the module twice: once as the
// page does, once with { relaxedSimd: false }.
//
// The bound. An FMA rounds a·b + c once where simd128 rounds the product and then the sum, so the
// two paths give different float32 outputs (neither is "the" answer) and each is compared with
// the exact float64 reference, not with the other. Both must stay within 1e-5·(1 + |reference|),
// the fast path's float32 tolerance in tests/attention/kernel/test_fused.cpp: each output is a weighted mean of
// values (|v| < 2 here) over d-term dot products and up to T-term sums. Measured on either path:
// 1e-7 to 5e-7 for unit-variance inputs with a scale, 3e-6 to 7.5e-6 for the last case, whose
// unscaled scores reach ±50 (a score's rounding error grows with its size, and the weights with
// it). The bound keeps a margin over those and still fails on any real defect (a lost tile, a
// wrong mask or scale is off by more than 1e-2).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { wrap } from '../src/core.js';

const require = createRequire(import.meta.url);
const RELAXED_FLAG = '--experimental-wasm-relaxed-simd';
const relaxedModuleFile = new URL(
  '../../build/wasm/relaxed-kernel/relaxed-kernel.wasm',
  import.meta.url,
);

// T not a multiple of any block, tile or vector width, d and dV from 1 to 100, both masks,
// every scale mode; the last case has scores large enough that most weights underflow.
const CASES = [
  { T: 1, d: 1, dV: 1, causal: false, scale: 'sqrt', spread: 1 },
  { T: 7, d: 3, dV: 5, causal: true, scale: 'sqrt', spread: 1 },
  { T: 65, d: 16, dV: 33, causal: false, scale: 'd', spread: 1 },
  { T: 130, d: 100, dV: 7, causal: true, scale: 'sqrt', spread: 1 },
  { T: 257, d: 64, dV: 64, causal: false, scale: 'sqrt', spread: 1 },
  { T: 300, d: 64, dV: 64, causal: true, scale: 'sqrt', spread: 1 },
  { T: 97, d: 8, dV: 8, causal: false, scale: 'none', spread: 2 },
];

// Uniform on [-spread·√3, spread·√3) from a seeded mulberry32, so parent and child agree.
function inputs({ T, d, dV, spread }, seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const draw = (n) =>
    Float32Array.from({ length: n }, () => (next() * 2 - 1) * spread * Math.sqrt(3));
  return { q: draw(T * d), k: draw(T * d), v: draw(T * dV) };
}

// softmax(q·kᵀ·scale)·v in float64, row by row: the exact answer the float32 paths round.
function referenceF64({ T, d, dV, causal, scale }, { q, k, v }) {
  const factor = { sqrt: 1 / Math.sqrt(d), d: 1 / d, none: 1 }[scale];
  const out = new Float64Array(T * dV);
  for (let i = 0; i < T; i++) {
    const visible = causal ? i + 1 : T;
    const scores = new Float64Array(visible);
    for (let j = 0; j < visible; j++) {
      let dot = 0;
      for (let c = 0; c < d; c++) dot += q[i * d + c] * k[j * d + c];
      scores[j] = dot * factor;
    }
    const max = Math.max(...scores);
    let sum = 0;
    for (let j = 0; j < visible; j++) sum += Math.exp(scores[j] - max);
    for (let j = 0; j < visible; j++) {
      const weight = Math.exp(scores[j] - max) / sum;
      for (let c = 0; c < dV; c++) out[i * dV + c] += weight * v[j * dV + c];
    }
  }
  return out;
}

// The child: every case on both kernels, as JSON on stdout.
async function printOutputs() {
  const factory = require('../../build/wasm/attention-core.js');
  const result = {};
  for (const [path, options] of [
    ['chosen', {}],
    ['simd128', { relaxedSimd: false }],
  ]) {
    const module = await factory(options);
    const core = wrap(module);
    result[path] = {
      kernel: module.simdKernel,
      outputs: CASES.map((c, i) =>
        Array.from(core.fused({ ...c, scale: { mode: c.scale }, ...inputs(c, i + 1) })),
      ),
    };
  }
  process.stdout.write(JSON.stringify(result));
}

function outputsWithRelaxedSimd() {
  const child = spawnSync(
    process.execPath,
    [RELAXED_FLAG, fileURLToPath(import.meta.url), '--outputs'],
    {
      encoding: 'utf8',
      maxBuffer: 64 << 20,
      timeout: 300_000, // a child that hangs fails this test
    },
  );
  assert.equal(child.status, 0, `child node failed: ${child.error?.message ?? child.stderr}`);
  return JSON.parse(child.stdout);
}

// The entry furthest outside (or least inside) the tolerance, and the largest difference.
function worstEntry(actual, expected) {
  let worst = { margin: -1 };
  let largest = 0;
  expected.forEach((reference, e) => {
    const difference = Math.abs(actual[e] - reference);
    largest = Math.max(largest, difference);
    const margin = difference / (1e-5 * (1 + Math.abs(reference)));
    if (margin > worst.margin) worst = { margin, e, actual: actual[e], reference };
  });
  return { ...worst, largest };
}

function checkAgainstReference(outputs, label) {
  CASES.forEach((c, i) => {
    const expected = referenceF64(c, inputs(c, i + 1));
    assert.equal(outputs[i].length, expected.length);
    const worst = worstEntry(outputs[i], expected);
    const where = `${label}, T=${c.T} d=${c.d} dV=${c.dV} ${c.causal ? 'causal' : 'no mask'} ${c.scale}`;
    console.log(`${where}: max |ours - float64| = ${worst.largest.toExponential(2)}`);
    assert.ok(
      worst.margin <= 1,
      `${where}: entry ${worst.e} is ${worst.actual}, float64 gives ${worst.reference}`,
    );
  });
}

if (process.argv.includes('--outputs')) {
  await printOutputs();
} else {
  const withFlag = outputsWithRelaxedSimd();

  test('where the engine runs relaxed SIMD, fused() uses the relaxed-SIMD module', () => {
    assert.equal(withFlag.chosen.kernel, 'relaxed-simd');
    assert.equal(withFlag.simd128.kernel, 'simd128');
  });

  test('the kernel is chosen by whether the engine validates the relaxed module', async () => {
    assert.ok(existsSync(relaxedModuleFile), 'scripts/build-wasm.sh builds the relaxed module');
    const validates = WebAssembly.validate(readFileSync(relaxedModuleFile));
    const module = await require('../../build/wasm/attention-core.js')();
    assert.equal(module.simdKernel, validates ? 'relaxed-simd' : 'simd128');
  });

  test('the relaxed-SIMD path stays within the float32 bound of the float64 reference', () => {
    checkAgainstReference(withFlag.chosen.outputs, 'relaxed SIMD');
  });

  test('the simd128 fallback stays within the float32 bound of the float64 reference', () => {
    checkAgainstReference(withFlag.simd128.outputs, 'simd128');
  });
}
