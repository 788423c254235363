// lib/map-statistics.js on small hand-made results: what the map, the four lines and the
// experiments all read off a result the same way, each number worked out by hand here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  largestWeight,
  meanPreviousWeight,
  PEAK_TARGETS,
  peakTally,
  rowAverages,
} from '../../src/lib/map-statistics.js';

// Two tokens, causal: row 0 sees only itself; row 1 splits 0.25 / 0.75.
const TWO = Object.freeze({
  T: 2,
  weights: new Float32Array([1, 0, 0.25, 0.75]),
  peakWeight: new Float32Array([1, 0.75]),
  effectiveTokens: new Float32Array([1, 1.7548]),
});

// Three characters: row 1 gives 0.6 to row 0, row 2 gives 0.3 to row 1.
const THREE = Object.freeze({
  T: 3,
  weights: new Float32Array([1, 0, 0, 0.6, 0.4, 0, 0.1, 0.3, 0.6]),
  peakWeight: new Float32Array([1, 0.6, 0.6]),
});

test('row averages are the plain means of the core’s row statistics', () => {
  const { peak, effective } = rowAverages(TWO);
  assert.equal(peak, 0.875);
  assert.ok(Math.abs(effective - 1.3774) < 1e-6, `effective ${effective}`);
});

test('the largest weight is the largest row peak, and 1 for a map of zeros', () => {
  assert.equal(largestWeight(TWO), 1);
  assert.equal(largestWeight({ peakWeight: Float32Array.of(0.25, 0.5) }), 0.5);
  assert.equal(largestWeight({ peakWeight: Float32Array.of(0, 0) }), 1);
});

test('the peak tally leaves out row 0 and counts each place the core names', () => {
  const { counts, rows } = peakTally(['only key', 'previous', 'previous', 'space', 'two back']);
  assert.equal(rows, 4);
  assert.deepEqual(counts, {
    previous: 2,
    'two back': 1,
    itself: 0,
    space: 1,
    'word start': 0,
    elsewhere: 0,
  });
  assert.deepEqual(Object.keys(counts), [...PEAK_TARGETS], 'in the core’s order');
});

test('the weight one character back is averaged over rows 1 … T − 1', () => {
  assert.ok(Math.abs(meanPreviousWeight(THREE) - (0.6 + 0.3) / 2) < 1e-7);
  assert.equal(meanPreviousWeight({ T: 1, weights: new Float32Array([1]) }), null);
});
