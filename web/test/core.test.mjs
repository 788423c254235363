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

// Bit for bit: the wasm build computes the draws' fused multiply-adds itself
// (cpp/tutorial/torch_random.cpp's multiply_add), and any rounding slip there shows as a last bit.
test('randn equals torch.randn bit for bit for every seed and shape, draw after draw', () => {
  for (const { seed, draws } of fixture('randn.json').cases) {
    const mine = core.randnSequence({ seed, counts: draws.map((draw) => draw.values.length) });
    draws.forEach((draw, i) => {
      const torch = Float32Array.from(draw.values);
      const differing = torch.findIndex((value, j) => !Object.is(value, mine[i][j]));
      assert.equal(
        differing,
        -1,
        `seed ${seed}, draw ${i}, shape ${draw.shape}: value ${differing}`,
      );
    });
  }
});

test('the equivalence check matches PyTorch for both mask settings', () => {
  const expected = fixture('equivalence.json');
  for (const causal of [false, true]) {
    const result = core.equivalence({
      causal,
      torchOutput: expected[causal ? 'torch_out_causal_true' : 'torch_out_causal_false'],
    });
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

test('the attention map equals PyTorch for every fixture text, seed, width, init and pos', () => {
  for (const c of fixture('attention_map.json').cases) {
    for (const detail of ['all', 'weights']) {
      const { text, d, seed, causal, init, pos } = c;
      const result = core.attentionMap({ text, d, seed, causal, init, pos, detail });
      const label = `${init}/${pos} ${text} seed ${seed} d ${d} causal ${causal} ${detail}`;
      assert.equal(result.T, c.T, label);
      assert.equal(result.init, init, label);
      assert.equal(result.pos, pos, label);
      const tolerance = 1e-6 * Math.max(1, d / 32); // see tests/tutorial/test_map.cpp
      assert.ok(maxDifference(result.weights, c.weights) < tolerance, label);
    }
  }
});

test('the map returns the working only with detail all, and the softmax terms always', () => {
  const all = core.attentionMap({ text: 'To be, or not', init: 'standard', pos: 'rope' });
  const light = core.attentionMap({
    text: 'To be, or not',
    init: 'standard',
    pos: 'rope',
    detail: 'weights',
  });
  for (const key of ['rawScores', 'scaledScores', 'maskedScores', 'output']) {
    assert.equal(all[key].length, key === 'output' ? 13 * 24 : 13 * 13, key);
    assert.equal(light[key], undefined, key);
  }
  assert.deepEqual(light.weights, all.weights);
  assert.equal(light.scaleFactor, 1 / Math.sqrt(24));
  // weight_ij = exp(masked_ij - rowMax_i) / rowSum_i, recomputed here from the masked scores.
  const { T, maskedScores, rowMax, rowSum, weights } = all;
  for (let i = 0; i < T; i++) {
    const row = maskedScores.subarray(i * T, (i + 1) * T);
    assert.equal(rowMax[i], Math.max(...row), `row ${i} max`);
    for (let j = 0; j < T; j++) {
      const weight = Math.exp(row[j] - rowMax[i]) / rowSum[i];
      assert.ok(Math.abs(weight - weights[i * T + j]) < 1e-6, `weight ${i},${j}`);
    }
  }
});

test('the first-rows map keeps the working of 16 queries; scoreOf gives any other cell', () => {
  const text = 'a longer sentence than sixteen tokens';
  const all = core.attentionMap({ text, init: 'standard', causal: false });
  const rows = core.attentionMap({ text, init: 'standard', causal: false, detail: 'first-rows' });
  const { T } = all;
  assert.equal(T, 37);
  assert.equal(all.workingRows, T);
  assert.equal(rows.workingRows, 16);
  assert.deepEqual(rows.weights, all.weights);
  for (const key of ['rawScores', 'scaledScores', 'maskedScores']) {
    assert.deepEqual(rows[key], all[key].subarray(0, 16 * T), key);
  }
  assert.deepEqual(rows.output, all.output.subarray(0, 16 * 24));
  const d = 24;
  for (const [i, j] of [
    [30, 5],
    [36, 36],
    [16, 0],
  ]) {
    const score = core.scoreOf({
      query: all.q.subarray(i * d, (i + 1) * d),
      key: all.k.subarray(j * d, (j + 1) * d),
      scale: { mode: 'custom', factor: all.scaleFactor },
    });
    assert.equal(score.raw, all.rawScores[i * T + j], `raw ${i},${j}`);
    assert.equal(score.scaled, all.scaledScores[i * T + j], `scaled ${i},${j}`);
  }
  assert.throws(
    () => core.scoreOf({ query: new Float32Array(3), key: new Float32Array(4) }),
    /one length/,
  );
  assert.throws(
    () => core.scoreOf({ query: new Float32Array([Number.NaN]), key: new Float32Array(1) }),
    /finite/,
  );
});

test('rope leaves the values alone and scores depend only on the distance', () => {
  const options = { text: 'a'.repeat(12), vectors: 'token', d: 8, scale: { mode: 'none' } };
  const plain = core.attentionMap(options);
  const rotated = core.attentionMap({ ...options, pos: 'rope', causal: false });
  assert.deepEqual(rotated.v, plain.v);
  const score = (m, n) => rotated.rawScores[m * 12 + n];
  assert.ok(Math.abs(score(1, 4) - score(6, 9)) < 1e-5);
  assert.ok(Math.abs(score(0, 0) - score(11, 11)) < 1e-5);
  assert.ok(Math.abs(score(0, 0) - score(0, 3)) > 1e-3);
});

test('scale is one { mode, factor } object for the map, the formula and the fused kernel', () => {
  const base = { text: 'To be, or not', init: 'standard' };
  assert.equal(core.attentionMap({ ...base, scale: { mode: 'd' } }).scaleFactor, 1 / 24);
  assert.equal(core.attentionMap({ ...base, scale: { mode: 'none' } }).scaleFactor, 1);
  assert.equal(
    core.attentionMap({ ...base, scale: { mode: 'custom', factor: 0.25 } }).scaleFactor,
    0.25,
  );
  const q = core.randn({ seed: 1, count: 8 }),
    k = core.randn({ seed: 2, count: 8 }),
    v = core.randn({ seed: 3, count: 8 });
  const scale = { mode: 'custom', factor: 2 };
  const head = core.formula({ q, k, v, T: 4, d: 2, scale });
  assert.equal(head.scaleFactor, 2);
  assert.ok(maxDifference(core.fused({ q, k, v, T: 4, d: 2, scale }), head.output) < 1e-6);
});

test('limits and the study budget come from the core', () => {
  const { limits } = core;
  assert.equal(limits.maxMapTokens, 1024);
  assert.equal(limits.maxMapWidth, 1024);
  assert.equal(limits.maxStudyMultiplyAdds, 4e9);
  assert.equal(limits.maxSeed, Number.MAX_SAFE_INTEGER);
  assert.equal(limits.minScaleFactor, 1e-30);
  // Σ T²·d·draws by hand: 64² · (4 + 8) · 3.
  assert.equal(core.studyMultiplyAdds({ widths: [4, 8], T: 64, draws: 3 }), 64 * 64 * 12 * 3);
  assert.throws(
    () => core.scaleStudy({ widths: [1024], T: 1024, draws: 4 }),
    /multiply-adds; the limit is/,
  );
  assert.ok(
    core.studyMultiplyAdds({ widths: [1024], T: 1024, draws: 4 }) > limits.maxStudyMultiplyAdds,
  );
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
  const q = core.randn({ seed: 3, count: T * d }),
    k = core.randn({ seed: 4, count: T * d }),
    v = core.randn({ seed: 5, count: T * d });
  const head = core.formula({ q, k, v, T, d, causal: true });
  const output = core.fused({ q, k, v, T, d, causal: true });
  assert.ok(maxDifference(output, head.output) < 1e-5);
  // A later, larger call may grow wasm memory; the earlier arrays must stay intact.
  const saved = Array.from(head.weights.slice(0, 10));
  core.formula({
    q: core.randn({ seed: 6, count: 1024 * 64 }),
    k: core.randn({ seed: 7, count: 1024 * 64 }),
    v: core.randn({ seed: 8, count: 1024 * 64 }),
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
    [
      () => core.attentionMap({ text: 'abc', scale: { mode: 'custom', factor: 0 } }),
      /greater than 0/,
    ],
    [() => core.attentionMap({ text: 'abc', scale: { mode: 'custom' } }), /greater than 0/],
    [
      () => core.attentionMap({ text: 'abc', scale: { mode: 'cube' } }),
      /not one of sqrt, d, none, custom/,
    ],
    [() => core.attentionMap({ text: 'abc', scale: 'sqrt' }), /scale must be an object/],
    [() => core.attentionMap({ text: 'abc', init: 'xavier' }), /init "xavier" is not one of/],
    [() => core.attentionMap({ text: 'abc', pos: 'alibi' }), /pos "alibi" is not one of/],
    [() => core.attentionMap({ text: 'abc', detail: 'some' }), /detail "some" is not one of/],
    [
      () => core.attentionMap({ text: 'abc', d: 5, pos: 'rope' }),
      /rope needs an even head width d .*d = 5 is odd/,
    ],
    [() => core.studyMultiplyAdds({ widths: [0] }), /width = 0 is outside/],
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
    [() => core.randn({ seed: 1.5, count: 3 }), /seed must be a whole number/],
  ];
  for (const [call, message] of cases) {
    assert.throws(call, (error) => error instanceof Error && message.test(error.message));
  }
  assert.equal(core.attentionMap({ text: 'ok' }).T, 2);
});

test('a refusal names the request field at fault, so the page shows it by that control', () => {
  const custom = (factor) => ({ mode: 'custom', factor });
  const cases = [
    // [call, field, message]
    [() => core.attentionMap({ text: '' }), 'text', /text has no tokens/],
    [() => core.attentionMap({ text: 'x'.repeat(1025) }), 'text', /the map shows at most 1024/],
    [() => core.attentionMap({ text: 42 }), 'text', /^text must be a string, not a number$/],
    [() => core.attentionMap({ text: 'abc', d: 0 }), 'd', /d = 0 is outside 1…1024/],
    [() => core.attentionMap({ text: 'abc', d: '24' }), 'd', /^d must be a number, not a string$/],
    [() => core.attentionMap({ text: 'abc', seed: 1.5 }), 'seed', /seed must be a whole number/],
    [() => core.attentionMap({ text: 'abc', causal: 1 }), 'causal', /^causal must be a boolean/],
    [() => core.attentionMap({ text: 'abc', tokens: 'bytes' }), 'tokens', /not one of chars/],
    [() => core.attentionMap({ text: 'abc', vectors: 'x' }), 'vectors', /not one of position/],
    [() => core.attentionMap({ text: 'abc', init: 'xavier' }), 'init', /init "xavier"/],
    [() => core.attentionMap({ text: 'abc', d: 5, pos: 'rope' }), 'pos', /even head width/],
    [() => core.attentionMap({ text: 'abc', detail: 'some' }), 'detail', /detail "some"/],
    [() => core.attentionMap({ text: 'abc', scale: custom(1e31) }), 'scale', /1e-30 to 1e30/],
    [() => core.attentionMap({ text: 'abc', scale: custom(0) }), 'scale', /greater than 0/],
    [() => core.attentionMap({ text: 'abc', scale: null }), 'scale', /must be an object/],
    [() => core.attentionMap({ text: 'abc', scale: {} }), 'scale', /^scale\.mode is missing/],
    [
      () => core.attentionMap({ text: 'abc', scale: custom('2') }),
      'scale',
      /^scale\.factor must be a number, not a string$/,
    ],
    [() => core.tokenCount({ text: ['a'] }), 'text', /^text must be a string, not an object$/],
    [() => core.mapMultiplyAdds({ T: 13 }), 'd', /^d is missing \(a number\)$/],
    [() => core.scoreOf({ query: new Float32Array(2), key: new Float32Array(3) }), 'key', /one/],
    [
      () => core.formula({ q: new Float32Array(3), k: new Float32Array(4), v: [], T: 2, d: 2 }),
      'q',
      /q has 3 values/,
    ],
    [
      () =>
        core.fused({
          ...{ q: new Float32Array(4), k: new Float32Array(4), v: new Float32Array(4) },
          ...{ T: 2, d: 2, scale: custom(-1) },
        }),
      'scale',
      /greater than 0/,
    ],
    [() => core.studyMultiplyAdds({ widths: [0] }), 'widths', /width = 0 is outside/],
    [() => core.scaleStudy({ widths: 8 }), 'widths', /widths must be an array/],
  ];
  for (const [call, field, message] of cases) {
    assert.throws(call, (error) => {
      assert.match(error.message, message);
      assert.equal(error.field, field, error.message);
      return true;
    });
  }
  // A refusal the core cannot pin on one field says so with a null field.
  assert.throws(
    () =>
      core.formula({
        q: new Float32Array([1, NaN]),
        k: new Float32Array(2),
        v: new Float32Array(2),
        T: 2,
        d: 1,
      }),
    (error) => error.field === null && /q\[1\]\[0\] is NaN/.test(error.message),
  );
});

test('a map’s cost comes from its token count and width, counted by the core', () => {
  assert.equal(core.tokenCount({ text: 'To be, or not' }), 13);
  assert.equal(core.tokenCount({ text: 'To be, or not', tokens: 'words' }), 5); // To be , or not
  assert.equal(core.tokenCount({ text: 'x'.repeat(2000) }), 2000);
  // map_multiply_adds by hand for T = 13, d = 24: 120 per draw of x, Wq, Wk; the projections;
  // q·kᵀ; 40 per weight; the output of the first 16 rows (all 13 here).
  const [T, d] = [13, 24];
  const expected = 120 * (T * d + 2 * d * d) + 2 * T * d * d + T * T * d + 40 * T * T + 16 * T * d;
  assert.equal(core.mapMultiplyAdds({ T, d }), expected);
  // A text the map will refuse (over 1024 tokens) is counted at the limit.
  assert.equal(core.mapMultiplyAdds({ T: 5000, d }), core.mapMultiplyAdds({ T: 1024, d }));
});

// The module carries its wasm deflated (cpp/wasm/embedded-wasm.js): where DecompressionStream is
// missing, starting it must fail with a sentence the page can show, not hang or crash.
test('a runtime that cannot unpack the wasm gets a sentence saying why', async () => {
  const kept = globalThis.DecompressionStream;
  delete globalThis.DecompressionStream;
  try {
    await assert.rejects(
      require('../../build/wasm/attention-core.js')(),
      /lacks DecompressionStream/,
    );
  } finally {
    globalThis.DecompressionStream = kept;
  }
});
