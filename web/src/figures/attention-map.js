// The live attention map: labelled controls for the map's state, the weights as a magma
// heatmap (rows = queries, columns = keys, colour from 0 to the largest weight, as in the
// tutorial's figure), a cell inspector driven by hover and keyboard, per-row statistics, a
// data table for screen readers and the "Show numbers" toggle, and PNG/CSV export.
import './attention-map.css';
import { LIMITS } from '../state.js';
import { compact, fixed, visibleToken } from '../lib/format.js';
import { downloadCanvas, downloadCsv } from '../lib/download.js';
import { numbersToggle } from '../lib/numbers-toggle.js';
import { magma, magmaCss } from '../lib/magma.js';
import { cssColor } from '../theme.js';

const TABLE_LIMIT = 24; // tokens; the CSV has them all

const CONTROLS = `
  <div class="notice" data-role="notices" hidden></div>
  <div class="controls">
    <div class="control wide">
      <label for="map-text">Text</label>
      <textarea id="map-text" rows="1" spellcheck="false" aria-describedby="map-text-message"></textarea>
      <div class="message" id="map-text-message" aria-live="polite"></div>
    </div>
    <div class="control">
      <label for="map-tokens">Tokens</label>
      <select id="map-tokens">
        <option value="chars">one per character</option>
        <option value="words">one per word or symbol</option>
      </select>
    </div>
    <div class="control">
      <label for="map-d">Head width d (1–${LIMITS.maxWidth})</label>
      <input id="map-d" type="text" inputmode="numeric" autocomplete="off" aria-describedby="map-d-message">
      <div class="message" id="map-d-message" aria-live="polite"></div>
    </div>
    <div class="control">
      <label for="map-seed">Seed</label>
      <input id="map-seed" type="text" inputmode="numeric" autocomplete="off" aria-describedby="map-seed-message">
      <div class="message" id="map-seed-message" aria-live="polite"></div>
    </div>
    <div class="control">
      <label for="map-scale">Scale the scores by</label>
      <select id="map-scale">
        <option value="sqrt">1/√d (standard)</option>
        <option value="d">1/d</option>
        <option value="none">nothing (unscaled)</option>
        <option value="custom">a factor I choose</option>
      </select>
    </div>
    <div class="control" data-role="factor-control">
      <label for="map-factor">Factor (like 1/temperature)</label>
      <div class="control-row">
        <input id="map-factor" type="range" min="-3" max="1" step="0.01" aria-describedby="map-scale-message">
        <output for="map-factor" id="map-factor-value"></output>
      </div>
      <div class="message" id="map-scale-message" aria-live="polite"></div>
    </div>
    <div class="control">
      <label for="map-vectors">Token vectors</label>
      <select id="map-vectors">
        <option value="position">random per position (tutorial)</option>
        <option value="token">one per distinct token</option>
      </select>
    </div>
    <div class="control checkboxes">
      <span class="label">Options</span>
      <label><input id="map-causal" type="checkbox"> Causal mask</label>
      <label><input id="map-pos" type="checkbox"> Add sinusoidal positions</label>
    </div>
  </div>
  <div class="map-canvas-wrap">
    <canvas class="map-canvas" tabindex="0" role="img"></canvas>
  </div>
  <div class="readout" data-role="inspector" aria-live="polite"></div>
  <p class="map-summary" data-role="summary"></p>
  <div class="button-row">
    <button type="button" data-role="toggle-table" aria-expanded="false" aria-controls="map-table">Show numbers</button>
    <button type="button" data-role="png">Download PNG</button>
    <button type="button" data-role="csv">Download weights CSV</button>
  </div>
  <div class="table-scroll sr-only" id="map-table" data-role="table-wrap" role="region" aria-label="Attention weights table"></div>
`;

// Geometry of the drawing, in CSS pixels.
function layout(width, T, longestLabel) {
  const labelSpace = Math.min(90, 18 + longestLabel * 8);
  const left = 22 + labelSpace,
    top = 8,
    right = 56,
    bottom = 26 + labelSpace;
  const plot = Math.max(40, Math.min(width - left - right, 620));
  return {
    left,
    top,
    plot,
    cell: plot / T,
    width: left + plot + right,
    height: top + plot + bottom,
  };
}

export function mount(element, { store }) {
  const root = document.createElement('div');
  root.className = 'attention-map';
  root.innerHTML = CONTROLS; // static markup only; everything a user types goes through textContent/value
  element.insertBefore(root, element.querySelector('figcaption'));

  const $ = (selector) => root.querySelector(selector);
  const inputs = {
    text: $('#map-text'),
    tokens: $('#map-tokens'),
    d: $('#map-d'),
    seed: $('#map-seed'),
    scale: $('#map-scale'),
    factor: $('#map-factor'),
    vectors: $('#map-vectors'),
    causal: $('#map-causal'),
    pos: $('#map-pos'),
  };
  const messages = {
    text: $('#map-text-message'),
    d: $('#map-d-message'),
    seed: $('#map-seed-message'),
    scale: $('#map-scale-message'),
  };
  const canvas = $('.map-canvas');
  const inspector = $('[data-role="inspector"]');
  const tableWrap = $('[data-role="table-wrap"]');
  const toggleTable = $('[data-role="toggle-table"]');
  let snapshot = store.get();
  let cursor = { row: 0, col: 0 };
  let drawnResult = null;
  let drawnBox = null;
  let tableTimer = 0;

  // ---- controls -> store ----------------------------------------------------------------
  const factorFromSlider = () => Number((10 ** Number(inputs.factor.value)).toPrecision(3));
  const send = (patch) => store.update(patch);
  inputs.text.addEventListener('input', () => send({ text: inputs.text.value }));
  inputs.d.addEventListener('input', () => send({ d: inputs.d.value }));
  inputs.seed.addEventListener('input', () => send({ seed: inputs.seed.value }));
  inputs.tokens.addEventListener('change', () => send({ tokens: inputs.tokens.value }));
  inputs.vectors.addEventListener('change', () => send({ vectors: inputs.vectors.value }));
  inputs.causal.addEventListener('change', () => send({ causal: inputs.causal.checked }));
  inputs.pos.addEventListener('change', () => send({ pos: inputs.pos.checked }));
  inputs.scale.addEventListener('change', () => {
    send({
      scale: inputs.scale.value === 'custom' ? String(factorFromSlider()) : inputs.scale.value,
    });
  });
  inputs.factor.addEventListener('input', () => send({ scale: String(factorFromSlider()) }));

  // ---- store -> controls ----------------------------------------------------------------
  function syncControls(state, errors) {
    const setValue = (input, value) => {
      // Leave a control alone while it holds a rejected value, so the person can fix it.
      if (!errors[input.id.replace('map-', '')] && input.value !== value) input.value = value;
    };
    setValue(inputs.text, state.text);
    setValue(inputs.d, String(state.d));
    setValue(inputs.seed, String(state.seed));
    inputs.tokens.value = state.tokens;
    inputs.vectors.value = state.vectors;
    inputs.causal.checked = state.causal;
    inputs.pos.checked = state.pos;
    const custom = typeof state.scale === 'number';
    inputs.scale.value = custom ? 'custom' : state.scale;
    root.querySelector('[data-role="factor-control"]').hidden = !custom;
    if (custom) {
      if (document.activeElement !== inputs.factor)
        inputs.factor.value = String(Math.log10(state.scale));
      $('#map-factor-value').textContent = `× ${compact(state.scale)}`;
    }
    for (const [field, box] of Object.entries(messages)) {
      box.textContent = errors[field] || '';
      const input = inputs[field];
      if (input) input.setAttribute('aria-invalid', errors[field] ? 'true' : 'false');
    }
  }

  function showNotices(notices) {
    const box = root.querySelector('[data-role="notices"]');
    box.hidden = notices.length === 0;
    box.replaceChildren(
      ...notices.map((text) => Object.assign(document.createElement('p'), { textContent: text })),
    );
    if (notices.length) {
      const dismiss = Object.assign(document.createElement('button'), {
        type: 'button',
        textContent: 'Dismiss',
      });
      dismiss.addEventListener('click', () => store.dismissNotices());
      box.append(dismiss);
    }
  }

  // ---- drawing ---------------------------------------------------------------------------
  // One pixel per weight, coloured once per result; hover and resize only scale it again.
  let cells = { result: null, canvas: null };
  function paintCells(result, top) {
    const T = result.T;
    const pixels = new ImageData(T, T);
    for (let i = 0; i < T * T; i++) {
      const [r, g, b] = magma(result.weights[i] / top);
      pixels.data[i * 4] = r;
      pixels.data[i * 4 + 1] = g;
      pixels.data[i * 4 + 2] = b;
      pixels.data[i * 4 + 3] = 255;
    }
    const canvas = document.createElement('canvas');
    canvas.width = T;
    canvas.height = T;
    canvas.getContext('2d').putImageData(pixels, 0, 0);
    return canvas;
  }

  function maxWeight(result) {
    let largest = 0;
    for (const w of result.weights) if (w > largest) largest = w;
    return largest || 1;
  }

  function draw() {
    const result = snapshot.result;
    if (!result) return;
    const T = result.T;
    const labels = result.tokens.map(visibleToken);
    const showLabels = (canvas.parentElement.clientWidth - 150) / T >= 9;
    const longest = showLabels ? Math.max(...labels.map((label) => Math.min(label.length, 8))) : 3;
    const box = layout(canvas.parentElement.clientWidth, T, longest);
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(box.width * ratio);
    canvas.height = Math.round(box.height * ratio);
    canvas.style.width = `${box.width}px`;
    canvas.style.height = `${box.height}px`;
    const context = canvas.getContext('2d');
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.fillStyle = cssColor('--surface');
    context.fillRect(0, 0, box.width, box.height);

    // The cells, scaled up without smoothing.
    const top = maxWeight(result);
    if (cells.result !== result) cells = { result, canvas: paintCells(result, top) };
    context.imageSmoothingEnabled = false;
    context.drawImage(cells.canvas, box.left, box.top, box.plot, box.plot);

    drawAxes(context, box, labels, showLabels);
    drawColourBar(context, box, top);
    drawCursor(context, box);
    drawnResult = result;
    drawnBox = box;
    performance.mark('map-drawn'); // read by bench/page-speed.mjs
  }

  function drawAxes(context, box, labels, showLabels) {
    const T = labels.length;
    context.fillStyle = cssColor('--text');
    context.font = '12px system-ui, sans-serif';
    context.textBaseline = 'middle';
    const step = showLabels ? 1 : Math.ceil(T / 12);
    for (let t = 0; t < T; t += step) {
      const text = showLabels ? labels[t].slice(0, 8) : String(t);
      const centre = (t + 0.5) * box.cell;
      context.textAlign = 'right';
      context.fillText(text, box.left - 6, box.top + centre);
      context.save();
      context.translate(box.left + centre, box.top + box.plot + 6);
      context.rotate(-Math.PI / 2);
      context.fillText(text, 0, 0);
      context.restore();
    }
    context.textAlign = 'center';
    context.font = '13px system-ui, sans-serif';
    context.fillStyle = cssColor('--muted');
    context.fillText('key position (attended to)', box.left + box.plot / 2, box.height - 10);
    context.save();
    context.translate(12, box.top + box.plot / 2);
    context.rotate(-Math.PI / 2);
    context.fillText('query position (attending)', 0, 0);
    context.restore();
  }

  function drawColourBar(context, box, top) {
    const x = box.left + box.plot + 14,
      width = 12;
    for (let y = 0; y < box.plot; y++) {
      context.fillStyle = magmaCss(1 - y / box.plot);
      context.fillRect(x, box.top + y, width, 1.5);
    }
    context.fillStyle = cssColor('--text');
    context.font = '11px system-ui, sans-serif';
    context.textAlign = 'left';
    for (const fraction of [0, 0.5, 1]) {
      context.fillText(
        fixed(top * fraction, 2),
        x + width + 4,
        box.top + box.plot * (1 - fraction),
      );
    }
  }

  function drawCursor(context, box) {
    if (document.activeElement !== canvas && !canvas.matches(':hover')) return;
    context.strokeStyle = cssColor('--focus');
    context.lineWidth = 2;
    context.strokeRect(
      box.left + cursor.col * box.cell,
      box.top + cursor.row * box.cell,
      box.cell,
      box.cell,
    );
  }

  // ---- inspection ------------------------------------------------------------------------
  function inspect() {
    const result = snapshot.result;
    if (!result) return;
    const T = result.T;
    const { row, col } = cursor;
    const index = row * T + col;
    const query = visibleToken(result.tokens[row]),
      key = visibleToken(result.tokens[col]);
    const masked = result.maskedScores[index] === -Infinity;
    const lines = [
      `query “${query}” (row ${row}) → key “${key}” (column ${col}): weight ${fixed(result.weights[index], 3)}`,
      masked
        ? `masked: key ${col} comes after query ${row}, so its score is −∞ and its weight exactly 0`
        : `q·k = ${compact(result.rawScores[index])}, × scale ${compact(result.scale)} = ${compact(result.scaledScores[index])}`,
      `row ${row}: peak weight ${fixed(result.peakWeight[row], 3)}, entropy ${fixed(result.entropy[row], 2)} nats, ` +
        `effective tokens ${fixed(result.effectiveTokens[row], 2)}`,
    ];
    inspector.textContent = lines.join('\n');
  }

  function summarise() {
    const result = snapshot.result;
    if (!result) return;
    const T = result.T;
    let effective = 0,
      peak = 0;
    for (let i = 0; i < T; i++) {
      effective += result.effectiveTokens[i];
      peak += result.peakWeight[i];
    }
    const scaleText =
      typeof snapshot.state.scale === 'number'
        ? `× ${compact(result.scale)}`
        : `scale ${compact(result.scale)}`;
    $('[data-role="summary"]').textContent =
      `${T} tokens, d = ${result.d}, ${scaleText}. On average a row puts ${fixed(peak / T, 2)} of its attention on ` +
      `its favourite token and spreads over ${fixed(effective / T, 2)} effective tokens. ` +
      `Computed in ${fixed(snapshot.computeMs, 1)} ms by the C++ core.`;
    canvas.setAttribute(
      'aria-label',
      `Attention map of ${T} tokens${snapshot.state.causal ? ' with the causal mask: the upper triangle is zero' : ' without a mask'}; ` +
        `the average peak weight per row is ${fixed(peak / T, 2)}. Use the arrow keys to read cells; the numbers table lists every weight.`,
    );
  }

  function buildTable() {
    const result = snapshot.result;
    if (!result) return;
    const T = Math.min(result.T, TABLE_LIMIT);
    const table = document.createElement('table');
    table.className = 'numbers';
    const caption = table.createCaption();
    caption.textContent =
      `Attention weights, rows = queries, columns = keys` +
      (result.T > TABLE_LIMIT
        ? ` (first ${TABLE_LIMIT} of ${result.T} tokens; the CSV has all)`
        : '');
    const head = table.createTHead().insertRow();
    head.append(
      Object.assign(document.createElement('th'), { textContent: 'query \\ key', scope: 'col' }),
    );
    for (let j = 0; j < T; j++)
      head.append(
        Object.assign(document.createElement('th'), {
          textContent: visibleToken(result.tokens[j]),
          scope: 'col',
        }),
      );
    for (const name of ['peak', 'entropy', 'effective'])
      head.append(Object.assign(document.createElement('th'), { textContent: name, scope: 'col' }));
    const body = table.createTBody();
    for (let i = 0; i < T; i++) {
      const row = body.insertRow();
      row.append(
        Object.assign(document.createElement('th'), {
          textContent: visibleToken(result.tokens[i]),
          scope: 'row',
        }),
      );
      for (let j = 0; j < T; j++)
        row.insertCell().textContent = fixed(result.weights[i * result.T + j], 3);
      row.insertCell().textContent = fixed(result.peakWeight[i], 3);
      row.insertCell().textContent = fixed(result.entropy[i], 3);
      row.insertCell().textContent = fixed(result.effectiveTokens[i], 2);
    }
    tableWrap.replaceChildren(table);
  }

  function render(next) {
    snapshot = next;
    syncControls(next.state, next.errors);
    showNotices(next.notices);
    if (next.result !== drawnResult && next.result) {
      cursor = {
        row: Math.min(cursor.row, next.result.T - 1),
        col: Math.min(cursor.col, next.result.T - 1),
      };
      draw();
      inspect();
      summarise();
      // Thousands of cells: built after the frame that shows the new map, not inside it.
      clearTimeout(tableTimer);
      tableTimer = setTimeout(buildTable, 0);
    }
  }

  // ---- cell inspection by pointer and keyboard -------------------------------------------
  function cellAt(event) {
    const rect = canvas.getBoundingClientRect();
    const T = drawnResult.T;
    const col = Math.floor((event.clientX - rect.left - drawnBox.left) / drawnBox.cell);
    const row = Math.floor((event.clientY - rect.top - drawnBox.top) / drawnBox.cell);
    return row >= 0 && col >= 0 && row < T && col < T ? { row, col } : null;
  }
  canvas.addEventListener('pointermove', (event) => {
    const cell = drawnResult && cellAt(event);
    if (cell && (cell.row !== cursor.row || cell.col !== cursor.col)) {
      cursor = cell;
      draw();
      inspect();
    }
  });
  canvas.addEventListener('pointerleave', draw);
  canvas.addEventListener('focus', () => {
    draw();
    inspect();
  });
  canvas.addEventListener('blur', draw);
  canvas.addEventListener('keydown', (event) => {
    if (!snapshot.result) return;
    const last = snapshot.result.T - 1;
    const moves = {
      ArrowUp: [-1, 0],
      ArrowDown: [1, 0],
      ArrowLeft: [0, -1],
      ArrowRight: [0, 1],
    };
    if (moves[event.key]) {
      cursor = {
        row: Math.min(last, Math.max(0, cursor.row + moves[event.key][0])),
        col: Math.min(last, Math.max(0, cursor.col + moves[event.key][1])),
      };
    } else if (event.key === 'Home') cursor = { row: cursor.row, col: 0 };
    else if (event.key === 'End') cursor = { row: cursor.row, col: last };
    else return;
    event.preventDefault();
    draw();
    inspect();
  });

  numbersToggle(toggleTable, tableWrap);
  $('[data-role="png"]').addEventListener('click', () =>
    downloadCanvas(canvas, 'attention-map.png'),
  );
  $('[data-role="csv"]').addEventListener('click', () => {
    const result = snapshot.result;
    if (!result) return;
    const rows = [['query \\ key', ...result.tokens]];
    for (let i = 0; i < result.T; i++) {
      rows.push([
        result.tokens[i],
        ...Array.from(result.weights.subarray(i * result.T, (i + 1) * result.T), (w) =>
          w.toFixed(6),
        ),
      ]);
    }
    downloadCsv(rows, 'attention-weights.csv');
  });

  const redraw = () => {
    if (snapshot.result) draw();
  };
  const resize = new ResizeObserver(redraw);
  resize.observe(canvas.parentElement);
  document.addEventListener('themechange', redraw);
  const unsubscribe = store.subscribe(render);
  render(store.get()); // the store may already hold a result when this figure mounts
  return {
    destroy() {
      clearTimeout(tableTimer);
      unsubscribe();
      resize.disconnect();
      document.removeEventListener('themechange', redraw);
    },
  };
}
