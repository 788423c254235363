// Section 3, the whole operation in four lines: the code lines as a tab list; the selected
// line's live intermediate for the map's sentence as a grid of coloured cells (rows =
// queries, columns = keys, or output dimensions for the last line); and a readout that
// plugs the real numbers of the pointed-at, focused or highlighted cell into its formula.
// Pointing at, focusing or tapping a cell highlights that query/key pair on the whole page.
import { moveCursor } from '../../lib/grid.js';
import { cssColor } from '../../theme.js';
import './four-lines.css';
import * as model from './model.js';
import {
  buildFigure,
  markCells,
  updateScrollCue,
  writeGrid,
  writeLegend,
  writeTabs,
} from './render.js';

// Any CSS colour string as [r, g, b], through the browser's own parser.
function rgbOf(colour, fallback) {
  const parser = document.createElement('canvas').getContext('2d');
  if (!parser || !colour) return fallback;
  parser.fillStyle = '#000000';
  parser.fillStyle = colour;
  const parsed = parser.fillStyle;
  if (parsed.startsWith('#'))
    return [1, 3, 5].map((start) => Number.parseInt(parsed.slice(start, start + 2), 16));
  const match = parsed.match(/[\d.]+/g);
  return match ? match.slice(0, 3).map(Number) : fallback;
}

// The scroll cues read layout, so they are set when the observer reports new sizes (after the
// browser's own layout), never in the middle of a render where it would force one. In the
// next frame: a cue shown or hidden inside the observer's delivery changes sizes the observer
// watches, which Firefox reports as a "ResizeObserver loop" error. Returns the observer.
function watchScrollCues(parts) {
  const resize = new ResizeObserver(() =>
    requestAnimationFrame(() => {
      updateScrollCue(parts.codeScroll, parts.codeCue);
      updateScrollCue(parts.wrap, parts.cue);
    }),
  );
  for (const box of [parts.codeScroll, parts.tabList, parts.wrap, parts.table]) resize.observe(box);
  return resize;
}

const cellOf = (event) => {
  const td = event.target.closest?.('td[data-row]');
  return td ? { row: Number(td.dataset.row), col: Number(td.dataset.col) } : null;
};

export function mount(element, { dispatch = () => {} } = {}) {
  const parts = buildFigure(element);
  const view = { step: 0, cursor: null, hovered: null, cells: [], surface: [255, 255, 255] };
  let snapshot = null;
  let shape = null;

  const stepName = () => model.STEPS[view.step].name;

  function explain() {
    const { result, state, highlight } = snapshot;
    const current = model.target({ ...view, highlight }, shape);
    parts.readout.textContent = model.readout(result, state, stepName(), current.row, current.col);
    markCells(parts.table, view.cells, current, model.sharedCell(highlight, shape));
  }

  function render() {
    const { result, state } = snapshot || {};
    if (!result) return;
    const name = stepName();
    const grid = model.gridModel(result, name, view.surface);
    shape = grid.shape;
    view.cursor = model.fitCursor(view.cursor, shape);
    if (!model.fits(view.hovered, shape)) view.hovered = null;
    const hadFocus = parts.table.contains(document.activeElement);
    writeTabs(parts.tabs, model.codeLines(state), view.step);
    parts.panel.setAttribute('aria-labelledby', parts.tabs[view.step].id);
    parts.input.textContent = model.sentenceNote(state, result);
    parts.summary.textContent = model.summary(result, state, name);
    view.cells = writeGrid(parts.table, grid, view.cursor, name);
    if (hadFocus) view.cells[view.cursor.row][view.cursor.col].focus({ preventScroll: true });
    writeLegend(parts.legend, grid, name === 'mask' && state.causal);
    parts.cue.textContent = model.scrollCue(shape);
    explain();
  }

  // A cell pointed at (hover: true) or focused; null when the pointer leaves. Explained here
  // at once, and shared with the page unless it is an output dimension (not a key).
  function point(cell, { hover }) {
    view.hovered = hover ? cell : null;
    if (!hover && cell) view.cursor = cell;
    explain();
    if (shape.isOutput) return;
    dispatch(
      cell
        ? { type: 'highlight', query: cell.row, key: cell.col }
        : { type: 'highlight', query: null },
    );
  }

  const handlers = gridHandlers(view, { point, render, stepCount: model.STEPS.length, parts });
  const resize = watchScrollCues(parts);
  const onTheme = () => {
    view.surface = rgbOf(cssColor('--surface'), view.surface);
    render();
  };
  const listeners = [...handlers, [document, 'themechange', onTheme]];
  for (const [target, type, handler] of listeners) target.addEventListener(type, handler);
  view.surface = rgbOf(cssColor('--surface'), view.surface);

  return {
    update(next) {
      const previous = snapshot;
      snapshot = next;
      if (previous && previous.result === next.result && previous.state === next.state && shape)
        explain();
      else render();
    },
    destroy() {
      resize.disconnect();
      for (const [target, type, handler] of listeners) target.removeEventListener(type, handler);
      parts.root.remove();
    },
  };
}

// The tab list and the grid's pointer and keyboard handlers, as [target, type, handler].
function gridHandlers(view, { point, render, stepCount, parts }) {
  const select = (index, focus) => {
    view.step = (index + stepCount) % stepCount;
    render();
    if (focus) parts.tabs[view.step].focus();
  };
  const onTabClick = (event) => {
    const tab = event.target.closest('[role="tab"]');
    if (tab) select(Number(tab.dataset.index), false);
  };
  const onTabKey = (event) => {
    const moves = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 };
    const ends = { Home: 0, End: stepCount - 1 };
    if (!(event.key in moves) && !(event.key in ends)) return;
    event.preventDefault();
    select(event.key in ends ? ends[event.key] : view.step + moves[event.key], true);
  };
  const onOver = (event) => {
    const cell = cellOf(event);
    if (cell && !(view.hovered?.row === cell.row && view.hovered?.col === cell.col))
      point(cell, { hover: true });
  };
  // A tap leaves its pair highlighted (a finger has no hover); a mouse leaving clears it.
  const onLeave = (event) => event.pointerType !== 'touch' && point(null, { hover: true });
  const onFocus = (event) => {
    const cell = cellOf(event);
    if (!cell) return;
    for (const row of view.cells) for (const td of row) td.tabIndex = -1;
    view.cells[cell.row][cell.col].tabIndex = 0;
    point(cell, { hover: false });
  };
  // Focus leaving the grid ends the highlight it started.
  const onBlur = (event) => {
    if (!parts.table.contains(event.relatedTarget)) point(null, { hover: false });
  };
  const onKey = (event) => {
    if (!view.cells.length || !cellOf(event)) return;
    const size = { rows: view.cells.length, cols: view.cells[0].length, pages: true };
    const moved = moveCursor(view.cursor, event.key, size);
    if (!moved) return;
    event.preventDefault();
    view.cells[moved.row][moved.col].focus();
  };
  return [
    [parts.tabList, 'click', onTabClick],
    [parts.tabList, 'keydown', onTabKey],
    [parts.table, 'pointerover', onOver],
    [parts.table, 'pointerleave', onLeave],
    [parts.table, 'focusin', onFocus],
    [parts.table, 'focusout', onBlur],
    [parts.table, 'keydown', onKey],
  ];
}
