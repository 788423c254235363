// The live attention map: wires the model (model.js), its drawing (render.js) and its
// controls (controls.js) to the store. Hover, focus, arrow keys and taps dispatch the
// highlighted cell; every figure showing that query/key pair highlights it.
import './attention-map.css';
import { downloadCanvas, downloadCsv } from '../../lib/download.js';
import { numbersToggle } from '../../lib/numbers-toggle.js';
import { pictureFor } from '../../compute/pictures.js';
import { cellAt } from '../../lib/grid.js';
import { attachGridCursor } from '../../lib/grid-cursor.js';
import { controlsMarkup, syncControls, wireControls } from './controls.js';
import {
  cellScore,
  colourBarLabels,
  csvRows,
  exportTitle,
  inspectCell,
  mapModel,
  POOLED_NOTE,
  table,
} from './model.js';
import * as render from './render.js';

const MARKUP = (limits) => `
  <div class="notice" data-role="notices" hidden></div>
  <div class="map-layout">
    <div class="map-stage">
      <div class="map-canvas-wrap"><canvas class="map-canvas" tabindex="0" role="img"></canvas>
        <p class="computing" data-role="computing" role="status" hidden>Computing the new map…</p></div>
      <p class="pooled-note" data-role="pooled-note" data-note hidden>${POOLED_NOTE}</p>
      <p class="colour-note" data-role="colour-note" data-note hidden></p>
      <div class="readout" data-role="inspector" aria-live="polite"></div>
    </div>
    <div class="map-side">
      <div class="experiment-note" data-role="experiment-note" aria-live="polite" hidden></div>
      <div class="action-note recipe-note" id="map-recipe-note" data-role="recipe-note" hidden></div>
      <div class="controls">${controlsMarkup(limits)}</div>
    </div>
  </div>
  <p class="map-summary" data-role="summary" data-note></p>
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

const IDLE_READOUT = 'Point at, tap, or focus the map and use the arrow keys to read a cell.';

// The canvas and its cached bitmap (coloured once per result, colour scale and plot size;
// hover only rescales it). The room it may fill comes from the resize observer, so drawing never forces
// a layout. pooledNote is shown while the plot has fewer pixels across than the map has cells.
function canvasView(canvas, pooledNote, wants) {
  let cached = { result: null, width: 0, bitmap: null };
  let box = null;
  let room = 0;
  return {
    resize(width) {
      room = width;
    },
    draw(snapshot) {
      const model = snapshot && mapModel(snapshot);
      if (!model) return;
      const { state, result, highlight } = snapshot;
      const { top } = model.colours;
      // A map that fits keeps its T×T bitmap whatever the plot's size; a pooled one is remade
      // for a new size.
      const bitmapFor = (side) => {
        const painted = pictureFor(result, side, top);
        // Who painted the cells, for tests and the bench: 'worker' or 'page'.
        canvas.dataset.cellsPainted = painted ? 'worker' : 'page';
        if (painted) return painted;
        const width = Math.min(side, result.T);
        if (cached.result !== result || cached.width !== width || cached.top !== top)
          cached = {
            result,
            width,
            top,
            bitmap: render.heatBitmap(result, top, width, cached.bitmap),
          };
        return cached.bitmap;
      };
      const width = room || canvas.parentElement.clientWidth;
      wants?.want('map', render.largeMapSide(width), true);
      box = render.drawMap(canvas, {
        room: width,
        state,
        result,
        labels: model.labels,
        barLabels: colourBarLabels(model.colours),
        bitmapFor,
        highlight,
      });
      // The colour bar's top as drawn, for tests and tools that cannot read the canvas.
      canvas.dataset.colourTop = model.colours.label;
      pooledNote.hidden = !box.pooled;
      performance.mark('map-drawn'); // read by bench/page-speed.mjs
    },
    box: () => box,
  };
}

// The numbers table, built in the task after the frame that drew the map. Its scroll cue
// reads layout, so it is set when the observer reports new sizes (after the browser's own
// layout), never in the middle of an update where it would force one.
function tableView(wrap) {
  let timer = 0;
  // Measured inside the observer's delivery, where the layout is fresh (read later, in a frame
  // after other figures changed the page, it forced a layout of the whole page: 40 ms at start);
  // the cue is set in the next frame: one that changes a size inside the delivery makes Firefox
  // report a "ResizeObserver loop" error.
  const resize = new ResizeObserver(() => {
    const scrolls = wrap.scrollWidth > wrap.clientWidth + 1;
    requestAnimationFrame(() => wrap.classList.toggle('scrolls', scrolls));
  });
  resize.observe(wrap);
  return {
    show(result, highlight) {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const model = table(result);
        wrap.replaceChildren(render.tableCaption(model), render.buildTable(model));
        render.highlightTable(wrap.querySelector('table'), highlight);
        resize.observe(wrap.querySelector('table'));
      }, 0);
    },
    highlight: (highlight) => render.highlightTable(wrap.querySelector('table'), highlight),
    destroy() {
      clearTimeout(timer);
      resize.disconnect();
    },
  };
}

function wireExports($, canvas, current) {
  numbersToggle($('toggle-table'), $('table-wrap'));
  $('png').addEventListener('click', () =>
    downloadCanvas(render.exportCanvas(canvas, exportTitle(current().state)), 'attention-map.png'),
  );
  $('csv').addEventListener('click', () =>
    downloadCsv(csvRows(current().result), 'attention-weights.csv'),
  );
}

// What a note's button asks for: a 'grow' of the grown head, or the store's action.
const noteAction = (dispatch, grown) => (action) =>
  action.type === 'grow' ? grown?.grow(action.settings) : dispatch(action);

// showExperimentNote(box, snapshot): draws the note of the experiment on the map, if any, into
// the box beside it (the experiments figure's, handed over by main.js). grown: the page's grown
// head (figures/copying/grown-head.js), which the note's 'grow' command starts.
export function mount(
  element,
  { core, dispatch, pictures, grown = null, showExperimentNote = () => {} },
) {
  const root = document.createElement('div');
  root.className = 'attention-map';
  root.innerHTML = MARKUP(core.limits); // static markup; typed text only ever goes through .value/.textContent
  element.insertBefore(root, element.querySelector('figcaption'));
  const $ = (role) => root.querySelector(`[data-role="${role}"]`);
  const canvas = root.querySelector('.map-canvas');
  const inputs = wireControls(root, dispatch);
  const view = canvasView(canvas, $('pooled-note'), pictures);
  const numbers = tableView($('table-wrap'));
  let snapshot = null;
  const inspect = ({ state, result }, cell) =>
    inspectCell(state, result, cell, cellScore(result, cell, core.scoreOf));

  function update(next) {
    const previous = snapshot;
    snapshot = next;
    syncControls(root, inputs, next.requested, next.errors);
    // The last good map stays while a newer one computes in the background; the cue shows after 100 ms.
    $('computing').hidden = !next.pending;
    render.renderNotices($('notices'), next.notices, dispatch);
    const model = mapModel(next);
    if (!model) return;
    render.renderActionNote($('recipe-note'), model.recipe, noteAction(dispatch, grown));
    render.renderActionNote($('text-note'), model.textNote, dispatch);
    showExperimentNote($('experiment-note'), next);
    const stretched = model.colours.stretched;
    $('colour-note').hidden = !stretched;
    $('colour-note').textContent = stretched ? model.colours.words : '';
    canvas.setAttribute('aria-label', model.ariaLabel);
    if (previous?.result !== next.result) {
      render.renderSegments($('summary'), model.summary);
      numbers.show(next.result, next.highlight);
    }
    const sameDrawing =
      previous?.result === next.result && previous?.state?.stretch === next.state.stretch;
    if (sameDrawing && previous?.highlight === next.highlight) return;
    view.draw(next);
    $('inspector').textContent = next.highlight ? inspect(next, next.highlight) : IDLE_READOUT;
    numbers.highlight(next.highlight);
  }

  // The readout answers at once; the store's next snapshot then highlights the pair everywhere.
  const detachCursor = attachGridCursor(canvas, {
    size: () => (view.box() && snapshot?.result ? snapshot.result.T : 0),
    cellUnder: (event) => pointerCell(canvas, view.box(), snapshot.result.T, event),
    pick(cell) {
      const pair = cell && { query: cell.row, key: cell.col };
      if (pair) $('inspector').textContent = inspect(snapshot, pair);
      dispatch({ type: 'highlight', ...(pair ?? { query: null }) });
    },
  });
  wireExports($, canvas, () => snapshot);
  const redraw = () => view.draw(snapshot);
  // Only a new width redraws (the map's own drawing changes the height), and in the next frame:
  // resizing the canvas inside the observer's delivery makes Firefox report a loop error.
  let width = -1;
  const resize = new ResizeObserver(([entry]) => {
    if (entry.contentRect.width === width) return;
    width = entry.contentRect.width;
    view.resize(width);
    requestAnimationFrame(redraw);
  });
  resize.observe(canvas.parentElement);
  document.addEventListener('themechange', redraw);
  return {
    update,
    destroy() {
      numbers.destroy();
      detachCursor();
      resize.disconnect();
      document.removeEventListener('themechange', redraw);
      root.remove(); // the canvas and controls go with their listeners
    },
  };
}
