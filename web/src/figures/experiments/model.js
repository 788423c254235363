// "Things to try" as data: each experiment sets the WHOLE map state it needs (nothing left
// over from an earlier one; how the reader chose to colour the map stays), names the baseline
// state it compares against, and builds its note from the core's results for both: at most
// 45 words and two sentences with its title. Pure: runs in Node, where the unit tests check every
// claim a note makes on the very numbers it quotes.
import { DEFAULT_STATE, mapFields, sameMap, withSavedModel } from '../../state.js';
import { exactly, fixed } from '../../lib/format.js';
import { TRAINED_HEAD } from '../../trained/trained-head.js';
import { copyingNoteText } from '../../lib/copying-note.js';
import { INVERSE_D, namedScale, STANDARD_SCALE, UNSCALED } from '../../lib/scale.js';
import {
  meanPreviousWeight,
  peakTally,
  rowAverages as averages,
} from '../../lib/map-statistics.js';

// Scale experiments run on the standard recipe (q, k of spread 1, as section 5 assumes), with
// no mask so every row spreads over the same T tokens and 1/T is "uniform".
// The tutorial's figure, without the display fields (state.js DISPLAY_FIELDS).
const TUTORIAL = Object.freeze(mapFields(DEFAULT_STATE));

const SCALE_BASE = Object.freeze({
  ...TUTORIAL,
  text: 'attention is a weighted average of values',
  d: 256,
  causal: false,
  init: 'standard',
});

const SAME_TOKEN = Object.freeze({
  ...TUTORIAL,
  text: 'the cat saw the dog',
  tokens: 'words',
  vectors: 'token',
  causal: false,
});

// The trained head on a line it was trained on, against a random head of its width that also
// gives each character its own vector: what training changed, on the same text.
const TRAINED_TEXT = 'To be, or not to be, that is the question:';
const TRAINED = Object.freeze(
  withSavedModel({ ...TUTORIAL, text: TRAINED_TEXT, vectors: 'trained' }),
);
const UNTRAINED = Object.freeze({
  ...TUTORIAL,
  text: TRAINED_TEXT,
  vectors: 'token',
  init: 'standard',
  d: TRAINED_HEAD.d,
});

// Layer 2 of the copying head on a phrase said twice: its second copy should point into the first.
const TWICE = Object.freeze(
  withSavedModel({
    ...TUTORIAL,
    text: 'what shall I do? say what; what shall I do?',
    vectors: 'copying-2',
  }),
);

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
    label: `“${result.tokens[row]}” @${row + 1}`, // positions count from 1, as everywhere
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

// "identical without positions", or how far apart the rows were without them.
const without = (gap) =>
  gap === 0 ? 'identical without positions' : `${fixed(gap, 4)} without positions`;

// How closely the scores along each diagonal agree, relative to the largest score.
function agreement(spread) {
  if (spread === 0) return 'are exactly equal';
  if (spread < 1e-6) return 'agree to under one part in a million';
  return `differ by at most ${exactly(spread * 100, (value) => fixed(value, 1))}% of the largest`;
}

// Each experiment: the state it puts on the map, the baseline its note compares with, what it
// shows in one sentence (the claim its note checks, printed in the printout's list), and its
// live note.
export const EXPERIMENTS = Object.freeze([
  {
    id: 'unmask',
    title: 'Remove the causal mask',
    shows:
      'Without the causal mask every token also sees the tokens after it, and its attention spreads wider.',
    state: { ...TUTORIAL, causal: false },
    baseline: TUTORIAL,
    note(result, baseline) {
      const now = averages(result).effective;
      const before = averages(baseline).effective;
      const future = futureWeight(result) / result.T; // share of all attention, as rows sum to 1
      const futureBefore = futureWeight(baseline) / baseline.T;
      return {
        numbers: { now, before, future, futureBefore },
        claims: { spreadsWider: now > before, looksAhead: future > 0 },
        text:
          'The upper-right triangle fills in: every token now also sees the tokens after it. ' +
          `${fixed(future * 100, 0)}% of all attention goes to them, and rows spread over ` +
          `${fixed(now, 2)} effective tokens instead of ${fixed(before, 2)}.`,
      };
    },
  },
  {
    id: 'same-token',
    title: 'The same token at two positions',
    shows:
      'With no positions, a word that repeats gets the same vector, so its two rows of the map are identical.',
    state: { ...SAME_TOKEN, pos: 'none' },
    baseline: null,
    note(result) {
      const { weightGap, queryGap } = sameTokenNumbers(result);
      return {
        numbers: { weightGap, queryGap },
        claims: { identical: weightGap === 0 && queryGap === 0 },
        rows: sameTokenRows(result),
        text:
          '“the” stands at positions 1 and 4 and gets one vector. With no mask and no positions, ' +
          (weightGap === 0 && queryGap === 0
            ? 'its two query rows and its two weight rows are identical: attention cannot tell them apart.'
            : `its query rows differ by ${fixed(queryGap, 4)} and its weight rows by ${fixed(weightGap, 4)}.`),
      };
    },
  },
  {
    id: 'same-token-sinusoidal',
    title: '…with sinusoidal positions',
    shows:
      'Sinusoidal positions give the two copies of the word different vectors, so their rows differ.',
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
          'Sinusoidal positions add a different wave pattern to each position’s vector. ' +
          `The two “the” queries now differ by up to ${fixed(queryGap, 2)}, and their weight rows ` +
          `by up to ${fixed(weightGap, 2)} (${without(before)}).`,
      };
    },
  },
  {
    id: 'same-token-rope',
    title: '…with RoPE',
    shows: 'RoPE turns q and k by an angle set by position, so the two copies’ rows differ too.',
    state: { ...SAME_TOKEN, pos: 'rope' },
    baseline: { ...SAME_TOKEN, pos: 'none' },
    note(result, baseline) {
      const { weightGap, queryGap } = sameTokenNumbers(result);
      const before = sameTokenNumbers(baseline).weightGap;
      return {
        numbers: { weightGap, queryGap, before },
        claims: { apart: weightGap > before },
        rows: sameTokenRows(result),
        text:
          'RoPE adds nothing to the vectors: it rotates each pair of numbers in q and k by an angle ' +
          `that grows with the position. The two “the” weight rows now differ by up to ` +
          `${fixed(weightGap, 2)} (${without(before)}).`,
      };
    },
  },
  {
    id: 'rope-distance',
    title: 'RoPE: distance, not place',
    shows: 'With RoPE, eight copies of one token score each other by distance alone.',
    state: { ...SAME_TOKEN, text: 'a a a a a a a a', pos: 'rope' },
    baseline: { ...SAME_TOKEN, text: 'a a a a a a a a', pos: 'sinusoidal' },
    note(result, baseline) {
      const now = diagonalSpread(result);
      const before = diagonalSpread(baseline);
      return {
        numbers: { now, before },
        claims: { distanceOnly: now < 1e-5 && before > 0.01 },
        text:
          `Eight copies of one token: with RoPE the scores along each diagonal ${agreement(now)}, ` +
          'so only distance counts. With sinusoidal positions they differ ' +
          `by up to ${fixed(before * 100, 0)}% of the largest score.`,
      };
    },
  },
  {
    id: 'widen',
    title: 'Widen the head under 1/√d: d = 16 → 256',
    shows: 'Under 1/√d a head 16 times wider stays about as sharp.',
    state: SCALE_BASE,
    baseline: { ...SCALE_BASE, d: 16 },
    note(result, baseline) {
      const now = averages(result).peak;
      const before = averages(baseline).peak;
      return {
        numbers: { now, before },
        claims: { staysPut: Math.abs(now - before) < 0.1 },
        text:
          `Standard recipe: a row puts on average ${fixed(now, 2)} of its attention on its ` +
          `favourite token at d = 256, and ${fixed(before, 2)} at d = 16. Dividing by √d keeps ` +
          'the map about as sharp.',
      };
    },
  },
  {
    id: 'inverse-d',
    title: 'Scale by 1/d instead of 1/√d',
    shows: 'Dividing by d instead evens out a wide random head’s rows.',
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
          `Dividing by d = ${result.d} shrinks this random head’s scores so much that its rows ` +
          `go almost even: the average peak is ${fixed(now.peak, 3)}, against ${fixed(before.peak, 3)} ` +
          `under 1/√d and ${fixed(uniform, 3)} for a perfectly even row.`,
      };
    },
  },
  {
    id: 'unscaled',
    title: 'No scaling at d = 512',
    shows: 'Without scaling, a 512-wide head puts most of each row on one token.',
    state: { ...SCALE_BASE, d: 512, scale: namedScale(UNSCALED) },
    baseline: { ...SCALE_BASE, d: 512, scale: STANDARD_SCALE },
    note(result, baseline) {
      const now = averages(result).peak;
      const before = averages(baseline).peak;
      return {
        numbers: { now, before },
        claims: { saturates: now > 0.8 && now > before + 0.3 },
        text:
          `Unscaled, the scores at d = ${result.d} are √${result.d} ≈ ${fixed(Math.sqrt(result.d), 0)} ` +
          'times bigger than under 1/√d, and the softmax snaps: a row puts on average ' +
          `${fixed(now, 2)} of its attention on one token, against ${fixed(before, 2)}.`,
      };
    },
  },
  {
    id: 'trained',
    title: 'A head trained on Shakespeare',
    shows: 'A head trained on Shakespeare looks mostly at the character just before.',
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
          `Trained to guess Shakespeare’s next character, this head gives the character just ` +
          `before a row ${fixed(now, 2)} of its weight on average, and ${counts.previous} of ` +
          `${rows} rows peak there. A random head of its width gives ${fixed(before, 2)}.`,
      };
    },
  },
  {
    id: 'say-twice',
    title: 'Say it twice',
    shows:
      'On a phrase said twice, the copying head’s second copy looks just after the first: at what came next.',
    state: TWICE,
    baseline: null,
    note(result) {
      const { rowsWithEarlier, rowsIntoCopy } = result;
      return {
        numbers: { rowsWithEarlier, rowsIntoCopy },
        claims: { copies: rowsIntoCopy > rowsWithEarlier / 2 },
        text: copyingNoteText(result),
      };
    },
  },
  {
    id: 'tutorial',
    title: "Back to the tutorial's figure",
    shows: 'The tutorial’s own map again.',
    state: TUTORIAL,
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
  if (!experiment || !snapshot.state || !sameMap(snapshot.state, experiment.state)) return null;
  const baseline = experiment.baseline ? baselineOf(experiment) : null;
  if (experiment.baseline && !baseline) return null;
  return {
    id: experiment.id,
    title: experiment.title,
    ...experiment.note(snapshot.result, baseline),
  };
}
