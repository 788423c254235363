// An attention map of a short text with its tokens along both sides: each cell is at least
// MIN_CELL pixels wide, so a letter always fits, and a map wider than its box scrolls inside it
// (scrollToLast brings the newest rows and the last row's peak into view). Longer tokens
// (words) get a wider margin, and slant along the top. A map of more than LETTER_TOKENS tokens
// is fitted to its box instead, without labels, max-pooled as section 4 draws a large map.
// Shared by the figures that show a saved model on the reader's own words. Only geometry and
// drawing: what the cells mean comes from the figure's model.
import { heatBitmap, sizeCanvas } from './grid.js';

export const MIN_CELL = 11; // px: a letter of 9 px fits
// The most tokens drawn with their letters: as many as a saved model reads (the copying head's
// 128 characters), 1,426 px across. Section 8 draws whatever map section 4 holds, up to 4,096
// tokens; at MIN_CELL a 500-token map was a 5,518 px canvas whose surface alone took 0.4 s of
// the main thread to allocate, and took it again at every change of length.
export const LETTER_TOKENS = 128;
const MAX_CELL = 30;
const LETTER_MARGIN = 18; // px for one letter on each side
const MAX_LABEL = 8; // characters of a longer token shown

export const shortLabel = (label) =>
  [...label].length > MAX_LABEL ? `${[...label].slice(0, MAX_LABEL - 1).join('')}…` : label;

// The margin for labels of at most `chars` characters.
const marginFor = (chars) => (chars <= 1 ? LETTER_MARGIN : Math.min(72, 10 + 7 * chars));

// Geometry in CSS pixels for T tokens in a box `width` wide and `height` high (the map scrolls
// inside it when even MIN_CELL is too large); labelChars: the longest label's characters.
// labels: whether the tokens are drawn (T ≤ LETTER_TOKENS).
export function letterMapLayout(T, width, height = width, labelChars = 1) {
  if (T > LETTER_TOKENS) {
    const plot = Math.max(1, Math.floor(Math.min(width, height)));
    return { left: 0, top: 0, cell: plot / T, plot, width: plot, height: plot, labels: false };
  }
  const margin = marginFor(labelChars);
  const fits = Math.floor((Math.min(width, height) - margin) / Math.max(T, 1));
  const cell = Math.max(MIN_CELL, Math.min(MAX_CELL, fits));
  const plot = cell * T;
  const size = margin + plot;
  return { left: margin, top: margin, cell, plot, width: size, height: size, labels: true };
}

// The cell under a point relative to the canvas's top-left corner, or null.
export function letterCellAt(box, T, x, y) {
  const col = Math.floor((x - box.left) / box.cell);
  const row = Math.floor((y - box.top) / box.cell);
  return row >= 0 && col >= 0 && row < T && col < T ? { row, col } : null;
}

// A column's label along the top: upright when it is one letter, slanted up when longer.
function drawTopLabel(context, box, label, middle) {
  if ([...label].length <= 1) {
    context.fillText(label, box.left + middle, box.top / 2);
    return;
  }
  context.save();
  context.translate(box.left + middle, box.top - 4);
  context.rotate(-Math.PI / 3);
  context.textAlign = 'left';
  context.fillText(label, 0, 0);
  context.restore();
}

function drawLabels(context, box, labels, highlight) {
  context.font = `${Math.min(15, Math.round(box.cell * 0.8))}px ui-monospace, monospace`;
  context.textBaseline = 'middle';
  labels.forEach((label, index) => {
    const middle = (index + 0.5) * box.cell;
    context.textAlign = box.left > LETTER_MARGIN ? 'right' : 'center';
    context.globalAlpha = highlight && highlight.row !== index ? 0.75 : 1;
    context.fillText(
      label,
      box.left > LETTER_MARGIN ? box.left - 4 : box.left / 2,
      box.top + middle,
    );
    context.textAlign = 'center';
    context.globalAlpha = highlight && highlight.col !== index ? 0.75 : 1;
    drawTopLabel(context, box, label, middle);
  });
  context.globalAlpha = 1;
}

// Cells above the diagonal (masked: exactly 0) in the page's quiet surface colour, so the
// triangle reads as "not allowed" rather than as black "no attention".
function drawMask(context, box, T, colour) {
  context.fillStyle = colour;
  context.beginPath();
  for (let row = 0; row < T - 1; row++)
    context.rect(
      box.left + (row + 1) * box.cell,
      box.top + row * box.cell,
      (T - row - 1) * box.cell,
      box.cell,
    );
  context.fill();
}

function drawHighlight(context, box, { row, col }, colour) {
  context.strokeStyle = colour;
  context.lineWidth = 2;
  context.strokeRect(box.left, box.top + row * box.cell, box.plot, box.cell);
  context.strokeRect(
    box.left + col * box.cell + 1,
    box.top + row * box.cell + 1,
    box.cell - 2,
    box.cell - 2,
  );
}

// map: { T, weights (T×T), labels (T strings, shortened by shortLabel), causal }; colours:
// { text, mask, focus }; highlight: { row, col } | null. cache: { bitmap } kept between draws.
export function drawLetterMap(
  canvas,
  map,
  { width, height, colours, highlight = null, cache = {} },
) {
  const longest = map.T > LETTER_TOKENS ? 1 : Math.max(1, ...map.labels.map((l) => [...l].length));
  const box = letterMapLayout(map.T, width, height, longest);
  const context = sizeCanvas(canvas, box);
  context.clearRect(0, 0, box.width, box.height);
  // One bitmap pixel per cell, or per device pixel of a plot smaller than T (max-pooled).
  const side = box.labels ? map.T : Math.round(box.plot * (window.devicePixelRatio || 1));
  cache.bitmap = heatBitmap(map.weights, map.T, 1, cache.bitmap, side);
  context.imageSmoothingEnabled = false;
  context.drawImage(cache.bitmap, box.left, box.top, box.plot, box.plot);
  if (map.causal) drawMask(context, box, map.T, colours.mask);
  if (!box.labels) return box;
  context.fillStyle = colours.text;
  drawLabels(context, box, map.labels, highlight);
  if (highlight) drawHighlight(context, box, highlight, colours.focus);
  return box;
}

// Scrolls a map's box so that its last rows, and the column `col` in them, are in view.
export function scrollToLast(scroller, box, col) {
  scroller.scrollTop = scroller.scrollHeight;
  const x = box.left + (col + 0.5) * box.cell;
  const view = scroller.clientWidth;
  if (x < scroller.scrollLeft + box.left || x > scroller.scrollLeft + view)
    scroller.scrollLeft = Math.max(0, x - view / 2);
}
