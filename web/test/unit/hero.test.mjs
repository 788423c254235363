// The first screen's sentences and its link part, against results and links written by hand.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_WORDS, heroLink } from '../../src/figures/hero/link.js';
import { cellLine, copyingLine, heroModel, TUTORIAL_LINE } from '../../src/figures/hero/model.js';

// A copying head's answer for `tokens` whose rows put `share` on `peaks[row]` and spread the rest.
function result(tokens, peaks, share = 0.8, counts = {}) {
  const T = tokens.length;
  const weights = new Float32Array(T * T);
  peaks.forEach((peak, row) => {
    for (let col = 0; col <= row; col++) weights[row * T + col] = row ? (1 - share) / row : 0;
    weights[row * T + peak] = row ? share : 1;
  });
  return {
    T,
    tokens,
    weights,
    rowsWithEarlier: 0,
    rowsIntoCopy: 0,
    next: [
      { character: 'c', probability: 0.9 },
      { character: ' ', probability: 0.06 },
      { character: 'x', probability: 0.001 },
    ],
    ...counts,
  };
}

test('a last letter that looks just after its earlier copy is told so, with the count', () => {
  // a b a: the last "a" looks at "b", which came after the first "a"
  const map = result(['a', 'b', 'a'], [0, 0, 1], 0.8, { rowsWithEarlier: 1, rowsIntoCopy: 1 });
  assert.equal(
    copyingLine(map),
    'The last letter, “a”, looks back at “b” (80%): the letter that came after “a” before. ' +
      'Of the 1 letter that had appeared before, 1 looks just after an earlier copy.',
  );
});

test('a last letter that looks elsewhere is told where, counting letters from 1', () => {
  const map = result(['a', 'b', 'a', 'c'], [0, 0, 1, 0], 0.5, {
    rowsWithEarlier: 1,
    rowsIntoCopy: 1,
  });
  assert.match(copyingLine(map), /^The last letter, “c”, looks most at “a”, letter 1 \(50%\)\./);
});

test('with no letter repeated there is nothing to copy, and the line says so', () => {
  assert.equal(
    copyingLine(result(['a', 'b'], [0, 0])),
    'No letter repeats yet, so there is nothing to copy. Type a phrase twice.',
  );
});

test('the untrained head has its own line and no guess; every row’s peak is kept for the tests', () => {
  const model = heroModel('tutorial', result(['a', 'b', 'c'], [0, 0, 1]));
  assert.equal(model.line, TUTORIAL_LINE);
  assert.equal(model.guesses, null);
  assert.deepEqual(model.peaks, [0, 0, 1]);
});

test('a cell reads its share, and a masked one says it may not look ahead', () => {
  const model = heroModel('copying', result(['a', 'b', 'a'], [0, 0, 1]));
  assert.equal(
    cellLine(model, { row: 2, col: 1 }),
    'Letter 3, “a”, gives letter 2, “b”, 80% of its attention.',
  );
  assert.equal(
    cellLine(model, { row: 0, col: 2 }),
    'Letter 1, “a”, may not look ahead at letter 3.',
  );
});

const parse = (hash) => heroLink.parse(new URLSearchParams(hash.slice(1)));

test('the first screen’s link: its words and head round-trip; a link from before it opens the map’s text', () => {
  assert.deepEqual(parse('#').state, { words: DEFAULT_WORDS, head: 'copying' });
  const own = parse('#words=abc%20abc&head=tutorial');
  assert.deepEqual(own.state, { words: 'abc abc', head: 'tutorial' });
  assert.deepEqual(heroLink.serialize(own.state), [
    ['words', 'abc abc'],
    ['head', 'tutorial'],
  ]);
  assert.equal(parse('#text=the%20cat&d=24').state.words, 'the cat');
  assert.equal(parse('#words=mine&text=the%20cat').state.words, 'mine');
});

test('a bad head or empty words in a link get a message and the default', () => {
  const parsed = parse('#words=&head=wise');
  assert.deepEqual(parsed.state, { words: DEFAULT_WORDS, head: 'copying' });
  assert.equal(parsed.messages.length, 2);
  assert.match(
    parsed.messages[1],
    /head=“wise” was not used: head must be one of: copying, tutorial\. Showing head=copying\./,
  );
});
