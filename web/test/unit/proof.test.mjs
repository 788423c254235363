// The proof panel's model: the tutorial's lines verbatim, and the sentences built from a
// hand-made equivalence result.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as model from '../../src/figures/proof/model.js';

const RESULTS = [
  {
    causal: false,
    formulaVsTorch: 7.152557373046875e-7,
    formulaVsFused: 2.98e-7,
    formulaVsFloat64: 3.12e-7,
    line: 'causal=False  max|mine - torch| = 7.15e-07  OK',
  },
  {
    causal: true,
    formulaVsTorch: 5.96e-7,
    formulaVsFused: 2.38e-7,
    formulaVsFloat64: 1.75e-7,
    line: 'causal=True   max|mine - torch| = 5.96e-07  OK',
  },
];
const text = (parts) => parts.map((p) => (typeof p === 'string' ? p : p.number)).join('');

test('the tutorial’s two lines are printed exactly as the tutorial printed them', () => {
  assert.deepEqual(model.TUTORIAL_LINES, [
    'causal=False  max|mine - F.sdpa| = 5.07e-07  OK',
    'causal=True   max|mine - F.sdpa| = 4.47e-07  OK',
  ]);
});

test('the sentence sizes our largest gap against float32’s rounding step and quotes the tolerance', () => {
  const sentence = text(model.whyDigitsDiffer(RESULTS, 1e-5));
  // 7.152557e-7 / 2^-23 = 6.0 exactly: six times the step of numbers between 1 and 2
  assert.match(
    sentence,
    /Ours, 7\.15e-07, is about 6 times float32’s rounding step for numbers between 1 and 2 \(1\.19e-07\); most outputs here are below 1/,
  );
  assert.match(sentence, /tolerance of 1e-05\./);
  const numbers = model.whyDigitsDiffer(RESULTS, 1e-5).filter((p) => typeof p !== 'string');
  assert.deepEqual(
    numbers.map((p) => p.number),
    ['7.15e-07', '1.19e-07', '1e-05'],
  );
});

test('our lines are the core’s, and the table has one row per mask setting', () => {
  assert.deepEqual(
    model.ourLines(RESULTS),
    RESULTS.map((r) => r.line),
  );
  const table = model.detailTable(RESULTS);
  assert.deepEqual(table.rows[1], ['causal', '5.96e-07', '2.38e-07', '1.75e-07']);
  assert.equal(model.timing(6.66), '(6.7 ms in your browser; B = 2, T = 16, d = 32, seed 0)');
  // A check faster than 0.05 ms is not "0.0 ms"; a gap of zero says so.
  assert.equal(model.timing(0.042), '(0.042 ms in your browser; B = 2, T = 16, d = 32, seed 0)');
  const equal = [{ ...RESULTS[0], formulaVsFused: 0 }];
  assert.equal(model.detailTable(equal).rows[0][2], 'exactly 0');
  const none = equal.map((r) => ({ ...r, formulaVsTorch: 0 }));
  assert.match(
    text(model.whyDigitsDiffer(none, 1e-5)),
    /Ours is exactly 0 \(float32’s rounding step for numbers between 1 and 2 is 1\.19e-07/,
  );
});
