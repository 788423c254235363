// The heat-map painter: each cell's colour is matplotlib's magma at value / top, checked
// against colours read from matplotlib's own table (magma(0) = #000004, magma(128/255) =
// #b73779, magma(1) = #fcfdbf), with NaN, negatives and values over the top clamped.
import assert from 'node:assert/strict';
import test from 'node:test';
import { moveCursor } from '../../src/lib/grid.js';
import { heatPicture, heatPixels, maxPool } from '../../src/lib/heat-pixels.js';

const rgba = (pixels, cell) => [...pixels.subarray(cell * 4, cell * 4 + 4)];

test('a 2×2 map paints 0, the middle and the top as magma’s ends and middle', () => {
  const pixels = heatPixels(Float32Array.of(0, 0.25, 0.5, 0.5 * (128 / 255)), 2, 0.5);
  assert.deepEqual(rgba(pixels, 0), [0x00, 0x00, 0x04, 255]);
  assert.deepEqual(rgba(pixels, 2), [0xfc, 0xfd, 0xbf, 255]);
  assert.deepEqual(rgba(pixels, 3), [0xb7, 0x37, 0x79, 255]);
});

test('NaN and negative values paint as the lowest colour, values over the top as the highest', () => {
  const pixels = heatPixels(Float32Array.of(Number.NaN, -3, 7, 1), 2, 1);
  assert.deepEqual(rgba(pixels, 0), [0x00, 0x00, 0x04, 255]);
  assert.deepEqual(rgba(pixels, 1), [0x00, 0x00, 0x04, 255]);
  assert.deepEqual(rgba(pixels, 2), [0xfc, 0xfd, 0xbf, 255]);
});

test('a top of 0 (an all-zero map) paints every cell the lowest colour, not NaN', () => {
  const pixels = heatPixels(Float32Array.of(0, 0, 0, 0), 2, 0);
  for (let cell = 0; cell < 4; cell++) assert.deepEqual(rgba(pixels, cell), [0, 0, 4, 255]);
});

test('max-pooling a 4×4 map into 2×2 pixels keeps the largest of each 2×2 block', () => {
  const values = Float32Array.from({ length: 16 }, (_, i) => i); // cell (row, col) = 4·row + col
  assert.deepEqual([...maxPool(values, 4, 2)], [5, 7, 13, 15]);
});

test('max-pooling 5×5 cells into 2×2 pixels: rows and columns 0–2 fall in pixel 0, 3–4 in pixel 1', () => {
  const values = Float32Array.from({ length: 25 }, (_, i) => i); // cell (row, col) = 5·row + col
  assert.deepEqual([...maxPool(values, 5, 2)], [12, 14, 22, 24]);
});

test('a lone peak survives pooling wherever it stands, and zeros stay zero', () => {
  for (const at of [0, 7, 500, 999 * 1000 + 998]) {
    const values = new Float32Array(1000 * 1000);
    values[at] = 0.62;
    const pooled = maxPool(values, 1000, 613);
    const row = Math.floor(at / 1000);
    const col = at % 1000;
    const pixel = Math.floor((row * 613) / 1000) * 613 + Math.floor((col * 613) / 1000);
    assert.equal(pooled[pixel], Math.fround(0.62), `peak at cell ${row},${col}`);
    assert.equal(pooled.filter((value) => value !== 0).length, 1);
  }
});

test('a heat picture is the map itself where it fits and the pooled map where it does not', () => {
  const values = Float32Array.from({ length: 16 }, (_, i) => i / 15);
  // side 2 < T = 4: the pixels of the 2×2 maxima (5, 7, 13, 15) / 15, as maxPool's test finds them
  const pooled = heatPicture(values, 4, 1, 2);
  assert.deepEqual([...pooled], [...heatPixels(Float32Array.of(5 / 15, 7 / 15, 13 / 15, 1), 2, 1)]);
  // side 9 ≥ T = 4: one pixel a cell, 4 × 4 of them
  assert.deepEqual([...heatPicture(values, 4, 1, 9)], [...heatPixels(values, 4, 1)]);
});

test('the keys move a grid cursor one cell, to a row’s ends, and (where taken) a column’s', () => {
  const at = { row: 1, col: 2 };
  const table = { rows: 3, cols: 5, pages: true };
  const rows = [
    // [key, where the cursor goes on the 3 × 5 table]
    ['ArrowUp', { row: 0, col: 2 }],
    ['ArrowDown', { row: 2, col: 2 }],
    ['ArrowLeft', { row: 1, col: 1 }],
    ['ArrowRight', { row: 1, col: 3 }],
    ['Home', { row: 1, col: 0 }],
    ['End', { row: 1, col: 4 }],
    ['PageUp', { row: 0, col: 2 }],
    ['PageDown', { row: 2, col: 2 }],
    ['Enter', null],
  ];
  for (const [key, expected] of rows) assert.deepEqual(moveCursor(at, key, table), expected, key);
  // At an edge the cursor stays; on the map's canvas PageUp and PageDown are left to the page.
  assert.deepEqual(moveCursor({ row: 0, col: 0 }, 'ArrowUp', { rows: 4 }), { row: 0, col: 0 });
  assert.deepEqual(moveCursor({ row: 3, col: 3 }, 'ArrowRight', { rows: 4 }), { row: 3, col: 3 });
  assert.equal(moveCursor(at, 'PageDown', { rows: 4 }), null);
});
