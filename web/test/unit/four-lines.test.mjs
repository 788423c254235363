// The four lines' model on a hand-made two-token result (d = 2, causal): the code lines, the
// sentences, the grid's cells and the readout's arithmetic, each worked out by hand here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as model from '../../src/figures/four-lines/model.js';

// q = [[1, 0], [2, 1]], k = [[1, 2], [0, 1]]: raw scores q·kᵀ = [[1, 0], [4, 1]];
// scaled by 1/√2: [[0.7071, 0], [2.8284, 0.7071]]; the mask hides (0, 1).
// Row 1's softmax: max 2.8284, sum = 1 + e^(0.7071 − 2.8284) = 1 + 0.11988 = 1.11988,
// weights 1/1.11988 = 0.89295 and 0.11988/1.11988 = 0.10705.
const s = Math.SQRT1_2;
const RESULT = {
  tokens: ['a', ' '],
  T: 2,
  d: 2,
  scaleFactor: s,
  q: Float32Array.from([1, 0, 2, 1]),
  k: Float32Array.from([1, 2, 0, 1]),
  v: Float32Array.from([10, 20, 30, 40]),
  rawScores: Float32Array.from([1, 0, 4, 1]),
  scaledScores: Float32Array.from([s, 0, 4 * s, s]),
  maskedScores: Float32Array.from([s, -Infinity, 4 * s, s]),
  weights: Float32Array.from([1, 0, 0.89295, 0.10705]),
  output: Float32Array.from([10, 20, 12.141, 22.141]), // row 1: 0.89295·(10, 20) + 0.10705·(30, 40)
  peakWeight: Float32Array.from([1, 0.89295]),
  workingRows: 2,
  rowMax: Float32Array.from([s, 4 * s]),
  rowSum: Float32Array.from([1, 1.11988]),
};
const STATE = {
  text: 'a ',
  tokens: 'chars',
  d: 2,
  seed: 1,
  causal: true,
  scale: { mode: 'sqrt', factor: 1 },
};

test('the code lines follow the scale and strike the mask when it is off', () => {
  assert.equal(model.codeLines(STATE)[0].code, 'scores  = q @ k.T / sqrt(d)');
  assert.equal(
    model.codeLines({ ...STATE, scale: { mode: 'd', factor: 1 } })[0].code,
    'scores  = q @ k.T / d',
  );
  assert.equal(
    model.codeLines({ ...STATE, scale: { mode: 'custom', factor: 2.5 } })[0].code,
    'scores  = q @ k.T * 2.5',
  );
  assert.equal(model.codeLines(STATE)[1].code, 'scores  = scores.masked_fill(mask, -inf)');
  assert.equal(model.codeLines({ ...STATE, causal: false })[1].inactive, true);
});

test('the input line names the sentence, and calls the tutorial’s example by name', () => {
  assert.equal(
    model.sentenceNote(STATE, RESULT),
    'Input: “a ” (the map’s sentence in section 4): 2 tokens, head width d = 2.',
  );
  const tutorial = { ...STATE, text: 'To be, or not' };
  assert.match(
    model.sentenceNote(tutorial, { ...RESULT, T: 13, d: 24 }),
    /the tutorial’s example.*13 tokens, head width d = 24/,
  );
});

test('all 13 tokens of the tutorial’s sentence fit the grid; longer inputs are cut with a note', () => {
  // A long text's result keeps the working of its first 16 queries (detail 'first-rows').
  const long = { ...RESULT, T: 20, workingRows: 16, v: new Float32Array(20 * 2) };
  assert.equal(
    model.shape({ ...RESULT, T: 13, workingRows: 13, v: new Float32Array(13 * 24) }, 'scores').cols,
    13,
  );
  assert.equal(model.shape(long, 'scores').rows, 16);
  assert.equal(model.shape(long, 'output').width, 2);
  const scores = { ...long, scaledScores: new Float32Array(16 * 20).fill(0.5) };
  assert.match(model.summary(scores, STATE, 'scores'), /Showing the first 16 of 20 tokens\./);
  assert.match(
    model.summary(scores, STATE, 'scores'),
    /Their spread \(typical size\) over the first 16 rows is 0\.5\./,
  );
  assert.equal(model.scrollCue(model.shape(RESULT, 'weights')), 'Scroll sideways for all 2 keys →');
});

test('the mask sentence counts the hidden scores, or says the line changes nothing', () => {
  assert.match(
    model.summary(RESULT, STATE, 'mask'),
    /^1 of the 4 scores, everything right of the diagonal, are now −∞/,
  );
  assert.match(model.summary(RESULT, { ...STATE, causal: false }, 'mask'), /changes nothing/);
  assert.match(model.summary(RESULT, STATE, 'weights'), /a row gives 0\.95 to its favourite key/); // (1 + 0.89295) / 2
});

test('a score cell shows the dot product term by term and the scale', () => {
  const text = model.readout(RESULT, STATE, 'scores', 1, 0);
  assert.match(text, /row 2 \(query “␣”\), column 1 \(key “a”\)/); // counted from 1
  assert.match(text, /q₂·k₁ = Σ over 2 dimensions c of q\[2, c\]·k\[1, c\]/);
  assert.match(text, /= \(2\.000\)\(1\.000\) \+ \(1\.000\)\(2\.000\) = 4\.000/);
  assert.match(text, /× scale 1\/√d = 1\/√2 = 0\.707 → 2\.828/);
});

test('a weight cell uses the core’s row max and row sum: numerator = weight × sum', () => {
  const text = model.readout(RESULT, STATE, 'weights', 1, 1);
  // exp(0.707 − 2.828) = 0.11988 = 0.10705 × 1.11988
  assert.match(text, /exp\(0\.707 − max 2\.828\) \/ Σ row = 0\.120 \/ 1\.120 = 0\.107/);
  assert.match(
    model.readout(RESULT, STATE, 'weights', 0, 1),
    /masked key gets weight exactly 0\.000/,
  );
});

test('an output cell lists the largest weights first', () => {
  const text = model.readout(RESULT, STATE, 'output', 1, 0);
  assert.match(text, /= 0\.893·\(10\.000\) \+ 0\.107·\(30\.000\) = 12\.141/);
});

test('the grid prints masked cells as −∞ without a colour and weights with two decimals', () => {
  const grid = model.gridModel(RESULT, 'mask', [255, 255, 255]);
  assert.deepEqual(grid.columns, ['a', '␣']);
  assert.deepEqual(grid.rows[0].cells[1], { text: '−∞', masked: true });
  const weights = model.gridModel(RESULT, 'weights', [255, 255, 255]);
  assert.deepEqual(
    weights.rows[1].cells.map((c) => c.text),
    ['0.89', '0.11'],
  );
  assert.equal(model.cellText(0.004, 'weights'), '<0.01');
});

test('every coloured cell keeps text contrast of at least 4.5:1', () => {
  const grid = model.gridModel(RESULT, 'scores', [20, 20, 24]);
  const rgb = (text) => text.match(/\d+/g).map(Number);
  for (const row of grid.rows)
    for (const cell of row.cells)
      assert.ok(model.contrast(rgb(cell.background), rgb(cell.color)) >= 4.5);
});

test('the readout explains the hovered cell, else the page’s highlight if shown, else the cursor', () => {
  const grid = model.shape(RESULT, 'scores');
  const cursor = { row: 1, col: 0 };
  assert.deepEqual(model.target({ hovered: null, highlight: { query: 0, key: 1 }, cursor }, grid), {
    row: 0,
    col: 1,
  });
  assert.deepEqual(
    model.target({ hovered: null, highlight: { query: 5, key: 1 }, cursor }, grid),
    cursor,
  );
  assert.deepEqual(model.target({ hovered: { row: 0, col: 0 }, highlight: null, cursor }, grid), {
    row: 0,
    col: 0,
  });
});

test('the cursor starts on the last row at key 1 and stays inside a grid that shrinks', () => {
  const grid = model.shape(RESULT, 'scores'); // 2 × 2
  assert.deepEqual(model.fitCursor(null, grid), { row: 1, col: 1 });
  assert.deepEqual(model.fitCursor({ row: 9, col: 0 }, grid), { row: 1, col: 0 });
  assert.equal(model.sharedCell({ query: 1, key: 0 }, model.shape(RESULT, 'output')), null);
  assert.equal(model.sharedCell({ query: null }, grid), null);
});

test('the scores sentence gives their spread, and says why it is large under the tutorial recipe', () => {
  // scaled scores 0.7071, 0, 2.8284, 0.7071: mean square (0.5 + 0 + 8 + 0.5) / 4 = 2.25, spread 1.5
  assert.ok(Math.abs(model.scoreSpread(RESULT) - 1.5) < 1e-6);
  assert.match(model.summary(RESULT, STATE, 'scores'), /Their spread \(typical size\) is 1\.5\.$/);
  const big = { ...RESULT, scaledScores: Float32Array.from([6, -6, 6, -6]) };
  assert.match(
    model.summary(big, STATE, 'scores'),
    /is 6\.0\. That is far above 1 because the tutorial's recipe/,
  );
  assert.match(model.summary(big, { ...STATE, init: 'standard' }, 'scores'), /is 6\.0\.$/);
  assert.match(model.summary(big, { ...STATE, vectors: 'trained' }, 'scores'), /is 6\.0\.$/);
});
