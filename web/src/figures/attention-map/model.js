// The attention map's model: a snapshot in, everything the figure prints out (sentences,
// numbers, labels, table rows, the notes beside the map and the text box). Pure: no DOM, runs
// in Node. Sentences are arrays of segments: strings, or { term } for a glossary word.
import { compact, fixed, visibleToken } from '../../lib/format.js';
import { largestWeight, rowAverages } from '../../lib/map-statistics.js';
import { customScale, scaleLabel } from '../../lib/scale.js';
import { LEARNED_HEAD } from '../../learned-head.js';
import { isTutorialFigure } from '../../state.js';
import { alphabet, learnedNote } from './learned-note.js';

export const TABLE_LIMIT = 24; // tokens shown in the numbers table; the CSV has them all

// Under the map while it has more cells than the plot has pixels across (lib/grid.js maxPool).
export const POOLED_NOTE =
  'This map has more cells than the screen has pixels across it, so each pixel shows the largest weight among the cells it covers. The readout below still gives any single cell’s exact weight.';

const POSITION_NAMES = {
  none: 'no positions',
  sinusoidal: 'sinusoidal positions added',
  rope: 'RoPE',
};

export function isMasked(state, row, col) {
  return state.causal && col > row;
}

// What the map's head is: a random recipe, or the head trained on Shakespeare.
function headDescription(state, result) {
  if (state.vectors === 'learned') {
    return (
      `${result.T} characters, the head trained on Shakespeare (${LEARNED_HEAD.steps} steps): d = ${result.d}, ` +
      `its learned positions, ${scaleLabel(state.scale, result.scaleFactor)}, causal`
    );
  }
  return (
    `${result.T} tokens, d = ${result.d}, ${scaleLabel(state.scale, result.scaleFactor)}, ${state.init} recipe, ` +
    POSITION_NAMES[state.pos]
  );
}

function summary(state, result, computeMs) {
  const { peak, effective } = rowAverages(result);
  return [
    `${headDescription(state, result)}. On average a row puts ${fixed(peak, 2)} of its attention on its `,
    { term: 'peak weight', text: 'favourite token' },
    ' and spreads over ',
    `${fixed(effective, 2)} `,
    { term: 'effective tokens' },
    `. Computed in ${fixed(computeMs, 1)} ms by the C++ core.`,
  ];
}

function ariaLabel(state, result) {
  const mask = state.causal
    ? ' with the causal mask: the upper triangle is zero'
    : ' without a mask';
  return (
    `Attention map of ${result.T} tokens${mask}; the average peak weight per row is ` +
    `${fixed(rowAverages(result).peak, 2)}. Use the arrow keys or tap to read cells; the numbers table lists every weight.`
  );
}

// A cell's score q·k and scaled score: from the working the result kept (its first
// workingRows queries), else from scoreOf({ query, key, scale }), the core's score of one pair
// of rows (core.scoreOf), which gives the same float32 numbers.
export function cellScore(result, { query, key }, scoreOf) {
  if (query < result.workingRows) {
    const index = query * result.T + key;
    return { raw: result.rawScores[index], scaled: result.scaledScores[index] };
  }
  const d = result.q.length / result.T;
  return scoreOf({
    query: result.q.subarray(query * d, (query + 1) * d),
    key: result.k.subarray(key * d, (key + 1) * d),
    scale: customScale(result.scaleFactor),
  });
}

// What the inspector says about one cell. cell: { query, key } inside the result; score: its
// cellScore().
export function inspectCell(state, result, { query, key }, score) {
  const index = query * result.T + key;
  const from = visibleToken(result.tokens[query]);
  const to = visibleToken(result.tokens[key]);
  const scoreLine = isMasked(state, query, key)
    ? `masked: key ${key} comes after query ${query}, so its score is −∞ and its weight exactly 0`
    : `q·k = ${compact(score.raw)}, × scale ${compact(result.scaleFactor)} = ${compact(score.scaled)}`;
  return [
    `query “${from}” (row ${query}) → key “${to}” (column ${key}): weight ${fixed(result.weights[index], 3)}`,
    scoreLine,
    `row ${query}: peak weight ${fixed(result.peakWeight[query], 3)}, entropy ${fixed(result.entropy[query], 2)} nats, ` +
      `effective tokens ${fixed(result.effectiveTokens[query], 2)}`,
  ].join('\n');
}

// The sentence beside the map about the weight recipe, so the map never contradicts
// section 5: either it says the page switched recipes, or it explains why the tutorial's
// recipe saturates. action: the fields a one-click button sets.
export function recipeNote(snapshot) {
  const { state, recipeSwitched } = snapshot;
  if (state.init === 'standard' && recipeSwitched) {
    return {
      text:
        'You moved away from the tutorial’s figure, so the map now uses the standard recipe, ' +
        'Wq, Wk = randn(d, d)/√d: queries and keys keep a spread of 1 at every width, as section 5 assumes.',
      button: 'Use the tutorial’s recipe anyway',
      action: { init: 'tutorial' },
    };
  }
  if (state.init === 'tutorial' && !isTutorialFigure(state)) {
    return {
      text:
        'This map uses the tutorial’s recipe, Wq, Wk = 0.5·randn(d, d), under which queries and keys ' +
        'grow like √d. Their dot products then grow like d, faster than any 1/√d undoes, so at large d ' +
        'this map saturates whatever section 5 says. The standard recipe keeps them at spread 1.',
      button: 'Use the standard recipe',
      action: { init: 'standard' },
    };
  }
  return null;
}

// The note at the text box: what typing can change, given how token vectors are made.
export function textNote(state) {
  if (state.vectors === 'learned') {
    return {
      text:
        `The trained head reads one token per character, up to ${LEARNED_HEAD.context} of them, from the ` +
        `${LEARNED_HEAD.vocabulary.length} it met in Shakespeare: ${alphabet(LEARNED_HEAD.vocabulary)}. ` +
        'Each character has its own learned vector, so what you type changes the map.',
    };
  }
  if (state.vectors === 'token') {
    return {
      text:
        'One vector per token: a token that repeats gets the same vector each time, so the map changes ' +
        'when you change which tokens repeat and where. The vectors are random, drawn in order of first ' +
        'appearance, so which letters they are still does not matter.',
    };
  }
  return {
    text:
      'With one random vector per position (the tutorial’s choice), each weight depends only on where ' +
      'tokens stand, never on which characters they are: typing changes the labels, not the map.',
    button: 'Use one vector per token',
    action: { vectors: 'token' },
  };
}

function tableRows(result) {
  const T = Math.min(result.T, TABLE_LIMIT);
  const rows = [];
  for (let i = 0; i < T; i++) {
    const weights = [];
    for (let j = 0; j < T; j++) weights.push(fixed(result.weights[i * result.T + j], 3));
    rows.push({
      label: visibleToken(result.tokens[i]),
      weights,
      stats: [
        fixed(result.peakWeight[i], 3),
        fixed(result.entropy[i], 3),
        fixed(result.effectiveTokens[i], 2),
      ],
    });
  }
  return rows;
}

export function table(result) {
  const T = Math.min(result.T, TABLE_LIMIT);
  const more = result.T > TABLE_LIMIT;
  return {
    caption: `Attention weights, rows = queries, columns = keys${more ? ` (first ${TABLE_LIMIT} of ${result.T} tokens; the CSV has all)` : ''}`,
    keys: result.tokens.slice(0, T).map(visibleToken),
    stats: ['peak', 'entropy', 'effective'],
    rows: tableRows(result),
  };
}

// The title line of the PNG export: what the picture shows, enough to reproduce it.
export function exportTitle(state) {
  const text = state.text.length > 40 ? `${state.text.slice(0, 40)}…` : state.text;
  if (state.vectors === 'learned') {
    return `Attention weights for “${text}” · characters · the head trained on Shakespeare · d = ${state.d} · causal · scale ${scaleLabel(state.scale)}`;
  }
  return (
    `Attention weights for “${text}” · ${state.tokens === 'chars' ? 'characters' : 'words'} · ` +
    `d = ${state.d} · seed ${state.seed} · ${state.causal ? 'causal' : 'no mask'} · ` +
    `scale ${scaleLabel(state.scale)} · ${state.init} recipe · ` +
    `${POSITION_NAMES[state.pos]} · vectors per ${state.vectors}`
  );
}

export function csvRows(result) {
  const rows = [['query \\ key', ...result.tokens]];
  for (let i = 0; i < result.T; i++) {
    const row = result.weights.subarray(i * result.T, (i + 1) * result.T);
    rows.push([result.tokens[i], ...Array.from(row, (weight) => weight.toFixed(6))]);
  }
  return rows;
}

// Everything the figure shows for one snapshot (null before the first good result).
export function mapModel(snapshot) {
  const { state, result } = snapshot;
  if (!result || !state) return null;
  return {
    summary: summary(state, result, snapshot.computeMs),
    ariaLabel: ariaLabel(state, result),
    recipe: state.vectors === 'learned' ? learnedNote(result, LEARNED_HEAD) : recipeNote(snapshot),
    textNote: textNote(snapshot.requested ?? state),
    labels: result.tokens.map(visibleToken),
    top: largestWeight(result),
  };
}
