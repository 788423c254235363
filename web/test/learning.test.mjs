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
