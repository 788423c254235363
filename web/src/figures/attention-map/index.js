// The live attention map: wires the model (model.js), its drawing (render.js) and its
// controls (controls.js) to the store. Hover, focus, arrow keys and taps dispatch the
// highlighted cell; every figure showing that query/key pair highlights it.
import './attention-map.css';
import '../experiments/experiments.css';
import { downloadCanvas, downloadCsv } from '../../lib/download.js';
import { numbersToggle } from '../../lib/numbers-toggle.js';
import { cellAt, moveCursor } from '../../lib/grid.js';
import { noteFor } from '../experiments/model.js';
import { baselineOf } from '../experiments/baseline.js';
import { renderNote } from '../experiments/render.js';
import { controlsMarkup, syncControls, wireControls } from './controls.js';
import { csvRows, exportTitle, inspectCell, mapModel, table } from './model.js';
import * as render from './render.js';

const MARKUP = (limits) => `
  <div class="notice" data-role="notices" hidden></div>
  <div class="map-layout">
    <div class="map-stage">
      <div class="map-canvas-wrap"><canvas class="map-canvas" tabindex="0" role="img"></canvas></div>
      <div class="readout" data-role="inspector" aria-live="polite">Point at, tap, or focus the map and use the arrow keys to read a cell.</div>
    </div>
    <div class="map-side">
      <div class="experiment-note" data-role="experiment-note" aria-live="polite" hidden></div>
      <div class="action-note recipe-note" data-role="recipe-note" hidden></div>
      <div class="controls">${controlsMarkup(limits)}</div>
    </div>
  </div>
  <p class="map-summary" data-role="summary"></p>
  <div class="button-row">
    <button type="button" data-role="toggle-table" aria-expanded="false" aria-controls="map-table">Show numbers</button>
    <button type="button" data-role="png">Download PNG</button>
    <button type="button" data-role="csv">Download weights CSV</button>
  </div>
  <div class="table-scroll sr-only" id="map-table" data-role="table-wrap" role="region" aria-label="Attention weights table"></div>`;

function pointerCell(canvas, box, T, event) {
  const rect = canvas.getBoundingClientRect();
  return cellAt(box, T, event.clientX - rect.left, event.clientY - rect.top);
}

export function mount(element, { core, dispatch }) {
  const root = document.createElement('div');
  root.className = 'attention-map';
  root.innerHTML = MARKUP(core.limits); // static markup; typed text only ever goes through .value/.textContent
  element.insertBefore(root, element.querySelector('figcaption'));
  const $ = (role) => root.querySelector(`[data-role="${role}"]`);
  const canvas = root.querySelector('.map-canvas');
  const inputs = wireControls(root, dispatch);
  let snapshot = null;
  let drawn = { result: null, bitmap: null, box: null };
  let cursor = { query: 0, key: 0 }; // this map's own keyboard and tap cursor
  let tableTimer = 0;

  function draw() {
    const model = snapshot && mapModel(snapshot);
    if (!model) return;
    const { state, result } = snapshot;
    if (drawn.result !== result) drawn = { result, bitmap: render.heatBitmap(result, model.top) };
    drawn.box = render.drawMap(canvas, {
      state,
      result,
      ...model,
      bitmap: drawn.bitmap,
      highlight: snapshot.highlight,
    });
    performance.mark('map-drawn'); // read by bench/page-speed.mjs
  }

  function showResult(model) {
    render.renderSegments($('summary'), model.summary);
    canvas.setAttribute('aria-label', model.ariaLabel);
    clearTimeout(tableTimer); // thousands of cells: built after the frame that shows the map
    tableTimer = setTimeout(() => {
      $('table-wrap').replaceChildren(render.buildTable(table(snapshot.result)));
      render.highlightTable($('table-wrap').firstChild, snapshot.highlight);
      markScrolling();
    }, 0);
  }

  function markScrolling() {
    const wrap = $('table-wrap');
    wrap.classList.toggle('scrolls', wrap.scrollWidth > wrap.clientWidth + 1);
  }

  function update(next) {
    const previous = snapshot;
    snapshot = next;
    syncControls(root, inputs, next.requested, next.errors);
    render.renderNotices($('notices'), next.notices, dispatch);
    const model = mapModel(next);
    if (!model) return;
    render.renderActionNote($('recipe-note'), model.recipe, dispatch);
    render.renderActionNote($('text-note'), model.textNote, dispatch);
    renderNote(
      $('experiment-note'),
      noteFor(next, (experiment) => baselineOf(core, experiment)),
      next.result.tokens,
    );
    if (!previous || previous.result !== next.result) showResult(model);
    if (!previous || previous.result !== next.result || previous.highlight !== next.highlight) {
      draw();
      $('inspector').textContent = next.highlight
        ? inspectCell(next.state, next.result, next.highlight)
        : 'Point at, tap, or focus the map and use the arrow keys to read a cell.';
      render.highlightTable($('table-wrap').firstChild, next.highlight);
    }
  }

  // The readout answers at once; the store's next snapshot then highlights the pair everywhere.
  const highlight = (cell) => {
    if (cell && snapshot?.result)
      $('inspector').textContent = inspectCell(snapshot.state, snapshot.result, cell);
    dispatch({ type: 'highlight', ...(cell ?? { query: null }) });
  };
  const onPointer = (event) => {
    const cell = drawn.box && pointerCell(canvas, drawn.box, snapshot.result.T, event);
    if (!cell) return;
    cursor = { query: cell.row, key: cell.col }; // the focus that follows a tap keeps this cell
    highlight(cursor);
  };
  const onLeave = (event) =>
    event.pointerType === 'mouse' && document.activeElement !== canvas && highlight(null);
  const onFocus = () => highlight(cursor);
  const onBlur = () => highlight(null);
  const onKey = (event) => {
    if (!snapshot?.result) return;
    const moved = moveCursor({ row: cursor.query, col: cursor.key }, event.key, snapshot.result.T);
    if (!moved) return;
    event.preventDefault();
    cursor = { query: moved.row, key: moved.col };
    highlight(cursor);
  };
  canvas.addEventListener('pointermove', onPointer);
  canvas.addEventListener('pointerdown', onPointer); // a tap on a phone
  canvas.addEventListener('pointerleave', onLeave);
  canvas.addEventListener('focus', onFocus);
  canvas.addEventListener('blur', onBlur);
  canvas.addEventListener('keydown', onKey);

  numbersToggle($('toggle-table'), $('table-wrap'));
  $('toggle-table').addEventListener('click', () => requestAnimationFrame(markScrolling));
  $('png').addEventListener('click', () =>
    downloadCanvas(render.exportCanvas(canvas, exportTitle(snapshot.state)), 'attention-map.png'),
  );
  $('csv').addEventListener('click', () =>
    downloadCsv(csvRows(snapshot.result), 'attention-weights.csv'),
  );

  const redraw = () => draw();
  const resize = new ResizeObserver(() => {
    draw();
    markScrolling();
  });
  resize.observe(canvas.parentElement);
  document.addEventListener('themechange', redraw);
  return {
    update,
    destroy() {
      clearTimeout(tableTimer);
      resize.disconnect();
      document.removeEventListener('themechange', redraw);
      root.remove(); // the canvas and controls go with their listeners
    },
  };
}
