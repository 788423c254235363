// A square heat-map grid on a canvas, shared by every figure that draws one: its geometry,
// which cell a pointer is over, how the arrow keys move a cursor over it, and painting a
// T×T matrix once into a T×T bitmap that is then scaled up without smoothing.

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

// The cursor after a key press on a T×T grid, or null when the key is not a grid key.
export function moveCursor(cursor, key, T) {
  const last = T - 1;
  const clamp = (value) => Math.min(last, Math.max(0, value));
  if (MOVES[key]) {
    return { row: clamp(cursor.row + MOVES[key][0]), col: clamp(cursor.col + MOVES[key][1]) };
  }
  if (key === 'Home') return { row: cursor.row, col: 0 };
  if (key === 'End') return { row: cursor.row, col: last };
  return null;
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
  canvas.width = Math.round(box.width * ratio);
  canvas.height = Math.round(box.height * ratio);
  canvas.style.width = `${box.width}px`;
  canvas.style.height = `${box.height}px`;
  const context = canvas.getContext('2d');
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  return context;
}
