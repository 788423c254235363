// The attention map's model on small hand-made results: every sentence and number it prints.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  exportTitle,
  inspectCell,
  mapModel,
  recipeNote,
  rowAverages,
  scaleName,
  table,
  TABLE_LIMIT,
  textNote,
} from '../../src/figures/attention-map/model.js';
import { DEFAULT_STATE } from '../../src/state.js';

// Two tokens, causal: row 0 sees only itself; row 1 splits 0.25 / 0.75.
const TWO = Object.freeze({
  tokens: ['a', ' '],
  T: 2,
  d: 4,
  weights: new Float32Array([1, 0, 0.25, 0.75]),
  rawScores: new Float32Array([2, 9, -1, 1.2]),
  scaledScores: new Float32Array([1, 4.5, -0.5, 0.6]),
  scale: 0.5,
  peakWeight: new Float32Array([1, 0.75]),
  entropy: new Float32Array([0, 0.5623]),
  effectiveTokens: new Float32Array([1, 1.7548]),
});

test('row averages are the plain means of the core’s row statistics', () => {
  const { peak, effective } = rowAverages(TWO);
  assert.equal(peak, 0.875);
  assert.ok(Math.abs(effective - 1.3774) < 1e-6, `effective ${effective}`);
});

test('the inspector plugs the real numbers in, and says why a masked cell is 0', () => {
  const open = inspectCell(DEFAULT_STATE, TWO, { query: 1, key: 0 });
  assert.match(open, /query “␣” \(row 1\) → key “a” \(column 0\): weight 0\.250/);
  assert.match(open, /q·k = −1\.00, × scale 0\.50 = −0\.50/);
  assert.match(open, /row 1: peak weight 0\.750, entropy 0\.56 nats, effective tokens 1\.75/);
  const masked = inspectCell(DEFAULT_STATE, TWO, { query: 0, key: 1 });
  assert.match(
    masked,
    /masked: key 1 comes after query 0, so its score is −∞ and its weight exactly 0/,
  );
  const unmasked = inspectCell({ ...DEFAULT_STATE, causal: false }, TWO, { query: 0, key: 1 });
  assert.match(unmasked, /q·k = 9\.00/);
});

test('the recipe note: says when the page switched, explains when the tutorial recipe is kept', () => {
  const away = { ...DEFAULT_STATE, d: 256 };
  assert.match(
    recipeNote({ state: { ...away, init: 'standard' }, recipeSwitched: true }).text,
    /now uses the standard recipe/,
  );
  const kept = recipeNote({ state: away, recipeSwitched: false });
  assert.match(kept.text, /grow like √d.*saturates/);
  assert.deepEqual(kept.action, { init: 'standard' });
  assert.equal(recipeNote({ state: DEFAULT_STATE, recipeSwitched: false }), null);
  assert.equal(
    recipeNote({ state: { ...away, init: 'standard' }, recipeSwitched: false }),
    null,
    'a standard recipe chosen on purpose needs no note',
  );
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

test('scale names and the PNG title line carry the settings', () => {
  assert.equal(scaleName({ mode: 'sqrt', factor: 1 }, 0.5), '1/√d = 0.50');
  assert.equal(scaleName({ mode: 'custom', factor: 3.16 }, 3.16), '× 3.16');
  assert.equal(scaleName({ mode: 'none', factor: 1 }, 1), 'no scaling');
  assert.equal(
    exportTitle(DEFAULT_STATE),
    'Attention weights for “To be, or not” · characters · d = 24 · seed 1 · causal · scale 1/√d · tutorial recipe · no positions · vectors per position',
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
  assert.match(text, /2 tokens, d = 4, 1\/√d = 0\.50, tutorial recipe, no positions/);
  assert.match(
    text,
    /puts 0\.88 of its attention on its favourite token and spreads over 1\.38 effective tokens/,
  );
  assert.ok(model.summary.some((part) => part.term === 'effective tokens'));
  assert.equal(mapModel({ state: null, result: null }), null);
});
