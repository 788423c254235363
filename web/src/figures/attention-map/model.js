// The attention map's model: a snapshot in, everything the figure prints out (sentences,
// numbers, labels, table rows, the notes beside the map and the text box). Pure: no DOM, runs
// in Node. Sentences are arrays of segments: strings, or { term } for a glossary word.
import { cell, compact, fixed, significant, visibleToken } from '../../lib/format.js';
import { largestWeight, rowAverages } from '../../lib/map-statistics.js';
import { customScale, scaleLabel } from '../../lib/scale.js';
import { COPYING_HEAD, copyingLayer, GROWN_CHOICE } from '../../trained/copying-head.js';
import { TRAINED_HEAD } from '../../trained/trained-head.js';
import { copyingNoteText } from '../../lib/copying-note.js';
import { grownDescription, grownNote } from './grown-note.js';
import { DEFAULT_STATE } from '../../state.js';
import { alphabet, trainedNote } from './trained-note.js';

export const TABLE_LIMIT = 24; // tokens shown in the numbers table; the CSV has them all

// Under the map while it has more cells than the plot has pixels across (lib/grid.js maxPool).
export const POOLED_NOTE =
  'This map has more cells than the screen has pixels, so each pixel shows the largest weight among the cells it covers. The readout below gives any one cell’s exact weight.';

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
  if (state.vectors === GROWN_CHOICE && result.grown?.step !== undefined) {
    return `${result.T} characters, ${grownDescription(result.grown)}, d = ${result.d}, ${scaleLabel(state.scale, result.scaleFactor)}, causal`;
  }
  if (copyingLayer(state.vectors) || state.vectors === GROWN_CHOICE) {
    return (
      `${result.T} characters, layer ${result.layer} of the two grown heads, d = ${result.d}, ` +
      `${scaleLabel(state.scale, result.scaleFactor)}, causal`
    );
  }
  if (state.vectors === 'trained') {
    return (
      `${result.T} characters, the head trained on Shakespeare, d = ${result.d}, ` +
      `${scaleLabel(state.scale, result.scaleFactor)}, causal`
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
    `${headDescription(state, result)}: on average a row puts ${fixed(peak, 2)} of its attention on its `,
    { term: 'peak weight', text: 'favourite token' },
    ' and spreads over ',
    `${fixed(effective, 2)} `,
    { term: 'effective tokens' },
    `. The C++ core computed it in ${fixed(computeMs, 1)} ms.`,
  ];
}

function ariaLabel(state, result) {
  const mask = state.causal
    ? ' with the causal mask: the upper triangle is zero'
    : ' without a mask';
  return (
    `Attention map of ${result.T} tokens${mask}; the average peak weight per row is ` +
    `${fixed(rowAverages(result).peak, 2)}. ${colourScale(state, result).words} ` +
    'Use the arrow keys or tap to read cells; the numbers table lists every weight.'
  );
}

// The colour scale: from 0 to 1 (bright means a large share of a row's attention, in every
// state), or, when the reader stretches it, from 0 to this map's largest weight, which the
// colour bar and a sentence under the map then say. top: the weight painted brightest;
// label: the colour bar's top as printed.
export function colourScale(state, result) {
  if (!state.stretch) {
    return {
      top: 1,
      label: '1',
      stretched: false,
      words: 'Colours run from 0 (dark) to 1 (bright), a row’s whole attention.',
    };
  }
  const top = largestWeight(result);
  // A causal map's row 0 has only itself to see: its weight is 1, and so is the top.
  const words =
    top >= 0.9995
      ? `Colours are stretched to this map’s largest weight, ${fixed(top, 3)}, so they look as usual.`
      : `Colours are stretched: the brightest is this map’s largest weight, ${fixed(top, 3)}, ` +
        'not 1, so the map looks sharper than its numbers are.';
  return { top, label: barNumber(top), stretched: true, words };
}

// A stretched bar's number: two decimals (so 0.999 reads 1.00, never the 1 of the full
// scale), or two significant digits below 0.1 (0.028).
const barNumber = (value) => (value >= 0.1 ? fixed(value, 2) : significant(value, 2));

// The colour bar's three labels, bottom to top.
export function colourBarLabels(scale) {
  if (!scale.stretched) return ['0', '0.5', '1'];
  return ['0', barNumber(scale.top / 2), scale.label];
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
    `query “${from}” (row ${query + 1}) → key “${to}” (column ${key + 1}): weight ${fixed(result.weights[index], 3)}`,
    scoreLine,
    `row ${query + 1}: peak weight ${fixed(result.peakWeight[query], 3)}, entropy ${fixed(result.entropy[query], 2)} nats, ` +
      `effective tokens ${fixed(result.effectiveTokens[query], 2)}`,
  ].join('\n');
}

// The sentence beside the map about the weight recipe. Under the tutorial's recipe the width
// rests (state.js widthRests): the note says why and offers the standard recipe in one click.
// action: the fields its button sets (the recipe only, never another setting).
export function recipeNote(snapshot) {
  const { state } = snapshot;
  if (state.init === 'standard') {
    return {
      text:
        'Standard recipe, Wq, Wk = randn(d, d)/√d: q and k keep a spread of about 1 at every width. ' +
        'Each width draws a new random head: the pattern changes, but from d = 8 up it stays about ' +
        'as sharp on average.',
      button: 'Use the tutorial’s recipe',
      action: { init: 'tutorial' },
    };
  }
  // True at any width and scale: q, k and so the scores grow with d under this recipe.
  const fixedAt = state.d === DEFAULT_STATE.d ? '24' : `${state.d}, not the tutorial’s 24`;
  return {
    text:
      'The tutorial’s recipe, Wq, Wk = 0.5·randn(d, d), makes q, k and the scores grow with d, ' +
      `so width d is fixed at ${fixedAt}. The standard recipe keeps their size steady, so d can ` +
      'move on its own.',
    button: 'Use the standard recipe',
    action: { init: 'standard' },
  };
}

// The note at the text box: what typing can change, given how token vectors are made.
export function textNote(state) {
  if (state.vectors === GROWN_CHOICE) {
    return {
      text: `The head you grow reads up to ${COPYING_HEAD.context} characters, from those of the Shakespeare it grows on. Say something twice and watch the second copy.`,
    };
  }
  if (copyingLayer(state.vectors)) {
    return {
      text:
        `The two heads read up to ${COPYING_HEAD.context} characters, from the ` +
        `${COPYING_HEAD.vocabulary.length} they met in Shakespeare. Say something twice and watch the second copy.`,
    };
  }
  if (state.vectors === 'trained') {
    return {
      text:
        `The trained head reads up to ${TRAINED_HEAD.context} characters, from the ` +
        `${TRAINED_HEAD.vocabulary.length} it met in Shakespeare: ${alphabet(TRAINED_HEAD.vocabulary)}. ` +
        'Each has its own learned vector, so what you type changes the map.',
    };
  }
  if (state.vectors === 'token') {
    return {
      text:
        'One vector per token: a token that repeats gets the same vector each time, so the map changes ' +
        'when you change which tokens repeat and where. Which letters they are does not matter.',
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
    for (let j = 0; j < T; j++) weights.push(cell(result.weights[i * result.T + j], 3));
    rows.push({
      label: visibleToken(result.tokens[i]),
      weights,
      stats: [
        cell(result.peakWeight[i], 3),
        cell(result.entropy[i], 3),
        cell(result.effectiveTokens[i], 2),
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
  const colours = state.stretch ? ' · colours stretched to the largest weight' : '';
  if (state.vectors === GROWN_CHOICE) {
    return `Attention weights for “${text}” · characters · layer 2 of the head grown in section 9 · d = ${state.d} · causal · scale ${scaleLabel(state.scale)}${colours}`;
  }
  if (copyingLayer(state.vectors)) {
    return `Attention weights for “${text}” · characters · layer ${copyingLayer(state.vectors)} of the two grown heads · d = ${state.d} · causal · scale ${scaleLabel(state.scale)}${colours}`;
  }
  if (state.vectors === 'trained') {
    return `Attention weights for “${text}” · characters · the head trained on Shakespeare · d = ${state.d} · causal · scale ${scaleLabel(state.scale)}${colours}`;
  }
  return (
    `Attention weights for “${text}” · ${state.tokens === 'chars' ? 'characters' : 'words'} · ` +
    `d = ${state.d} · seed ${state.seed} · ${state.causal ? 'causal' : 'no mask'} · ` +
    `scale ${scaleLabel(state.scale)} · ${state.init} recipe · ` +
    `${POSITION_NAMES[state.pos]} · vectors per ${state.vectors}${colours}`
  );
}

export function csvRows(result) {
  const rows = [['query \\ key', ...result.tokens]];
  for (let i = 0; i < result.T; i++) {
    const row = result.weights.subarray(i * result.T, (i + 1) * result.T);
    // Six significant digits: a weight of 3e-9 stays 3e-9 in a spreadsheet, never 0.000000.
    rows.push([
      result.tokens[i],
      ...Array.from(row, (weight) => String(Number(weight.toPrecision(6)))),
    ]);
  }
  return rows;
}

// The note beside the map: the saved model's live note, or the recipe's.
function recipeFor(snapshot) {
  const { state, result } = snapshot;
  if (state.vectors === GROWN_CHOICE && result.grown) return grownNote(result);
  if (copyingLayer(state.vectors) && result.layer) return { text: copyingNoteText(result) };
  return state.vectors === 'trained' ? trainedNote(result, TRAINED_HEAD) : recipeNote(snapshot);
}

// Everything the figure shows for one snapshot (null before the first good result).
export function mapModel(snapshot) {
  const { state, result } = snapshot;
  if (!result || !state) return null;
  return {
    summary: summary(state, result, snapshot.computeMs),
    ariaLabel: ariaLabel(state, result),
    recipe: recipeFor(snapshot),
    textNote: textNote(snapshot.requested ?? state),
    labels: result.tokens.map(visibleToken),
    colours: colourScale(state, result),
  };
}
