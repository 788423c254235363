// What several figures read off an attention map's result in the same way: the rows' average
// peak and spread, the largest weight (the top of the colour scale), the weight a row gives
// the token just before it, and the tally of where the trained head's rows peak. Pure: runs in
// Node. The per-row numbers themselves (peakWeight, effectiveTokens, peakTargets) are the
// core's; these only average and count them.

// The mean over rows of each row's peak weight and of its effective tokens.
export function rowAverages(result) {
  let peak = 0;
  let effective = 0;
  for (let i = 0; i < result.T; i++) {
    peak += result.peakWeight[i];
    effective += result.effectiveTokens[i];
  }
  return { peak: peak / result.T, effective: effective / result.T };
}

// The largest weight of the map is the largest row peak: T values to scan instead of T².
export function largestWeight(result) {
  let largest = 0;
  for (const peak of result.peakWeight) if (peak > largest) largest = peak;
  return largest || 1;
}

// Mean weight a row gives the token just before it, over rows 1 … T − 1 (null for one token).
export function meanPreviousWeight(result) {
  const { T, weights } = result;
  let sum = 0;
  for (let i = 1; i < T; i++) sum += weights[i * T + i - 1];
  return T > 1 ? sum / (T - 1) : null;
}

// The core's names for where a trained head's row peaks, in its order (cpp/trained/trained_head.hpp).
export const PEAK_TARGETS = Object.freeze([
  'previous',
  'two back',
  'itself',
  'space',
  'word start',
  'elsewhere',
]);

// How many rows peak on each target; row 0 (one key, no choice: 'only key') is not counted.
export function peakTally(peakTargets) {
  const counts = Object.fromEntries(PEAK_TARGETS.map((target) => [target, 0]));
  let rows = 0;
  for (const target of peakTargets) {
    if (!(target in counts)) continue;
    counts[target] += 1;
    rows += 1;
  }
  return { counts, rows };
}

// The column where each row puts its largest weight (the first, on a tie), of a result's causal
// weights (T×T): what the maps of saved models mark for the tests (canvas data-peaks).
export function rowPeaks({ T, weights }) {
  const peaks = [];
  for (let row = 0; row < T; row++) {
    let best = 0;
    for (let col = 1; col <= row; col++)
      if (weights[row * T + col] > weights[row * T + best]) best = col;
    peaks.push(best);
  }
  return peaks;
}
