// The attention map's model on small hand-made results: every sentence and number it prints,
// for the random heads and for the trained one (trained-note.js, trained/trained-head.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  cellScore,
  exportTitle,
  inspectCell,
  mapModel,
  colourBarLabels,
  colourScale,
  csvRows,
  POOLED_NOTE,
  recipeNote,
  table,
  TABLE_LIMIT,
  textNote,
} from '../../src/figures/attention-map/model.js';
import {
  alphabet,
  corpusSentence,
  trainedNote,
  liveSentence,
} from '../../src/figures/attention-map/trained-note.js';
import { grownNote } from '../../src/figures/attention-map/grown-note.js';
import { halvesOf } from '../../src/trained/float16.js';
import { TRAINED_HEAD } from '../../src/trained/trained-head.js';
import { DEFAULT_STATE, withSavedModel } from '../../src/state.js';
import { noteOverBudget } from '../../../scripts/prose.mjs';

// A live note keeps to its budget (scripts/prose.mjs: its words and sentences).
function assertBudget(text, what) {
  assert.deepEqual(noteOverBudget(text), [], `${what}: ${text}`);
}

// Two tokens, causal: row 0 sees only itself; row 1 splits 0.25 / 0.75.
const TWO = Object.freeze({
  tokens: ['a', ' '],
  T: 2,
  d: 4,
  weights: new Float32Array([1, 0, 0.25, 0.75]),
  rawScores: new Float32Array([2, 9, -1, 1.2]),
  scaledScores: new Float32Array([1, 4.5, -0.5, 0.6]),
  scaleFactor: 0.5,
  workingRows: 2,
  q: new Float32Array([1, 0, 0, 0, 0, 1, 0, 0]),
  k: new Float32Array([0, 0, 1, 0, 0, 0, 0, 1]),
  peakWeight: new Float32Array([1, 0.75]),
  entropy: new Float32Array([0, 0.5623]),
  effectiveTokens: new Float32Array([1, 1.7548]),
});

test('the inspector plugs the real numbers in, and says why a masked cell is 0', () => {
  const read = (state, cell) => inspectCell(state, TWO, cell, cellScore(TWO, cell));
  const open = read(DEFAULT_STATE, { query: 1, key: 0 });
  // the second row and first column, counted from 1 as everywhere on the page
  assert.match(open, /query “␣” \(row 2\) → key “a” \(column 1\): weight 0\.250/);
  assert.match(open, /q·k = −1\.00, × scale 0\.50 = −0\.50/);
  assert.match(open, /row 2: peak weight 0\.750, entropy 0\.56 nats, effective tokens 1\.75/);
  const masked = read(DEFAULT_STATE, { query: 0, key: 1 });
  assert.match(
    masked,
    /masked: key 1 comes after query 0, so its score is −∞ and its weight exactly 0/,
  );
  const unmasked = read({ ...DEFAULT_STATE, causal: false }, { query: 0, key: 1 });
  assert.match(unmasked, /q·k = 9\.00/);
});

test('a cell past the kept working asks the core for its rows’ score, at the factor applied', () => {
  const firstRowOnly = { ...TWO, workingRows: 1 };
  assert.deepEqual(cellScore(firstRowOnly, { query: 0, key: 1 }), { raw: 9, scaled: 4.5 });
  const asked = [];
  const score = cellScore(firstRowOnly, { query: 1, key: 0 }, (pair) => {
    asked.push(pair);
    return { raw: -7, scaled: -3.5 };
  });
  assert.deepEqual(score, { raw: -7, scaled: -3.5 });
  assert.deepEqual(asked, [
    {
      query: new Float32Array([0, 1, 0, 0]),
      key: new Float32Array([0, 0, 1, 0]),
      scale: { mode: 'custom', factor: 0.5 },
    },
  ]);
});

test('the recipe note: width d rests under the tutorial recipe, one click to the standard', () => {
  const tutorial = recipeNote({ state: DEFAULT_STATE });
  assert.match(
    tutorial.text,
    /0\.5·randn\(d, d\), makes q, k and the scores grow with d, so width d is fixed at 24\./,
  );
  assert.deepEqual(tutorial.action, { init: 'standard' }, 'the recipe only, nothing else');
  const wide = recipeNote({ state: { ...DEFAULT_STATE, d: 256 } });
  assert.match(wide.text, /width d is fixed at 256, not the tutorial’s 24/);
  const standard = recipeNote({ state: { ...DEFAULT_STATE, init: 'standard', d: 256 } });
  assert.match(standard.text, /randn\(d, d\)\/√d: q and k keep a spread of about 1/);
  assert.deepEqual(standard.action, { init: 'tutorial' });
  for (const note of [tutorial, wide, standard]) assertBudget(note.text, 'recipe note');
});

test('the colours run from 0 to 1 unless stretched, and then the bar and a sentence say so', () => {
  const full = colourScale(DEFAULT_STATE, TWO);
  assert.deepEqual([full.top, full.label, full.stretched], [1, '1', false]);
  assert.deepEqual(colourBarLabels(full), ['0', '0.5', '1']);
  const faint = { ...TWO, peakWeight: new Float32Array([0.0283, 0.0191]) };
  const stretched = colourScale({ ...DEFAULT_STATE, stretch: true }, faint);
  assert.ok(Math.abs(stretched.top - 0.0283) < 1e-7);
  assert.equal(stretched.label, '0.028');
  assert.deepEqual(colourBarLabels(stretched), ['0', '0.014', '0.028']);
  const nearlyOne = { ...TWO, peakWeight: new Float32Array([0.999, 0.5]) };
  const fullTop = colourScale({ ...DEFAULT_STATE, stretch: true }, nearlyOne);
  assert.equal(fullTop.label, '1.00');
  assert.match(fullTop.words, /largest weight, 0\.999, not 1/);
  const causal = colourScale({ ...DEFAULT_STATE, stretch: true }, TWO); // row 0's weight is 1
  assert.equal(
    causal.words,
    'Colours are stretched to this map’s largest weight, 1.000, so they look as usual.',
  );
  assertBudget(causal.words, 'colour note');
  assert.match(
    stretched.words,
    /stretched: the brightest is this map’s largest weight, 0\.028, not 1/,
  );
  for (const scale of [full, stretched]) assertBudget(scale.words, 'colour note');
  const model = mapModel({
    state: DEFAULT_STATE,
    requested: DEFAULT_STATE,
    result: TWO,
    computeMs: 1,
  });
  assert.match(model.ariaLabel, /Colours run from 0 \(dark\) to 1 \(bright\)/);
});

test('the text box says what typing can change: nothing per position, the repeats per token', () => {
  assert.deepEqual(textNote(DEFAULT_STATE).action, { vectors: 'token' });
  assert.match(textNote(DEFAULT_STATE).text, /typing changes the labels, not the map/);
  const perToken = textNote({ ...DEFAULT_STATE, vectors: 'token' });
  assert.match(perToken.text, /which tokens repeat/);
  assert.equal(perToken.button, undefined);
});

test('the numbers table keeps the statistics columns and says when it is cut', () => {
  const model = table(TWO);
  assert.deepEqual(model.keys, ['a', '␣']);
  assert.deepEqual(model.rows[1], {
    label: '␣',
    weights: ['0.250', '0.750'],
    stats: ['0.750', '0.562', '1.75'],
  });
  assert.doesNotMatch(model.caption, /first/);
  const T = TABLE_LIMIT + 2;
  const big = {
    ...TWO,
    T,
    tokens: Array.from({ length: T }, (_, i) => `t${i}`),
    weights: new Float32Array(T * T).fill(1 / T),
    peakWeight: new Float32Array(T).fill(1 / T),
    entropy: new Float32Array(T).fill(Math.log(T)),
    effectiveTokens: new Float32Array(T).fill(T),
  };
  const cut = table(big);
  assert.equal(cut.rows.length, TABLE_LIMIT);
  assert.equal(cut.rows[0].stats.length, 3);
  assert.match(cut.caption, new RegExp(`first ${TABLE_LIMIT} of ${T} tokens`));
});

test('the PNG title line carries the settings', () => {
  assert.equal(
    exportTitle(DEFAULT_STATE),
    'Attention weights for “To be, or not” · characters · d = 24 · seed 1 · causal · scale 1/√d · tutorial recipe · no positions · vectors per position',
  );
  assert.match(
    exportTitle({ ...DEFAULT_STATE, stretch: true }),
    / · vectors per position · colours stretched to the largest weight$/,
  );
});

test('the summary quotes the averages and names the glossary terms', () => {
  const model = mapModel({
    state: DEFAULT_STATE,
    requested: DEFAULT_STATE,
    result: TWO,
    computeMs: 1.25,
  });
  const text = model.summary
    .map((part) => (typeof part === 'string' ? part : (part.text ?? part.term)))
    .join('');
  assert.match(text, /2 tokens, d = 4, 1\/√d = 0\.50, tutorial recipe, no positions: on average/);
  assert.match(
    text,
    /puts 0\.88 of its attention on its favourite token and spreads over 1\.38 effective tokens/,
  );
  assert.match(text, /The C\+\+ core computed it in 1\.3 ms\.$/);
  assertBudget(text, 'summary');
  assertBudget(POOLED_NOTE, 'pooled note');
  assert.ok(model.summary.some((part) => part.term === 'effective tokens'));
  assert.equal(mapModel({ state: null, result: null }), null);
});

// ---- The trained head (vectors=trained) ---------------------------------------------------------
// Three characters, causal: row 1 peaks on row 0 (the previous one), row 2 on itself.
const THREE = Object.freeze({
  ...TWO,
  tokens: ['a', 'b', 'c'],
  T: 3,
  d: 64,
  scaleFactor: 0.125,
  weights: new Float32Array([1, 0, 0, 0.6, 0.4, 0, 0.1, 0.3, 0.6]),
  peakWeight: new Float32Array([1, 0.6, 0.6]),
  effectiveTokens: new Float32Array([1, 1.96, 2.3]),
  peakTargets: ['only key', 'previous', 'itself'],
});
const TRAINED_STATE = withSavedModel({ ...DEFAULT_STATE, text: 'abc', vectors: 'trained' });
const savedHead = JSON.parse(
  readFileSync(new URL('../../assets/trained-head.json', import.meta.url), 'utf8'),
);

test('the live sentence describes the reader’s text from its own rows', () => {
  assert.equal(
    liveSentence(THREE),
    'In your text, 1 of the 2 rows with a choice peak on the previous character ' +
      '(1 on its own character). On average a row gives the previous character 0.45 of its weight.',
  );
  const one = { T: 1, tokens: ['a'], weights: new Float32Array([1]), peakTargets: ['only key'] };
  assert.match(liveSentence(one), /one character, and row 0 can only look at itself/);
  // The longest it gets: two places named, the rest counted.
  const spread = {
    ...THREE,
    peakTargets: ['only key', 'previous', 'two back', 'itself', 'space', 'word start', 'elsewhere'],
  };
  assert.match(
    liveSentence(spread),
    /1 of the 6 rows with a choice peak on the previous character \(1 on the character two back, 1 on its own character, 3 elsewhere\)/,
  );
  assertBudget(liveSentence(spread), 'live sentence');
});

test('the corpus sentence quotes the census as shares of its rows, largest first', () => {
  const census = {
    windows: 2,
    rows: 126,
    meanPreviousWeight: 0.5,
    counts: { previous: 63, 'two back': 14, itself: 21, space: 21, 'word start': 7, elsewhere: 0 },
  };
  const sentence = corpusSentence(census, 64);
  assert.match(sentence, /^Over 126 rows of Shakespeare it never trained on \(2 windows of 64/);
  assert.match(
    sentence,
    /falls on the previous character in 50\.0% of rows, on its own character in 16\.7%, on a space or newline further back in 16\.7%, on the character two back in 11\.1%, on the first letter of its word in 5\.6%; on average 0\.50/,
  );
});

test('the note beside the map is the reader’s text; what npm run train saved folds under it', () => {
  const { peakCensus } = savedHead;
  const note = trainedNote(THREE, TRAINED_HEAD);
  assert.equal(note.text, liveSentence(THREE));
  assertBudget(note.text, 'trained head note');
  const more = note.more.text;
  const share = (name) => `${((100 * peakCensus.counts[name]) / peakCensus.rows).toFixed(1)}%`;
  assert.match(more, new RegExp(`Over ${peakCensus.rows.toLocaleString('en-US')} rows`));
  for (const name of ['previous', 'two back', 'itself', 'space', 'word start'])
    assert.ok(more.includes(share(name)), `${name}: ${share(name)}`);
  assert.ok(more.includes(peakCensus.meanPreviousWeight.toFixed(2)));
});

test('the alphabet names ranges, space and newline, then lists the rest', () => {
  const lower = [...'abcdefghijklmnopqrstuvwxyz'];
  assert.equal(alphabet(['\n', ' ', '!', '?', ...lower]), 'a–z, space, newline and 2 other marks');
  assert.equal(alphabet(['a', 'b']), 'ab');
  assert.equal(alphabet([' ', 'x']), 'space and 1 other mark');
});

test('float16 base64 gives back the little-endian halves it was written from', () => {
  const halves = [0x3c00, 0xc000, 0x0001, 0x7bff, 0x3555, 0x8000];
  const bytes = Buffer.alloc(2 * halves.length);
  halves.forEach((half, i) => {
    bytes.writeUInt16LE(half, 2 * i);
  });
  assert.deepEqual([...halvesOf(bytes.toString('base64'))], halves);
});

test('with the trained head the map says what it is, and the boxes say what it reads', () => {
  const model = mapModel({
    state: TRAINED_STATE,
    requested: TRAINED_STATE,
    result: THREE,
    computeMs: 1,
  });
  const summary = model.summary
    .map((part) => (typeof part === 'string' ? part : (part.text ?? part.term)))
    .join('');
  assert.match(
    summary,
    /3 characters, the head trained on Shakespeare, d = 64, 1\/√d = 0\.13, causal: on average/,
  );
  assert.match(model.recipe.text, /^In your text, 1 of the 2 rows with a choice peak/);
  assertBudget(summary, 'trained head summary');
  assertBudget(model.textNote.text, 'text box note');
  assert.equal(model.recipe.button, undefined);
  assert.match(
    model.textNote.text,
    new RegExp(
      `up to ${savedHead.context} characters, from the ${savedHead.vocabulary.length} it met`,
    ),
  );
  assert.equal(
    exportTitle(TRAINED_STATE),
    'Attention weights for “abc” · characters · the head trained on Shakespeare · d = 64 · causal · scale 1/√d',
  );
});

test('the numbers table and the CSV never print a weight that is not zero as zero', () => {
  const tiny = { ...TWO, weights: new Float32Array([1, 0, 3.2e-9, 1]) };
  assert.deepEqual(table(tiny).rows[1].weights, ['3.2e-09', '1.000']);
  assert.deepEqual(table(tiny).rows[0].weights, ['1.000', '0.000'], 'masked: exactly 0');
  // float32's 3.2e-9 is 3.19999991e-9: six significant digits give 3.2e-9 back.
  assert.deepEqual(csvRows(tiny)[2], [' ', '3.2e-9', '1']);
});

// The grown head's map (vectors=grown-2): `grown` as main.js adds it to the result.
const GROWN_STATE = withSavedModel({ ...DEFAULT_STATE, text: 'abab', vectors: 'grown-2' });
const grownResult = (grown, rows = {}) => ({ ...TWO, layer: 2, ...rows, grown });

test('a link to a grown head this page has not grown says so, and offers to grow it', () => {
  const note = grownNote(grownResult({ seed: 3, steps: 1500, standIn: true }));
  assert.match(note.text, /seed 3 for 1,500 steps/);
  assert.match(note.text, /has not grown/);
  assert.match(note.text, /saved head’s layer 2 stands in/);
  assert.equal(note.button, 'Grow it');
  assert.deepEqual(note.command, { type: 'grow', settings: { seed: 3, steps: 1500 } });
  assertBudget(note.text, 'stand-in');
  // The stand-in is the saved head's map: the summary describes it as such.
  const model = mapModel({
    state: GROWN_STATE,
    requested: GROWN_STATE,
    result: grownResult({ seed: 3, steps: 1500, standIn: true }),
    computeMs: 1,
  });
  assert.match(model.summary[0], /layer 2 of the two grown heads/);
  assert.equal(model.recipe.button, 'Grow it');
});

test('the grown head on the map says its seed and step, and counts its rows as they are', () => {
  const grown = { seed: 3, steps: 2000, step: 625, status: 'growing' };
  const result = grownResult(grown, { rowsWithEarlier: 8, rowsIntoCopy: 6 });
  const note = grownNote(result);
  assert.equal(
    note.text,
    'Layer 2 of the head you grow from seed 3, at step 625 of 2,000. Of the 8 rows whose character came earlier, 6 (75%) put their largest weight just after an earlier copy of it.',
  );
  assert.equal(note.button, undefined, 'a head this page grows needs no button');
  assertBudget(note.text, 'grown');
  const stopped = grownNote(grownResult({ ...grown, status: 'stopped' }, { rowsWithEarlier: 0 }));
  assert.match(stopped.text, /at step 625 of 2,000, stopped\. No character here has come before/);
  assertBudget(stopped.text, 'grown, stopped');
  const model = mapModel({ state: GROWN_STATE, requested: GROWN_STATE, result, computeMs: 1 });
  assert.match(
    model.summary[0],
    /^2 characters, layer 2 of the head you grow from seed 3, at step 625/,
  );
  assert.match(model.textNote.text, /The head you grow reads up to/);
  assertBudget(model.textNote.text, 'grown text note');
  assert.match(exportTitle(GROWN_STATE), /layer 2 of the head grown in section 9/);
});
