// The letter map's geometry (lib/letter-map.js): letters fit in every cell up to LETTER_TOKENS
// tokens, the map scrolling past its box; beyond, it is fitted to its box without labels, so
// that its canvas never outgrows the box. Sizes worked out by hand.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  LETTER_TOKENS,
  letterCellAt,
  letterMapLayout,
  MIN_CELL,
} from '../../src/lib/letter-map.js';

test('a short text gets cells as large as its box allows, up to 30 px', () => {
  // (700 − 18) / 13 = 52 px would fit; cells stop at 30.
  assert.deepEqual(letterMapLayout(13, 700), {
    left: 18,
    top: 18,
    cell: 30,
    plot: 390,
    width: 408,
    height: 408,
    labels: true,
  });
  // Words: a margin of 10 + 7·5 = 45 px for five-letter labels; (300 − 45) / 20 = 12.75 → 12.
  assert.equal(letterMapLayout(20, 300, 300, 5).cell, 12);
});

test('up to 128 tokens every cell holds a letter, and the map scrolls past its box', () => {
  assert.equal(LETTER_TOKENS, 128);
  const box = letterMapLayout(128, 390, 500);
  assert.equal(box.cell, MIN_CELL);
  assert.equal(box.width, 18 + 128 * 11);
  assert.equal(box.labels, true);
});

test('a longer map is fitted to its box, without labels', () => {
  const box = letterMapLayout(129, 390, 300);
  assert.deepEqual(box, {
    left: 0,
    top: 0,
    cell: 300 / 129,
    plot: 300,
    width: 300,
    height: 300,
    labels: false,
  });
  assert.equal(letterMapLayout(4096, 1200, 700.6).width, 700);
  // 150 px in is row and column 150 / (300 / 129) = 64.5 → 64.
  assert.deepEqual(letterCellAt(box, 129, 150, 150), { row: 64, col: 64 });
  assert.equal(letterCellAt(box, 129, 300, 10), null);
});
