// A square heat-map grid on a canvas, shared by every figure that draws one: its geometry,
// which cell a pointer is over, how the arrow keys move a cursor over it, and painting a
// T×T matrix once into a bitmap that is then scaled up without smoothing (or, when the
// matrix has more cells than the plot has pixels, into one pixel per plot pixel; the pixels
// themselves come from heat-pixels.js, which the compute worker uses too).
import { heatPicture } from './heat-pixels.js';

// Geometry in CSS pixels. width: room available; T: rows = columns; labelChars: the longest
// axis label drawn (0 for index labels); maxPlot: the largest plot side allowed.
export function gridLayout(width, T, labelChars, maxPlot) {
  const labelSpace = Math.min(90, 18 + labelChars * 8);
  const left = 22 + labelSpace;
  const top = 8;
  const right = 56; // the colour bar and its labels
  const bottom = 26 + labelSpace;
  const plot = Math.max(40, Math.min(width - left - right, maxPlot));
  return {
    left,
    top,
    plot,
    cell: plot / T,
    width: left + plot + right,
    height: top + plot + bottom,
  };
}

// The cell under a point given relative to the canvas's top-left corner, or null.
export function cellAt(box, T, x, y) {
  const col = Math.floor((x - box.left) / box.cell);
  const row = Math.floor((y - box.top) / box.cell);
  return row >= 0 && col >= 0 && row < T && col < T ? { row, col } : null;
}

const MOVES = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

// The cursor after a key press on a grid of rows × cols cells, or null when the key is not one
// of the grid's: an arrow moves one cell, Home and End go to the ends of the row, and, where
// the grid takes them (pages: a table of focusable cells; the map's canvas leaves them to
// scroll the page), PageUp and PageDown go to the ends of the column.
export function moveCursor(cursor, key, { rows, cols = rows, pages = false }) {
  const clamp = (value, size) => Math.min(size - 1, Math.max(0, value));
  const at = (row, col) => ({ row: clamp(row, rows), col: clamp(col, cols) });
  if (MOVES[key]) return at(cursor.row + MOVES[key][0], cursor.col + MOVES[key][1]);
  if (key === 'Home') return at(cursor.row, 0);
  if (key === 'End') return at(cursor.row, cols - 1);
  if (pages && key === 'PageUp') return at(0, cursor.col);
  if (pages && key === 'PageDown') return at(rows - 1, cursor.col);
  return null;
}

// A heat-map bitmap of values / top: T×T, or side × side max-pooled (maxPool) when side < T,
// where side is how many device pixels the plot spans. Drawn scaled, it costs nothing per
// hover. A `reuse` bitmap of the same size is painted over instead of making a new one: at
// T = 1000 each is 4 MB, garbage a moment later.
const imageOf = new WeakMap(); // bitmap -> its ImageData
export function heatBitmap(values, T, top = 1, reuse = null, side = T) {
  const width = Math.min(side, T);
  const bitmap = reuse?.width === width ? reuse : document.createElement('canvas');
  bitmap.width = width;
  bitmap.height = width;
  if (!imageOf.has(bitmap)) imageOf.set(bitmap, new ImageData(width, width));
  const image = imageOf.get(bitmap);
  heatPicture(values, T, top, side, image.data);
  bitmap.getContext('2d').putImageData(image, 0, 0);
  return bitmap;
}

// A T×T bitmap: colourOf(row, col) -> [r, g, b]. Drawn scaled, it costs nothing per hover.
export function paintCells(T, colourOf) {
  const pixels = new ImageData(T, T);
  for (let row = 0; row < T; row++) {
    for (let col = 0; col < T; col++) {
      const offset = (row * T + col) * 4;
      const [r, g, b] = colourOf(row, col);
      pixels.data[offset] = r;
      pixels.data[offset + 1] = g;
      pixels.data[offset + 2] = b;
      pixels.data[offset + 3] = 255;
    }
  }
  const bitmap = document.createElement('canvas');
  bitmap.width = T;
  bitmap.height = T;
  bitmap.getContext('2d').putImageData(pixels, 0, 0);
  return bitmap;
}

// Sizes a canvas for a box at the screen's pixel ratio; returns its 2D context in CSS pixels.
export function sizeCanvas(canvas, box) {
  const ratio = window.devicePixelRatio || 1;
  const [width, height] = [Math.round(box.width * ratio), Math.round(box.height * ratio)];
  // Setting a canvas's size, even to the same numbers, allocates a new surface: only on change.
  if (canvas.width !== width) canvas.width = width;
  if (canvas.height !== height) canvas.height = height;
  canvas.style.width = `${box.width}px`;
  canvas.style.height = `${box.height}px`;
  const context = canvas.getContext('2d');
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  return context;
}
