// The name-tag room's model: what it sends the core, and what it prints from a hand-made
// result for three-way arithmetic that is checked by hand here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as model from '../../src/figures/name-tags/model.js';

const n = model.PEOPLE.length;
// A result shaped like core.formula()'s for five people: row 0 is what the figure reads.
// Weights 0.5, 0.25, 0.125, 0.0625, 0.0625 (sum 1); the blend is Σ weight × value.
const WEIGHTS = [0.5, 0.25, 0.125, 0.0625, 0.0625];
function result({ rowStats = true } = {}) {
  const output = [0, 1, 2].map((c) =>
    WEIGHTS.reduce((sum, w, j) => sum + w * model.PEOPLE[j].value[c], 0),
  );
  const padded = (row) => Float32Array.from([...row, ...new Array(n * (n - 1)).fill(0)]);
  return {
    rawScores: padded([2, 1.3, 0.6, -0.1, -0.1]),
    scaledScores: padded([2, 1.3, 0.6, -0.1, -0.1]),
    weights: padded(WEIGHTS),
    output: Float32Array.from([...output, ...new Array(3 * (n - 1)).fill(0)]),
    ...(rowStats
      ? { rowMax: Float32Array.from([2, 2, 2, 2, 2]), rowSum: Float32Array.from([2, 2, 2, 2, 2]) }
      : {}),
  };
}
const QUERY = { x: -0.4, y: 1.5 };

test('the core gets the query once per person, the five keys, the colours as values, no mask', () => {
  const input = model.formulaInput(QUERY, 2);
  assert.deepEqual(
    Array.from(input.q.subarray(0, 4)),
    [-0.4000000059604645, 1.5, -0.4000000059604645, 1.5],
  );
  assert.equal(input.k.length, 10);
  assert.equal(input.v.length, 15);
  assert.deepEqual(input.scale, { mode: 'custom', factor: 2 });
  assert.equal(input.dV, 3);
  assert.equal(input.causal, false);
});

test('each bar carries its person’s colour, its weight and its score', () => {
  const bars = model.bars(result());
  assert.equal(bars[0].swatch, 'rgb(237, 107, 23)'); // cat: (0.93, 0.42, 0.09) × 255, rounded
  assert.equal(bars[0].weight, '0.50');
  assert.equal(bars[3].score, 'q·k −0.10');
  assert.equal(bars[1].label, 'sat, holding blue: weight 0.25, score q·k 1.30');
  assert.equal(model.sumText(result()), 'Σ weights = 1.00');
});

test('the blend is the core’s output, and its sentence names the three largest shares', () => {
  const blend = model.blend(result());
  // red = 0.5·0.93 + 0.25·0.16 + 0.125·0.16 + 0.0625·0.58 + 0.0625·0.96 = 0.62125 → 158
  assert.match(blend.colour, /^rgb\(158, /);
  assert.equal(
    blend.text,
    'You take home 0.50 × cat’s orange + 0.25 × sat’s blue + 0.13 × on’s green + …',
  );
  assert.deepEqual(
    blend.segments.map((s) => s.share),
    WEIGHTS,
  );
  assert.match(blend.numbers, /^output = Σ weight × value = \(0\.62, /);
});

test('the weight line uses the core’s row max and sum, and never redoes the softmax without them', () => {
  // person 2: score 1.3, max 2, sum 2: numerator = 0.25 × 2 = 0.5 (= e^(1.3 − 2) to two places)
  assert.match(
    model.explain(result(), QUERY, 1, 1),
    /weight = e\^\(1\.30 − 2\.00\) \/ Σ = 0\.50 \/ 2\.00 = 0\.25/,
  );
  assert.match(
    model.explain(result({ rowStats: false }), QUERY, 1, 1),
    /weight = softmax of the scores, entry 2 = 0\.25/,
  );
  assert.match(
    model.explain(result(), QUERY, 1, 0),
    /q·k₁ \(“cat”\) = \(−0\.40\)\(1\.60\) \+ \(1\.50\)\(0\.50\)/,
  );
});

test('the readout explains the pointed-at person, else the focused one, else the best match', () => {
  assert.equal(model.activePerson(result(), 3, 1), 3);
  assert.equal(model.activePerson(result(), -1, 1), 1);
  assert.equal(model.activePerson(result(), -1, -1), 0);
});

test('the dashed drop lands on the key’s line at the query’s reach along it', () => {
  // key "sat" (0.3, 1.7); the query (1.7, 0.3)·unit = (0.51 + 0.51)/√2.98
  const { drop } = model.projection({ x: 1.7, y: 0.3 }, 1);
  const along = 1.02 / Math.hypot(0.3, 1.7);
  assert.ok(Math.abs(drop[2] - (0.3 / Math.hypot(0.3, 1.7)) * along) < 1e-12);
  assert.equal(model.factorText(model.factorFromSlider('1')), '× 10.0');
  assert.equal(model.clamp(7), 3);
});
