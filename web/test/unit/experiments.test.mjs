// The experiments' notes on the real core (the wasm build, in Node): each experiment sets the
// whole map state (and leaves the reader's colours alone), every claim its note makes holds for
// the numbers the note quotes, and every note keeps to the note budget (scripts/prose.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCores } from '../cores.mjs';
import { fixed } from '../../src/lib/format.js';
import { DEFAULT_STATE, MAP_FIELDS } from '../../src/state.js';
import { noteOverBudget } from '../../../scripts/prose.mjs';
import { sentences, words } from '../../../scripts/prose/measure.mjs';
import {
  diagonalSpread,
  EXPERIMENTS,
  noteFor,
  rowDifference,
} from '../../src/figures/experiments/model.js';

const { core } = await loadCores();

function noteOf(experiment) {
  const result = core.attentionMap(experiment.state);
  const baseline = experiment.baseline && core.attentionMap(experiment.baseline);
  const snapshot = { state: experiment.state, result, experiment: experiment.id };
  return { result, note: noteFor(snapshot, () => baseline) };
}

test('every experiment sets every field of the map, and so does its baseline', () => {
  for (const experiment of EXPERIMENTS) {
    assert.deepEqual(Object.keys(experiment.state).sort(), [...MAP_FIELDS].sort(), experiment.id);
    if (experiment.baseline) {
      assert.deepEqual(
        Object.keys(experiment.baseline).sort(),
        [...MAP_FIELDS].sort(),
        experiment.id,
      );
    }
  }
});

test('an experiment stays named on the map when the reader stretches its colours', () => {
  const experiment = EXPERIMENTS.find((candidate) => candidate.id === 'unmask');
  const result = core.attentionMap(experiment.state);
  const baseline = core.attentionMap(experiment.baseline);
  const state = { ...DEFAULT_STATE, ...experiment.state, stretch: true };
  const note = noteFor({ state, result, experiment: 'unmask' }, () => baseline);
  assert.equal(note?.id, 'unmask');
});

test('every note, title included, keeps to the note budget', () => {
  for (const experiment of EXPERIMENTS) {
    const { note } = noteOf(experiment);
    const text = `${experiment.title}: ${note.text}`;
    assert.deepEqual(noteOverBudget(text), [], `${experiment.id}: ${text}`);
    assert.doesNotMatch(note.text, /gradient|F\.sdpa|0\.0+(?!\d)|\de-\d/, experiment.id);
  }
});

test('each experiment says what it shows in one sentence, for the printout’s list', () => {
  for (const experiment of EXPERIMENTS) {
    assert.equal(sentences(experiment.shows), 1, experiment.id);
    assert.ok(words(experiment.shows).length <= 20, `${experiment.id}: ${experiment.shows}`);
  }
  assert.equal(new Set(EXPERIMENTS.map(({ shows }) => shows)).size, EXPERIMENTS.length);
});

test('experiments about scale run on the standard recipe', () => {
  for (const id of ['widen', 'inverse-d', 'unscaled']) {
    const experiment = EXPERIMENTS.find((candidate) => candidate.id === id);
    assert.equal(experiment.state.init, 'standard', id);
    assert.equal(experiment.baseline.init, 'standard', id);
  }
});

test('every claim of every note holds on the numbers it quotes', () => {
  for (const experiment of EXPERIMENTS) {
    const { note } = noteOf(experiment);
    for (const [claim, holds] of Object.entries(note.claims)) {
      assert.equal(holds, true, `${experiment.id}: ${claim} ${JSON.stringify(note.numbers)}`);
    }
  }
});

test('each note quotes its live number and its baseline as printed', () => {
  const quoted = {
    unmask: (n) => [`${fixed(n.future * 100, 0)}%`, fixed(n.now, 2), fixed(n.before, 2)],
    // Equal rows are called identical, never "differ by 0.0000".
    'same-token': (n) => [n.weightGap === 0 && n.queryGap === 0 ? 'are identical' : 'differ'],
    'same-token-sinusoidal': (n) => [
      fixed(n.queryGap, 2),
      fixed(n.weightGap, 2),
      n.before === 0 ? 'identical without positions' : fixed(n.before, 4),
    ],
    'same-token-rope': (n) => [
      fixed(n.weightGap, 2),
      n.before === 0 ? 'identical without positions' : fixed(n.before, 4),
    ],
    // A spread under a millionth is said in words, not as a percentage of a tiny number.
    'rope-distance': (n) => [
      n.now < 1e-6 ? 'under one part in a million' : fixed(n.now * 100, 1),
      `${fixed(n.before * 100, 0)}%`,
    ],
    widen: (n) => [fixed(n.now, 2), fixed(n.before, 2)],
    'inverse-d': (n) => [fixed(n.now, 3), fixed(n.before, 3), fixed(n.uniform, 3)],
    unscaled: (n) => [fixed(n.now, 2), fixed(n.before, 2)],
    trained: (n) => [fixed(n.now, 2), fixed(n.before, 2), `${n.previous} of ${n.rows} rows`],
    'say-twice': (n) => [
      `Of the ${n.rowsWithEarlier} rows`,
      `, ${n.rowsIntoCopy} (${Math.round((100 * n.rowsIntoCopy) / n.rowsWithEarlier)}%)`,
    ],
    tutorial: () => [],
  };
  for (const experiment of EXPERIMENTS) {
    const { note } = noteOf(experiment);
    for (const number of quoted[experiment.id](note.numbers)) {
      assert.ok(
        note.text.includes(number),
        `${experiment.id} does not quote ${number}: ${note.text}`,
      );
    }
  }
});

test('without the mask the two “the” rows are identical, weights and queries, side by side', () => {
  const { result, note } = noteOf(EXPERIMENTS.find((experiment) => experiment.id === 'same-token'));
  assert.deepEqual(result.tokens, ['the', 'cat', 'saw', 'the', 'dog']);
  assert.equal(note.rows.length, 2);
  assert.deepEqual(note.rows[0].weights, note.rows[1].weights);
  assert.deepEqual(note.rows[0].query, note.rows[1].query);
});

test('row differences and diagonal spread on hand-made matrices', () => {
  assert.equal(rowDifference([1, 2, 3, 1, 2.5, 3], 3, 0, 1), 0.5);
  // Scores that depend only on i - j (a Toeplitz matrix) have no spread along a diagonal.
  const toeplitz = { T: 3, workingRows: 3, rawScores: [4, 1, 0, 2, 4, 1, -1, 2, 4] };
  assert.equal(diagonalSpread(toeplitz), 0);
  const placed = { T: 2, workingRows: 2, rawScores: [4, 0, 0, 2] };
  assert.equal(diagonalSpread(placed), 0.5);
  // Only the rows a first-rows result kept: row 1 of this one was never computed.
  assert.equal(diagonalSpread({ T: 2, workingRows: 1, rawScores: [4, 0] }), 0);
});

test('the trained-head experiment counts the rows the core says peak one character back', () => {
  const { result, note } = noteOf(EXPERIMENTS.find((experiment) => experiment.id === 'trained'));
  // Independent of the core's names: a row peaks on the previous character when its largest
  // weight sits just left of the diagonal (rows 1 … T − 1).
  let previous = 0;
  for (let i = 1; i < result.T; i++) {
    const row = Array.from(result.weights.subarray(i * result.T, i * result.T + i + 1));
    if (row.indexOf(Math.max(...row)) === i - 1) previous += 1;
  }
  assert.equal(note.numbers.previous, previous);
  assert.equal(note.numbers.rows, result.T - 1);
});

test('"Say it twice" quotes the rows the drawn weights point into an earlier copy', () => {
  const { result, note } = noteOf(EXPERIMENTS.find((experiment) => experiment.id === 'say-twice'));
  // The rule of cpp/trained/copying_head.hpp, recounted here on the weights.
  const characters = [...result.tokens];
  let withEarlier = 0;
  let intoCopy = 0;
  for (let i = 1; i < result.T; i++) {
    if (!characters.slice(0, i).includes(characters[i])) continue;
    withEarlier += 1;
    const row = Array.from(result.weights.subarray(i * result.T, i * result.T + i + 1));
    const peak = row.indexOf(Math.max(...row));
    if (peak >= 1 && characters[peak - 1] === characters[i]) intoCopy += 1;
  }
  assert.deepEqual(note.numbers, { rowsWithEarlier: withEarlier, rowsIntoCopy: intoCopy });
  assert.equal(result.layer, 2);
});
