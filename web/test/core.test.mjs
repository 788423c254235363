// The wasm build of the core, loaded in Node, against the same PyTorch fixtures as the native
// Catch2 tests: the bindings must not lose precision or change a draw on the way to JS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { wrap } from '../src/core.js';

const require = createRequire(import.meta.url);
const root = new URL('../../', import.meta.url);
const fixture = (name) => JSON.parse(readFileSync(new URL(`tests/fixtures/${name}`, root), 'utf8'));
const core = wrap(await require('../../build/wasm/attention-core.js')());

function maxDifference(a, b) {
  assert.equal(a.length, b.length, 'lengths differ');
  let largest = 0;
  for (let i = 0; i < a.length; i++) largest = Math.max(largest, Math.abs(a[i] - b[i]));
  return largest;
}

test('randn equals torch.randn for every seed and shape, draw after draw', () => {
  for (const { seed, draws } of fixture('randn.json').cases) {
    const mine = core.randnSequence(
      seed,
      draws.map((draw) => draw.values.length),
    );
    draws.forEach((draw, i) => {
      assert.ok(
        maxDifference(mine[i], draw.values) <= 1e-6,
        `seed ${seed}, draw ${i}, shape ${draw.shape}`,
      );
    });
  }
});

test('the equivalence check matches PyTorch for both mask settings', () => {
  const expected = fixture('equivalence.json');
  for (const causal of [false, true]) {
    const result = core.equivalence(
      causal,
      expected[causal ? 'torch_out_causal_true' : 'torch_out_causal_false'],
    );
    assert.ok(result.ok, result.line);
    assert.ok(result.formulaVsTorch < 2e-6, result.line);
    assert.match(
      result.line,
      causal
        ? /^causal=True {3}max\|mine - torch\| = \d\.\d\de-0\d {2}OK$/
        : /^causal=False {2}max\|mine - torch\| = /,
    );
  }
});

test('the attention map equals PyTorch for every fixture text, seed and width', () => {
  for (const c of fixture('attention_map.json').cases) {
    const result = core.attentionMap({ text: c.text, d: c.d, seed: c.seed, causal: c.causal });
    assert.equal(result.T, c.T);
    const tolerance = 1e-6 * Math.max(1, c.d / 32); // see tests/test_scenarios.cpp
    assert.ok(
      maxDifference(result.weights, c.weights) < tolerance,
      `${c.text} seed ${c.seed} d ${c.d}`,
    );
  }
});

test('the scale demo reproduces the tutorial (0.88 unscaled, 0.11 scaled at d = 256)', () => {
  const expected = fixture('scale_demo.json');
  const study = core.scaleStudy({ widths: expected.widths });
  assert.ok(maxDifference(study.none.peakMean, expected.peak_unscaled) < 1e-4);
  assert.ok(maxDifference(study.sqrt.peakMean, expected.peak_scaled) < 1e-4);
  assert.ok(maxDifference(study.d.peakMean, expected.peak_inverse_d) < 1e-4);
  assert.equal(study.none.peakMean.at(-1).toFixed(2), '0.88');
  assert.equal(study.sqrt.peakMean.at(-1).toFixed(2), '0.11');
});

test('fused and formula agree through the bindings, and results are copies', () => {
  const T = 70,
    d = 16;
  const q = core.randn(3, T * d),
    k = core.randn(4, T * d),
    v = core.randn(5, T * d);
  const head = core.formula({ q, k, v, T, d, causal: true });
  const output = core.fused({ q, k, v, T, d, causal: true });
  assert.ok(maxDifference(output, head.output) < 1e-5);
  // A later, larger call may grow wasm memory; the earlier arrays must stay intact.
  const saved = Array.from(head.weights.slice(0, 10));
  core.formula({
    q: core.randn(6, 1024 * 64),
    k: core.randn(7, 1024 * 64),
    v: core.randn(8, 1024 * 64),
    T: 1024,
    d: 64,
  });
  assert.deepEqual(Array.from(head.weights.slice(0, 10)), saved);
});

test('bad input comes back as an Error carrying the core message, and the next call works', () => {
  const cases = [
    [() => core.attentionMap({ text: '' }), /text has no tokens/],
    [() => core.attentionMap({ text: 'abc', d: 0 }), /d = 0 is outside 1…1024/],
    [() => core.attentionMap({ text: 'abc', d: 2.5 }), /d must be a whole number/],
    [() => core.attentionMap({ text: 'abc', seed: -1 }), /seed = -1 is outside/],
    [() => core.attentionMap({ text: 'abc', scale: 0 }), /greater than 0/],
    [() => core.attentionMap({ text: 'abc', scale: 'cube' }), /not one of sqrt, d, none, custom/],
    [() => core.attentionMap({ text: 'x'.repeat(1025) }), /the map shows at most 1024/],
    [
      () =>
        core.formula({
          q: new Float32Array([1, NaN]),
          k: new Float32Array(2),
          v: new Float32Array(2),
          T: 2,
          d: 1,
        }),
      /q\[1\]\[0\] is NaN/,
    ],
    [
      () =>
        core.formula({
          q: new Float32Array(3),
          k: new Float32Array(2),
          v: new Float32Array(2),
          T: 2,
          d: 1,
        }),
      /q has 3 values/,
    ],
    [() => core.scaleStudy({ widths: [4096], T: 1024, draws: 10 }), /multiply-adds; the limit is/],
    [() => core.randn(1.5, 3), /seed must be a whole number/],
  ];
  for (const [call, message] of cases) {
    assert.throws(call, (error) => error instanceof Error && message.test(error.message));
  }
  assert.equal(core.attentionMap({ text: 'ok' }).T, 2);
});
