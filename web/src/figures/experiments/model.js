// "Things to try" as data: each experiment sets the WHOLE map state it needs (nothing left
// over from an earlier one), names the baseline state it compares against, and builds its
// note from the core's results for both. Pure: runs in Node, where the unit tests check every
// claim a note makes on the very numbers it quotes.
import { DEFAULT_STATE, sameState, withLearnedHead } from '../../state.js';
import { fixed, scientific } from '../../lib/format.js';
import { LEARNED_HEAD } from '../../learned-head.js';
import { INVERSE_D, namedScale, STANDARD_SCALE, UNSCALED } from '../../lib/scale.js';
import {
  meanPreviousWeight,
  peakTally,
  rowAverages as averages,
} from '../../lib/map-statistics.js';

// Scale experiments run on the standard recipe (q, k of spread 1, as section 5 assumes), with
// no mask so every row spreads over the same T tokens and 1/T is "uniform".
const SCALE_BASE = Object.freeze({
  ...DEFAULT_STATE,
  text: 'attention is a weighted average of values',
  d: 256,
  causal: false,
  init: 'standard',
});

const SAME_TOKEN = Object.freeze({
  ...DEFAULT_STATE,
  text: 'the cat saw the dog',
  tokens: 'words',
  vectors: 'token',
  causal: false,
});

// The trained head on a line it was trained on, against a random head of its width that also
// gives each character its own vector: what training changed, on the same text.
const TRAINED_TEXT = 'To be, or not to be, that is the question:';
const TRAINED = Object.freeze(
  withLearnedHead({ ...DEFAULT_STATE, text: TRAINED_TEXT, vectors: 'learned' }),
);
const UNTRAINED = Object.freeze({
  ...DEFAULT_STATE,
  text: TRAINED_TEXT,
  vectors: 'token',
  init: 'standard',
  d: LEARNED_HEAD.d,
});

// Largest |a_c - b_c| between row a and row b of a row-major matrix of `width` columns.
export function rowDifference(matrix, width, a, b) {
  let largest = 0;
  for (let c = 0; c < width; c++) {
    largest = Math.max(largest, Math.abs(matrix[a * width + c] - matrix[b * width + c]));
  }
  return largest;
}

// Sum of the weights above the diagonal (what the causal mask hides).
export function futureWeight(result) {
  let sum = 0;
  for (let i = 0; i < result.T; i++) {
    for (let j = i + 1; j < result.T; j++) sum += result.weights[i * result.T + j];
  }
  return sum;
}

// Largest spread of the raw scores along any diagonal (same distance i − j), relative to the
// largest |score|: 0 when scores depend only on the distance between tokens. Over the rows
// whose scores the result kept (every row of this experiment's short text).
export function diagonalSpread(result) {
  const { T, rawScores, workingRows } = result;
  let spread = 0;
  let largest = 0;
  for (let offset = -(T - 1); offset < T; offset++) {
    let low = Infinity;
    let high = -Infinity;
    for (let i = Math.max(0, offset); i < Math.min(workingRows, T + offset); i++) {
      const score = rawScores[i * T + (i - offset)];
      low = Math.min(low, score);
      high = Math.max(high, score);
      largest = Math.max(largest, Math.abs(score));
    }
    spread = Math.max(spread, high - low);
  }
  return largest > 0 ? spread / largest : 0;
}

// The two "the" rows (0 and 3) side by side: weights, and the first few numbers of q.
function sameTokenRows(result) {
  const shown = Math.min(result.d, 4);
  return [0, 3].map((row) => ({
    label: `“${result.tokens[row]}” @${row}`,
    weights: Array.from(result.weights.subarray(row * result.T, (row + 1) * result.T)),
    query: Array.from(result.q.subarray(row * result.d, row * result.d + shown)),
  }));
}

function sameTokenNumbers(result) {
  return {
    weightGap: rowDifference(result.weights, result.T, 0, 3),
    queryGap: rowDifference(result.q, result.d, 0, 3),
  };
}

export const EXPERIMENTS = Object.freeze([
  {
    id: 'unmask',
    title: 'Remove the causal mask',
    state: { ...DEFAULT_STATE, causal: false },
    baseline: DEFAULT_STATE,
    note(result, baseline) {
      const now = averages(result).effective;
      const before = averages(baseline).effective;
      const future = futureWeight(result) / result.T; // share of all attention, as rows sum to 1
      const futureBefore = futureWeight(baseline) / baseline.T;
      return {
        numbers: { now, before, future, futureBefore },
        claims: { spreadsWider: now > before, looksAhead: future > 0 },
        text:
          `The upper-right triangle fills in: every token now sees the whole text, before and after it, ` +
          `as in an encoder such as BERT. ${fixed(future * 100, 0)}% of all attention now goes to later ` +
          `tokens (${fixed(futureBefore * 100, 0)}% with the mask), and rows spread over ${fixed(now, 2)} effective tokens on average, ` +
          `against ${fixed(before, 2)} with the mask on.`,
      };
    },
  },
  {
    id: 'same-token',
    title: 'The same token at two positions',
    state: { ...SAME_TOKEN, pos: 'none' },
    baseline: null,
    note(result) {
      const { weightGap, queryGap } = sameTokenNumbers(result);
      return {
        numbers: { weightGap, queryGap },
        claims: { identical: weightGap === 0 && queryGap === 0 },
        rows: sameTokenRows(result),
        text:
          `“the” stands at positions 0 and 3 and gets one vector. With no mask and no positions, its two ` +
          `query rows differ by at most ${fixed(queryGap, 4)} and its two weight rows by at most ` +
          `${fixed(weightGap, 4)}: attention cannot tell the two apart. Compare with the next two buttons.`,
      };
    },
  },
  {
    id: 'same-token-sinusoidal',
    title: '…with sinusoidal positions',
    state: { ...SAME_TOKEN, pos: 'sinusoidal' },
    baseline: { ...SAME_TOKEN, pos: 'none' },
    note(result, baseline) {
      const { weightGap, queryGap } = sameTokenNumbers(result);
      const before = sameTokenNumbers(baseline).weightGap;
      return {
        numbers: { weightGap, queryGap, before },
        claims: { apart: weightGap > before && queryGap > 0 },
        rows: sameTokenRows(result),
        text:
          `Sinusoidal positions add a different wave pattern to each position's vector before q, k and v ` +
          `are made. The two “the” queries now differ by up to ${fixed(queryGap, 3)}, and their weight rows ` +
          `by up to ${fixed(weightGap, 3)} (without positions: ${fixed(before, 4)}).`,
      };
    },
  },
  {
    id: 'same-token-rope',
    title: '…with RoPE',
    state: { ...SAME_TOKEN, pos: 'rope' },
    baseline: { ...SAME_TOKEN, pos: 'none' },
    note(result, baseline) {
      const { weightGap, queryGap } = sameTokenNumbers(result);
      const before = sameTokenNumbers(baseline).weightGap;
      const queries =
        queryGap > 0
          ? `so the two “the” queries differ by up to ${fixed(queryGap, 3)} after rotation`
          : 'inside the score';
      return {
        numbers: { weightGap, queryGap, before },
        claims: { apart: weightGap > before },
        rows: sameTokenRows(result),
        text:
          `RoPE adds nothing to the vectors: it rotates each pair of numbers in q and k by an angle ` +
          `that grows with the position, ${queries}. Their weight rows now differ by up to ` +
          `${fixed(weightGap, 3)} (without positions: ${fixed(before, 4)}).`,
      };
    },
  },
  {
    id: 'rope-distance',
    title: 'RoPE: distance, not place',
    state: { ...SAME_TOKEN, text: 'a a a a a a a a', pos: 'rope' },
    baseline: { ...SAME_TOKEN, text: 'a a a a a a a a', pos: 'sinusoidal' },
    note(result, baseline) {
      const now = diagonalSpread(result);
      const before = diagonalSpread(baseline);
      return {
        numbers: { now, before },
        claims: { distanceOnly: now < 1e-5 && before > 0.01 },
        text:
          `Eight copies of one token. With RoPE, the score of two tokens depends only on how far apart ` +
          `they are: along every diagonal of the score table the scores differ by at most ` +
          `${scientific(now * 100, 1)}% of the largest score, float32 rounding. With sinusoidal ` +
          `positions added instead they differ by up to ${fixed(before * 100, 0)}%: there, where a ` +
          `pair stands matters too. Point along a diagonal: the readout's q·k stays the same.`,
      };
    },
  },
  {
    id: 'widen',
    title: 'Widen the head under 1/√d: d = 16 → 256',
    state: SCALE_BASE,
    baseline: { ...SCALE_BASE, d: 16 },
    note(result, baseline) {
      const now = averages(result).peak;
      const before = averages(baseline).peak;
      return {
        numbers: { now, before },
        claims: { staysPut: Math.abs(now - before) < 0.1 },
        text:
          `Standard recipe, scaled by 1/√d: at d = 256 a row puts ${fixed(now, 2)} of its attention on ` +
          `its favourite token on average, against ${fixed(before, 2)} at d = 16: dividing by √d keeps ` +
          `the peak nearly put while the head grows 16 times wider (try “No scaling at d = 512”).`,
      };
    },
  },
  {
    id: 'inverse-d',
    title: 'Scale by 1/d instead of 1/√d',
    state: { ...SCALE_BASE, scale: namedScale(INVERSE_D) },
    baseline: SCALE_BASE,
    note(result, baseline) {
      const now = averages(result);
      const before = averages(baseline);
      const uniform = 1 / result.T;
      return {
        numbers: { now: now.peak, before: before.peak, uniform, effective: now.effective },
        claims: { smears: now.peak < before.peak && now.peak < 1.5 * uniform },
        text:
          `Dividing by d = ${result.d} shrinks the scores too much: the average peak weight falls to ` +
          `${fixed(now.peak, 3)}, against ${fixed(before.peak, 3)} under 1/√d, close to the ` +
          `${fixed(uniform, 3)} of a perfectly even row of ${result.T} tokens ` +
          `(${fixed(now.effective, 1)} effective tokens). The exponent really is ½.`,
      };
    },
  },
  {
    id: 'unscaled',
    title: 'No scaling at d = 512',
    state: { ...SCALE_BASE, d: 512, scale: namedScale(UNSCALED) },
    baseline: { ...SCALE_BASE, d: 512, scale: STANDARD_SCALE },
    note(result, baseline) {
      const now = averages(result).peak;
      const before = averages(baseline).peak;
      return {
        numbers: { now, before },
        claims: { saturates: now > 0.8 && now > before + 0.3 },
        text:
          `Unscaled, the 512 products of a dot product add up to scores about √512 ≈ 23 times too big, ` +
          `and the softmax snaps: the average row puts ${fixed(now, 2)} of its attention on one token, ` +
          `against ${fixed(before, 2)} with 1/√d at the same width. A snapped row passes almost no ` +
          `gradient back to its scores (section 6 trains such a head).`,
      };
    },
  },
  {
    id: 'learned',
    title: 'A head trained on Shakespeare',
    state: TRAINED,
    baseline: UNTRAINED,
    note(result, baseline) {
      const now = meanPreviousWeight(result);
      const before = meanPreviousWeight(baseline);
      const { counts, rows } = peakTally(result.peakTargets);
      return {
        numbers: { now, before, previous: counts.previous, rows },
        claims: { looksBack: now > before + 0.2 && counts.previous > rows / 2 },
        text:
          `Trained with its small model to guess Shakespeare's next character, this head gives on ` +
          `average ${fixed(now, 2)} of a row's weight to the character just before it, and ` +
          `${counts.previous} of ${rows} rows peak there. A random head of the same width, one ` +
          `vector per character, gives ${fixed(before, 2)}. Type your own line: the map follows it.`,
      };
    },
  },
  {
    id: 'tutorial',
    title: "Back to the tutorial's figure",
    state: DEFAULT_STATE,
    baseline: null,
    note: () => ({
      numbers: {},
      claims: {},
      text: 'The tutorial’s map again: “To be, or not”, seed 1, d = 24, causal, scaled by 1/√d, its own recipe.',
    }),
  },
]);

export const experimentById = (id) => EXPERIMENTS.find((experiment) => experiment.id === id);

// The note for a snapshot, or null when no experiment's state is on the map.
// baselineOf(experiment) -> the core's result for experiment.baseline.
export function noteFor(snapshot, baselineOf) {
  const experiment = snapshot.experiment && experimentById(snapshot.experiment);
  if (!experiment || !snapshot.state || !sameState(snapshot.state, experiment.state)) return null;
  const baseline = experiment.baseline ? baselineOf(experiment) : null;
  if (experiment.baseline && !baseline) return null;
  return {
    id: experiment.id,
    title: experiment.title,
    ...experiment.note(snapshot.result, baseline),
  };
}
