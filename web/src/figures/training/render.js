// Draws the training figure: its controls, progress line, loss chart (Chart.js, only the
// line chart's parts), the three heads' attention maps (the shared grid painter), the
// sentences and the data table. Every function takes what model.js computed; none decides.
import { Chart, LinearScale, LineController, LineElement, PointElement } from 'chart.js';
import { paintCells } from '../../lib/grid.js';
import { magma } from '../../lib/magma.js';
import { visibleToken } from '../../lib/format.js';
import { INVERSE_D, INVERSE_SQRT_D, UNSCALED } from '../../lib/scale.js';
import { cssColor } from '../../theme.js';
import { MAX_STEPS, RUNS, WIDTHS } from './model.js';

Chart.register(LineController, LineElement, PointElement, LinearScale);

const COLOUR_VARIABLES = {
  [INVERSE_SQRT_D]: '--accent-2',
  [UNSCALED]: '--accent',
  [INVERSE_D]: '--accent-3',
};

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
  width.value = String(settings.d);
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
  steps.value = String(settings.steps);
  const rate = make('input', { id: `${uid}-rate`, type: 'number', min: '0', step: 'any' });
  rate.value = String(settings.learningRate);
  const text = make('textarea', { id: `${uid}-text`, rows: '4', spellcheck: 'false' });
  const fields = {
    d: field(box, `${uid}-d`, 'Head width d', width),
    source: field(box, `${uid}-source`, 'Text to learn', source),
    steps: field(box, `${uid}-steps`, 'Steps', steps),
    learningRate: field(box, `${uid}-rate`, 'Learning rate (Adam)', rate),
    text: field(box, `${uid}-text`, 'Your text', text),
  };
  fields.text.control.parentElement.classList.add('wide');
  fields.text.control.parentElement.hidden = true;
  return fields;
}

function buildButtons(root) {
  const row = make('div', { class: 'button-row training__buttons' }, root);
  const play = make('button', { type: 'button', text: 'Train the three heads' }, row);
  const reset = make('button', { type: 'button', text: 'Reset' }, row);
  const bar = make('progress', { max: '1', value: '0', 'aria-label': 'Training progress' }, row);
  const status = make('p', { class: 'training__status', role: 'status' }, root);
  const notice = make('p', { class: 'training__notice' }, root);
  return { play, reset, bar, status, notice };
}

function buildChart(root) {
  const wrap = make('div', { class: 'training__chart' }, root);
  const canvas = make(
    'canvas',
    { role: 'img', 'aria-label': 'Training loss: no training yet.' },
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
  return canvas;
}

function buildMaps(root) {
  const row = make('div', { class: 'training__maps' }, root);
  const maps = {};
  for (const { key, label } of RUNS) {
    const figure = make('figure', { class: 'training__map' }, row);
    const canvas = make(
      'canvas',
      {
        width: '150',
        height: '150',
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
  return maps;
}

function buildTable(root) {
  const details = make('details', { class: 'training__table' }, root);
  make('summary', { text: 'The numbers as a table' }, details);
  const table = make('table', {}, details);
  const head = make('tr', {}, make('thead', {}, table));
  for (const title of [
    'Scale',
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
  const canvas = buildChart(root);
  const maps = buildMaps(root);
  const findings = make('div', { class: 'training__findings', 'aria-live': 'polite' }, root);
  const body = buildTable(root);
  return { root, fields, ...buttons, canvas, maps, findings, body };
}

export function createLossChart(canvas, steps, yMax) {
  const colours = Object.fromEntries(RUNS.map(({ key }) => [key, cssColor(COLOUR_VARIABLES[key])]));
  const muted = cssColor('--muted');
  const line = cssColor('--line');
  const axis = (title, max) => ({
    type: 'linear',
    min: 0,
    max,
    title: { display: true, text: title, color: muted },
    ticks: { color: muted },
    grid: { color: line },
  });
  return new Chart(canvas, {
    type: 'line',
    data: {
      datasets: RUNS.map(({ key, label }) => ({
        label,
        data: [],
        borderColor: colours[key],
        backgroundColor: colours[key],
        pointRadius: 0,
        borderWidth: 2,
      })),
    },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      parsing: false,
      events: [],
      scales: { x: axis('step', steps), y: axis('training loss (nats)', yMax) },
    },
  });
}

export function drawChart(chart, runs, label) {
  RUNS.forEach(({ key }, i) => {
    chart.data.datasets[i].data = runs.find((run) => run.key === key)?.points ?? [];
  });
  chart.update('none');
  chart.canvas.setAttribute('aria-label', label);
}

function drawMap(canvas, run) {
  const context = canvas.getContext('2d');
  context.clearRect(0, 0, canvas.width, canvas.height);
  if (!run.weights) return;
  const T = run.probe.length;
  const bitmap = paintCells(T, (row, col) => magma(run.weights[row * T + col]));
  context.imageSmoothingEnabled = false;
  context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
}

export function drawMaps(maps, runs) {
  for (const run of runs) {
    const { canvas, line } = maps[run.key];
    drawMap(canvas, run);
    const probe = run.probe.map(visibleToken).join('');
    canvas.setAttribute(
      'aria-label',
      `Attention of the ${run.key} head over “${probe}” at step ${run.step}`,
    );
    line.textContent = run.status === 'failed' ? ` stopped: ${run.error}` : ` step ${run.step}`;
  }
}

export function writeFindings(box, sentences) {
  box.replaceChildren(...sentences.map((text) => make('p', { text })));
}

export function writeTable(body, rows) {
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
