// The first screen's one line, against weights written by hand.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { heroModel, LABEL_LIMIT, lastRowLine, sharePhrase } from '../../src/figures/hero/model.js';

const result = (tokens, weights) => ({
  T: tokens.length,
  tokens,
  weights: Float32Array.from(weights),
});

test('the line names the last token and where most of its attention goes', () => {
  const map = result(['a', 'b', ' '], [1, 0, 0, 0.5, 0.5, 0, 0.2, 0.7, 0.1]);
  assert.equal(
    lastRowLine(map),
    'The last token, “␣”, gives 70% of its attention to “b” (token 2).',
  );
});

test('a last token that looks mostly at itself says so', () => {
  const map = result(['x', 'y'], [1, 0, 0.25, 0.75]);
  assert.equal(lastRowLine(map), 'The last token, “y”, gives 75% of its attention to itself.');
});

test('a single token gives all of its attention to itself', () => {
  assert.equal(
    lastRowLine(result(['q'], [1])),
    'The last token, “q”, gives all of its attention to itself.',
  );
});

test('letters label the axes only up to the limit', () => {
  const snapshot = (T) => ({
    result: result(Array(T).fill('a'), new Float32Array(T * T).fill(1 / T)),
    state: { causal: false },
    requested: { text: 'a'.repeat(T) },
    errors: {},
  });
  assert.deepEqual(heroModel(snapshot(3)).labels, ['a', 'a', 'a']);
  assert.equal(heroModel(snapshot(LABEL_LIMIT + 1)).labels, null);
  assert.equal(heroModel({ result: null }), null);
});

test('a share is never rounded to all or nothing', () => {
  const cases = [
    [1, 'all'],
    [0.9996, 'nearly all'],
    [0.994, '99%'],
    [0.5, '50%'],
    [0.006, '1%'],
    [0.004, 'under 1%'],
  ];
  for (const [share, words] of cases) assert.equal(sharePhrase(share), words, String(share));
});
