// Draws the first screen's map: a square of cells coloured 0 (black) to 1 (pale yellow) on
// the same magma scale as the big map, the letters along both sides when there are few, and
// a colour bar from 0 to 1. Only drawing: the numbers come from model.js.
import { pictureFor } from '../../compute/pictures.js';
import { heatBitmap, sizeCanvas } from '../../lib/grid.js';
import { MAGMA_RGB } from '../../lib/magma.js';

const BAR = 10; // colour bar width, px
const GAP = 8;

function layout(width, labelled) {
  const side = labelled ? 16 : 4; // room for the letters
  const plot = Math.max(120, Math.min(width - side - BAR - GAP - 30, 360));
  return { left: side, top: side, plot, width: side + plot + GAP + BAR + 30, height: side + plot };
}

function drawLabels(context, box, labels) {
  const cell = box.plot / labels.length;
  context.font = `${Math.min(13, Math.max(8, cell * 0.7))}px ui-monospace, monospace`;
  context.textAlign = 'center';
  context.textBaseline = 'middle';
  labels.forEach((label, index) => {
    const middle = (index + 0.5) * cell;
    context.fillText(label, box.left / 2, box.top + middle);
    context.fillText(label, box.left + middle, box.top / 2);
  });
}

function drawBar(context, box, colour) {
  const x = box.left + box.plot + GAP;
  for (let y = 0; y < box.plot; y++) {
    const index = Math.round((1 - y / box.plot) * 255) * 3;
    context.fillStyle = `rgb(${MAGMA_RGB[index]} ${MAGMA_RGB[index + 1]} ${MAGMA_RGB[index + 2]})`;
    context.fillRect(x, box.top + y, BAR, 1);
  }
  context.fillStyle = colour;
  context.textAlign = 'left';
  context.textBaseline = 'top';
  context.fillText('1', x + BAR + 4, box.top);
  context.textBaseline = 'bottom';
  context.fillText('0', x + BAR + 4, box.top + box.plot);
}

// Masked cells (above the diagonal, exactly 0) in the page's quiet surface colour, so the
// triangle reads as "not allowed" rather than as black "no attention".
function drawMask(context, box, T, colour) {
  const cell = box.plot / T;
  context.fillStyle = colour;
  context.beginPath();
  for (let row = 0; row < T - 1; row++)
    context.rect(box.left + (row + 1) * cell, box.top + row * cell, (T - row - 1) * cell, cell);
  context.fill();
}

const devicePixels = (css) => Math.round(css * (window.devicePixelRatio || 1));

// The map's cells as a bitmap `pixels` across: the compute worker's picture of a large map
// (compute/pictures.js), else painted here, over the cached one. `wants` hears the plot's
// size for a large map, which has no letters along its sides.
function cellsBitmap(model, pixels, cache, { wants, width }) {
  wants?.want('hero', devicePixels(layout(width, false).plot), false);
  const painted = pictureFor(model.result, pixels, 1);
  if (painted) return painted;
  cache.bitmap = heatBitmap(model.weights, model.T, 1, cache.bitmap, Math.min(model.T, pixels));
  return cache.bitmap;
}

export function drawHero(canvas, model, width, cache, wants) {
  const box = layout(width, Boolean(model.labels));
  const context = sizeCanvas(canvas, box);
  const style = getComputedStyle(canvas);
  context.clearRect(0, 0, box.width, box.height);
  const cells = cellsBitmap(model, devicePixels(box.plot), cache, { wants, width });
  context.imageSmoothingEnabled = false;
  context.drawImage(cells, box.left, box.top, box.plot, box.plot);
  if (model.causal) drawMask(context, box, model.T, style.borderTopColor);
  context.fillStyle = style.color;
  if (model.labels) drawLabels(context, box, model.labels);
  context.font = '12px system-ui, sans-serif';
  drawBar(context, box, style.color);
  canvas.setAttribute('aria-label', `Attention map of ${model.T} tokens. ${model.line}`);
}
