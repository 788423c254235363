// Draws the training figure: its controls, progress line, the loss chart's frame (chart.js
// draws the chart), the three heads' attention maps (magma cells, one pixel a cell scaled
// up, the probe's characters along both edges), each run's latest sample, the sentences and
// the data table.
// Every function takes what model.js computed; none decides.
import { heatBitmap } from '../../lib/grid.js';
import { visibleToken } from '../../lib/format.js';
import { cssColor } from '../../theme.js';
import { HEADS, MAX_STEPS, RUNS, WIDTHS } from './model.js';

export { createLossChart, drawChart } from './chart.js';

const MAP_SIZE = 264; // canvas pixels: a 24-character probe at 10 px a cell, and its labels
const MAP_MARGIN = 24;

function make(tag, attributes = {}, parent = null) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'text') node.textContent = value;
    else node.setAttribute(name, value);
  }
  parent?.append(node);
  return node;
}

function field(parent, id, label, control) {
  const wrap = make('div', { class: 'control' }, parent);
  make('label', { for: id, text: label }, wrap);
  wrap.append(control);
  const message = make('p', { class: 'message', id: `${id}-message`, 'aria-live': 'polite' }, wrap);
  control.setAttribute('aria-describedby', message.id);
  return { control, message };
}

function buildControls(root, uid, settings) {
  const box = make('div', { class: 'controls training__controls' }, root);
  const width = make('select', { id: `${uid}-d` });
  for (const d of WIDTHS) make('option', { value: String(d), text: String(d) }, width);
  const source = make('select', { id: `${uid}-source` });
  make('option', { value: 'shakespeare', text: 'Shakespeare' }, source);
  make('option', { value: 'pasted', text: 'Text I paste' }, source);
  const steps = make('input', {
    id: `${uid}-steps`,
    type: 'number',
    min: '10',
    max: String(MAX_STEPS),
    step: '10',
  });
  const rate = make('input', { id: `${uid}-rate`, type: 'number', min: '0', step: 'any' });
  rate.placeholder = 'the width’s own';
  const text = make('textarea', { id: `${uid}-text`, rows: '4', spellcheck: 'false' });
  const fields = {
    d: field(box, `${uid}-d`, 'Head width d', width),
    source: field(box, `${uid}-source`, 'Text to learn', source),
    steps: field(box, `${uid}-steps`, 'Steps', steps),
    learningRate: field(box, `${uid}-rate`, 'Learning rate (Adam; empty: the width’s own)', rate),
    text: field(box, `${uid}-text`, 'Your text', text),
  };
  fields.text.control.parentElement.classList.add('wide');
  showSettings(fields, settings);
  return fields;
}

// Puts settings (DEFAULT_SETTINGS' shape: a link's, or the first view's) into the controls.
export function showSettings(fields, settings) {
  fields.d.control.value = String(settings.d);
  fields.steps.control.value = String(settings.steps);
  fields.learningRate.control.value =
    settings.learningRate === null ? '' : String(settings.learningRate);
  fields.source.control.value = settings.source;
  fields.text.control.value = settings.text;
  fields.text.control.parentElement.hidden = settings.source !== 'pasted';
}

function buildButtons(root) {
  const row = make('div', { class: 'button-row training__buttons' }, root);
  const play = make('button', { type: 'button', text: 'Train the four models' }, row);
  const reset = make('button', { type: 'button', text: 'Reset' }, row);
  const bar = make('progress', { max: '1', value: '0', 'aria-label': 'Training progress' }, row);
  const status = make('p', { class: 'training__status', role: 'status' }, root);
  const printed = make('p', { class: 'print-only training__printed' }, root);
  const notice = make('p', { class: 'training__notice' }, root);
  return { play, reset, bar, status, printed, notice };
}

function buildChart(root) {
  const wrap = make('div', { class: 'training__chart' }, root);
  const placeholder = make(
    'p',
    {
      class: 'training__placeholder',
      text:
        'Press “Train the four models”: a line per model will fall here as each one learns, ' +
        'its held-out loss step by step.',
    },
    wrap,
  );
  const canvas = make(
    'canvas',
    { role: 'img', 'aria-label': 'Held-out loss: no training yet.' },
    wrap,
  );
  const legend = make('ul', { class: 'training__legend' }, root);
  for (const { key, label } of RUNS) {
    const item = make('li', {}, legend);
    make(
      'span',
      { class: `training__swatch training__swatch--${key}`, 'aria-hidden': 'true' },
      item,
    );
    item.append(label);
  }
  return { canvas, placeholder };
}

function buildMaps(root) {
  const row = make('div', { class: 'training__maps' }, root);
  row.hidden = true;
  const maps = {};
  for (const { key, label } of HEADS) {
    const figure = make('figure', { class: 'training__map' }, row);
    const canvas = make(
      'canvas',
      {
        width: String(MAP_SIZE),
        height: String(MAP_SIZE),
        role: 'img',
        'aria-label': `The ${label} head: not trained yet.`,
      },
      figure,
    );
    const caption = make('figcaption', {}, figure);
    make('strong', { text: label }, caption);
    const line = make('span', {}, caption);
    maps[key] = { canvas, line };
  }
  make(
    'p',
    {
      class: 'training__map-key',
      text:
        'Each map: a row per character of the text’s start (left edge), reading back over the ' +
        'characters before it (top edge); brighter is more attention. The model with no head has no map.',
    },
    row,
  );
  return { row, maps };
}

function buildSamples(root) {
  const details = make('div', { class: 'training__samples' }, root);
  details.hidden = true;
  make(
    'p',
    { class: 'training__samples-title', text: 'What each model writes, from the same seed:' },
    details,
  );
  const list = make('dl', {}, details);
  return { box: details, list };
}

function buildTable(root) {
  const details = make('details', { class: 'training__table' }, root);
  make('summary', { text: 'The numbers as a table' }, details);
  const table = make('table', {}, details);
  const head = make('tr', {}, make('thead', {}, table));
  for (const title of [
    'Model',
    'Step',
    'Training loss (last 10 steps)',
    'Held-out loss',
    'Peak weight',
    'Query gradient, step 1',
  ])
    make('th', { scope: 'col', text: title }, head);
  return make('tbody', {}, table);
}

export function buildFigure(element, uid, settings) {
  const root = make('div', { class: 'training' }, element);
  const fields = buildControls(root, uid, settings);
  const buttons = buildButtons(root);
  const chart = buildChart(root);
  const maps = buildMaps(root);
  const samples = buildSamples(root);
  const findings = make('div', { class: 'training__findings', 'aria-live': 'polite' }, root);
  const body = buildTable(root);
  return { root, fields, ...buttons, chart, maps, samples, findings, body };
}

// The probe's characters along the left (rows: the reading character) and top (columns: the
// character read) edges: drawn once per run and theme, not with every map.
function drawLabels(context, probe, labelColour) {
  const cell = (MAP_SIZE - MAP_MARGIN) / probe.length;
  context.clearRect(0, 0, MAP_SIZE, MAP_SIZE);
  context.fillStyle = labelColour;
  context.font = `${Math.min(12, cell + 1)}px ui-monospace, monospace`;
  context.textAlign = 'center';
  context.textBaseline = 'middle';
  probe.forEach((token, i) => {
    const at = MAP_MARGIN + (i + 0.5) * cell;
    context.fillText(visibleToken(token), MAP_MARGIN / 2, at);
    context.fillText(visibleToken(token), at, MAP_MARGIN / 2);
  });
}

// The weights (T, T) as square cells of whole pixels: one pixel a cell, painted once (grid.js),
// scaled up without smoothing. Painting every screen pixel from the cell under it cost 92 ms
// of the main thread over a training run.
const cellBitmaps = new WeakMap(); // canvas -> its T×T bitmap, painted over
function drawCells(context, weights, T) {
  const side = T * Math.floor((MAP_SIZE - MAP_MARGIN) / T);
  const bitmap = heatBitmap(weights.subarray(0, T * T), T, 1, cellBitmaps.get(context.canvas));
  cellBitmaps.set(context.canvas, bitmap);
  context.imageSmoothingEnabled = false;
  context.drawImage(bitmap, MAP_MARGIN, MAP_MARGIN, side, side);
}

const labelled = new WeakMap(); // canvas -> the probe and colour its labels show

function drawMap(canvas, run, labelColour) {
  const context = canvas.getContext('2d');
  const labels = `${labelColour}\n${run.probe.join('')}`;
  if (labelled.get(canvas) !== labels) {
    drawLabels(context, run.probe, labelColour);
    labelled.set(canvas, labels);
  }
  if (run.weights) drawCells(context, run.weights, run.probe.length);
}

// What each element last showed, so a frame redraws only what changed (a map when its
// weights are new, the text boxes when their words are).
const shown = new WeakMap();
function changed(node, value) {
  if (shown.get(node) === value) return false;
  shown.set(node, value);
  return true;
}

// Forgets what was drawn, so that the next frame redraws everything (after a theme change).
export function forgetDrawn(parts) {
  for (const node of [parts.findings, parts.body, parts.samples.list]) shown.delete(node);
  for (const { canvas } of Object.values(parts.maps.maps)) {
    shown.delete(canvas);
    labelled.delete(canvas);
  }
}

export function drawMaps({ row, maps }, runs) {
  row.hidden = runs.length === 0;
  let labelColour = null; // read once a frame, and only when a map is repainted
  for (const run of runs) {
    if (!maps[run.key]) continue;
    const { canvas, line } = maps[run.key];
    if (changed(canvas, run.weights)) {
      labelColour ??= cssColor('--muted');
      drawMap(canvas, run, labelColour);
    }
    const probe = run.probe.map(visibleToken).join('');
    const at = run.latest?.step ?? 0;
    canvas.setAttribute(
      'aria-label',
      `Attention of the ${run.key} head over “${probe}” at step ${at}`,
    );
    line.textContent = run.status === 'failed' ? ` stopped: ${run.error}` : ` step ${at}`;
  }
}

// samples: model.samples(runs).
export function writeSamples({ box, list }, samples) {
  box.hidden = samples.length === 0;
  if (!changed(list, samples.map((sample) => `${sample.step}:${sample.text}`).join('\n'))) return;
  list.replaceChildren(
    ...samples.flatMap(({ key, label, step, text }) => {
      const term = make('dt', {
        class: `training__sample--${key}`,
        text: `${label}, step ${step}`,
      });
      return [term, make('dd', { text: text.replaceAll('\n', '↵') })];
    }),
  );
}

// The sentence over the chart while nothing has trained yet.
export function showPlaceholder({ placeholder }, shown) {
  placeholder.hidden = !shown;
}

// The live note (at most two sentences, data-note for npm run prose) and, folded under it,
// every finding with its numbers. The fold keeps its open state across rewrites.
export function writeFindings(box, note, sentences) {
  if (!changed(box, `${note.join('\n')}\n\n${sentences.join('\n')}`)) return;
  if (note.length === 0 && sentences.length === 0) {
    box.replaceChildren();
    return;
  }
  let more = box.querySelector('details');
  if (!more) {
    more = make('details', { class: 'training__more' });
    make('summary', { text: 'More from your run: the gradient, the attention, the spread' }, more);
  }
  more.hidden = sentences.length === 0;
  more.replaceChildren(more.firstChild, ...sentences.map((text) => make('p', { text })));
  const lead = make('p', { text: note.join(' ') });
  lead.dataset.note = 'training';
  lead.hidden = note.length === 0;
  box.replaceChildren(lead, more);
}

// Written only while the table is open (index.js draws again when it opens).
export function writeTable(body, rows) {
  if (!body.closest('details').open || !changed(body, JSON.stringify(rows))) return;
  body.replaceChildren(
    ...rows.map((row) => {
      const tr = make('tr');
      make('th', { scope: 'row', text: row.label }, tr);
      for (const cell of [row.step, row.trainingLoss, row.heldOutLoss, row.peak, row.firstGradient])
        make('td', { text: cell }, tr);
      return tr;
    }),
  );
}

export function writeMessages(fields, errors) {
  for (const [name, { control, message }] of Object.entries(fields)) {
    message.textContent = errors[name] ?? '';
    if (errors[name]) control.setAttribute('aria-invalid', 'true');
    else control.removeAttribute('aria-invalid');
  }
}
