// The backward pass as the page and outside tests call it, wrapLearning(module).attentionBackward,
// against PyTorch autograd's float64 gradients (tests/fixtures/attention_backward.json).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadLearning } from './cores.mjs';

const root = new URL('../../', import.meta.url);
const fixture = (name) => JSON.parse(readFileSync(new URL(`tests/fixtures/${name}`, root), 'utf8'));
const core = await loadLearning();

// max |mine - reference| / max |reference|, as in tests/learning/test_backward.cpp.
function relativeDifference(mine, reference) {
  assert.equal(mine.length, reference.length, 'lengths differ');
  let difference = 0;
  let magnitude = 1e-30;
  for (let i = 0; i < mine.length; i++) {
    difference = Math.max(difference, Math.abs(mine[i] - reference[i]));
    magnitude = Math.max(magnitude, Math.abs(reference[i]));
  }
  return difference / magnitude;
}

function inputsOf(c) {
  return {
    q: Float32Array.from(c.q),
    k: Float32Array.from(c.k),
    v: Float32Array.from(c.v),
    T: c.T,
    d: c.d,
    dV: c.dV,
    scale: { mode: c.scale, factor: c.factor },
    causal: c.causal,
    gradOutput: Float32Array.from(c.gradOutput),
  };
}

test('attentionBackward matches PyTorch autograd for every shape, scale and mask', () => {
  const { cases } = fixture('attention_backward.json');
  assert.equal(cases.length, 15);
  for (const c of cases) {
    const gradients = core.attentionBackward(inputsOf(c));
    const label = `T=${c.T} d=${c.d} dV=${c.dV} ${c.scale} causal=${c.causal}`;
    for (const name of ['dq', 'dk', 'dv']) {
      assert.ok(gradients[name] instanceof Float32Array, `${name} is a Float32Array`);
      const difference = relativeDifference(gradients[name], c[`${name}64`]);
      assert.ok(difference < 1e-5, `${label}: ${name} differs by ${difference}`);
    }
  }
});

test('attentionBackward returns exactly dq, dk and dv', () => {
  const [first] = fixture('attention_backward.json').cases;
  assert.deepEqual(Object.keys(core.attentionBackward(inputsOf(first))).sort(), ['dk', 'dq', 'dv']);
});

test('attentionBackward throws the forward pass messages on bad input', () => {
  const [, , c] = fixture('attention_backward.json').cases;
  const good = inputsOf(c);
  const nan = Float32Array.from(good.q);
  nan[1] = Number.NaN;
  const cases = [
    [{ ...good, q: nan }, /q\[0\]\[1\] is NaN; attention needs finite inputs$/],
    [{ ...good, scale: { mode: 'custom', factor: 0 } }, /scale factor 0 must be a finite number/],
    [{ ...good, scale: { mode: 'half' } }, /scale "half" is not one of sqrt, d, none, custom/],
    [
      { ...good, gradOutput: new Float32Array(2) },
      /gradOutput has 2 values; shape \(2, 3\) needs 6$/,
    ],
    [{ ...good, T: 2.5 }, /q rows must be a whole number/],
  ];
  for (const [input, message] of cases) assert.throws(() => core.attentionBackward(input), message);
});

// ---- The copying head (copyingHeadMap), against the rule recounted here ----------------------

const saved = JSON.parse(readFileSync(new URL('web/assets/copying-head.json', root), 'utf8'));

// The saved weights, decoded here from float16 (IEEE binary16, little-endian) rather than by the
// page's decoder: { name: Float64Array } in the file's tensor order.
function savedTensors() {
  const bytes = Buffer.from(saved.float16, 'base64');
  const half = (h) => {
    const sign = h & 0x8000 ? -1 : 1;
    const exponent = (h >> 10) & 0x1f;
    const fraction = h & 0x3ff;
    if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
    return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
  };
  const tensors = {};
  let at = 0;
  for (const { name, rows, cols } of saved.tensors) {
    tensors[name] = Float64Array.from({ length: rows * cols }, (_, e) =>
      half(bytes.readUInt16LE(2 * (at + e))),
    );
    at += rows * cols;
  }
  return tensors;
}

// h (T, d) · W (d, d) in float64.
function times(h, W, T, d) {
  const out = new Float64Array(T * d);
  for (let i = 0; i < T; i++)
    for (let p = 0; p < d; p++)
      for (let j = 0; j < d; j++) out[i * d + j] += h[i * d + p] * W[p * d + j];
  return out;
}

// Pre-LN of each row, eps 1e-5 (PyTorch's default), in float64.
function layerNorm(x, gain, bias, T, d) {
  const out = new Float64Array(T * d);
  for (let i = 0; i < T; i++) {
    const row = x.subarray(i * d, (i + 1) * d);
    const mean = row.reduce((a, b) => a + b, 0) / d;
    const variance = row.reduce((a, b) => a + (b - mean) ** 2, 0) / d;
    for (let c = 0; c < d; c++)
      out[i * d + c] = ((row[c] - mean) / Math.sqrt(variance + 1e-5)) * gain[c] + bias[c];
  }
  return out;
}

// One layer: the causal softmax(q·kᵀ/√d) weights (T, T) and the stream after the layer.
function layer(x, t, l, T, d) {
  const h = layerNorm(x, t[`layer${l}.norm_gain`], t[`layer${l}.norm_bias`], T, d);
  const [q, k, v] = ['query', 'key', 'value'].map((part) => times(h, t[`layer${l}.${part}`], T, d));
  const weights = new Float64Array(T * T);
  const heads = new Float64Array(T * d);
  for (let i = 0; i < T; i++) {
    const scores = Array.from({ length: i + 1 }, (_, j) => {
      let dot = 0;
      for (let c = 0; c < d; c++) dot += q[i * d + c] * k[j * d + c];
      return dot / Math.sqrt(d);
    });
    const top = Math.max(...scores);
    const exps = scores.map((s) => Math.exp(s - top));
    const sum = exps.reduce((a, b) => a + b, 0);
    for (let j = 0; j <= i; j++) {
      weights[i * T + j] = exps[j] / sum;
      for (let c = 0; c < d; c++) heads[i * d + c] += weights[i * T + j] * v[j * d + c];
    }
  }
  const out = times(heads, t[`layer${l}.output`], T, d);
  for (let e = 0; e < out.length; e++) out[e] += x[e];
  return { weights, out };
}

// Both layers' weights for text, by the model of cpp/learning/layered/layered_model.hpp.
function float64Maps(text) {
  const t = savedTensors();
  const { d } = saved.config;
  const ids = [...text].map((c) => saved.vocabulary.indexOf(c));
  const T = ids.length;
  let x = new Float64Array(T * d);
  ids.forEach((id, i) => {
    for (let c = 0; c < d; c++) x[i * d + c] = t.embedding[id * d + c] + t.position[i * d + c];
  });
  const maps = [];
  for (let l = 1; l <= saved.config.layers; l++) {
    const { weights, out } = layer(x, t, l, T, d);
    maps.push(weights);
    x = out;
  }
  return maps;
}

test('copyingHeadMap draws the weights a float64 forward of the saved JSON gives, both layers', () => {
  const text = 'the cat sat on the mat. the cat sat on the mat.';
  const maps = float64Maps(text);
  for (const layer of [1, 2]) {
    const map = core.copyingHeadMap({ text, layer });
    let worst = 0;
    for (let e = 0; e < map.weights.length; e++)
      worst = Math.max(worst, Math.abs(map.weights[e] - maps[layer - 1][e]));
    assert.ok(worst < 1e-4, `layer ${layer}: max |core - float64| = ${worst}`);
  }
});

test('copyingHeadMap draws either layer and counts the rows that point into an earlier copy', () => {
  const text = 'abcab abc';
  for (const layer of [1, 2]) {
    const map = core.copyingHeadMap({ text, layer });
    assert.equal(map.layer, layer);
    assert.equal(map.T, 9);
    assert.equal(map.d, saved.config.d);
    assert.deepEqual(map.tokens, [...text]);
    let withEarlier = 0;
    let intoCopy = 0;
    for (let i = 1; i < map.T; i++) {
      const row = Array.from(map.weights.subarray(i * map.T, i * map.T + i + 1));
      const sum = Array.from(map.weights.subarray(i * map.T, (i + 1) * map.T)).reduce(
        (a, b) => a + b,
      );
      assert.ok(Math.abs(sum - 1) < 1e-5, `row ${i} sums to ${sum}`);
      if (!text.slice(0, i).includes(text[i])) continue;
      withEarlier += 1;
      const peak = row.indexOf(Math.max(...row));
      if (peak >= 1 && text[peak - 1] === text[i]) intoCopy += 1;
    }
    assert.equal(map.rowsWithEarlier, withEarlier, `layer ${layer}`);
    assert.equal(map.rowsIntoCopy, intoCopy, `layer ${layer}`);
  }
  // 'a','b' at 3, 4; ' ' is new; 'a','b','c' at 6, 7, 8: five rows whose character came before
  assert.equal(core.copyingHeadMap({ text, layer: 2 }).rowsWithEarlier, 5);
});

test('copyingHeadMap refuses bad text under the field text, and a bad layer under layer', () => {
  const refusal = (request) => {
    try {
      core.copyingHeadMap(request);
    } catch (error) {
      return { message: error.message, field: error.field };
    }
    return null;
  };
  assert.deepEqual(refusal({ text: '' })?.field, 'text');
  assert.match(refusal({ text: 'café' }).message, /character "é" at position 3/);
  assert.equal(refusal({ text: 'café' }).field, 'text');
  const { context } = saved.config;
  assert.match(
    refusal({ text: 'a'.repeat(context + 1) }).message,
    new RegExp(`at most ${context}\\b`),
  );
  assert.equal(refusal({ text: 'ab', layer: 3 })?.field, 'layer');
  assert.equal(refusal({ text: 'ab', layer: 0 })?.field, 'layer');
});

test("trainingStart's config 'nohead' trains the model without its head: no attention, a lower loss", () => {
  const text = readFileSync(new URL('data/tinyshakespeare.txt', root), 'utf8').slice(0, 30000);
  const start = core.trainingStart({ name: 'baseline', text, d: 16, config: 'nohead' });
  assert.equal(start.weights, null);
  assert.equal(start.meanPeak, null);
  assert.equal(start.meanEntropy, null);
  assert.ok(start.heldOutLoss > 3.5, `untrained loss ${start.heldOutLoss}`);
  const after = core.trainingSteps({ name: 'baseline', count: 40 });
  assert.ok(after.heldOutLoss < start.heldOutLoss - 0.5, `after 40 steps ${after.heldOutLoss}`);
  assert.deepEqual([...after.queryGradientNorms].slice(0, 3), [0, 0, 0]);
  core.trainingStop({ name: 'baseline' });
  // The headed run from the same seed starts elsewhere: its head adds to x before the unembedding.
  const headed = core.trainingStart({ name: 'headed', text, d: 16, config: 'head' });
  assert.notEqual(headed.heldOutLoss, start.heldOutLoss);
  assert.equal(headed.weights.length, 24 * 24);
  core.trainingStop({ name: 'headed' });
});

test('trainingStart refuses a config it does not know, blaming the config field', () => {
  const text = 'abcdefghij'.repeat(20);
  assert.throws(
    () => core.trainingStart({ name: 'odd', text, d: 16, config: 'twohead' }),
    (error) =>
      error.field === 'config' && /config "twohead" is not one of head, nohead/.test(error.message),
  );
});
