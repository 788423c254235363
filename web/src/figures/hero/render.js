// Draws the first screen: the letter map (lib/letter-map.js) in its scrolling box, and the lines
// under it. Only drawing: every word comes from model.js.
import { drawLetterMap, scrollToLast } from '../../lib/letter-map.js';
import { letterMapColours } from '../../theme.js';
import { cellLine } from './model.js';

// The map's box: this high whatever the words, so that typing never moves what is under it
// (hero.css reserves it before the figure starts, so the first screen does not move either),
// and low enough to keep the words above it in view.
const mapHeight = () => Math.round(Math.min(600, 0.6 * window.innerHeight));

// parts: { scroller, canvas, line, guesses, readout }; view: { model, highlight, cache, follow }.
export function drawHero(parts, view) {
  const { model, highlight } = view;
  const height = mapHeight();
  parts.scroller.style.height = `${height}px`;
  view.box = drawLetterMap(parts.canvas, model, {
    width: parts.scroller.clientWidth,
    height,
    colours: letterMapColours(),
    highlight,
    cache: view.cache,
  });
  parts.canvas.setAttribute(
    'aria-label',
    `Attention map of your ${model.T} letters, one row and one column each. ${model.line}`,
  );
  parts.canvas.dataset.peaks = model.peaks.join(); // where each row looks most: for the tests
  if (view.follow) scrollToLast(parts.scroller, view.box, model.peaks.at(-1));
  view.follow = false;
}

export function writeLines(parts, model, highlight) {
  parts.line.textContent = model.line;
  parts.guesses.hidden = !model.guesses;
  parts.guesses.textContent = model.guesses ?? '';
  parts.readout.textContent = highlight
    ? cellLine(model, highlight)
    : 'Point at a cell, or tap it, to read its share.';
}
