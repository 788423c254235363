// Drawing for the √d chart: the controls, the HTML legend, the headline, the numbers table,
// and the readout. The Chart.js canvas and the PNG export live in chart.js.
import { SERIES } from './model.js';

const SVG = 'http://www.w3.org/2000/svg';

export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'class') node.className = value;
    else if (key in node && !key.includes('-')) node[key] = value;
    else node.setAttribute(key, value);
  }
  node.append(...children.filter((child) => child != null));
  return node;
}

function svg(tag, attributes = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  return node;
}

const MARKERS = {
  circle: () => svg('circle', { cx: '18', cy: '6', r: '3.5' }),
  rectRot: () => svg('path', { d: 'M18 1.5 L22.5 6 L18 10.5 L13.5 6 Z' }),
  triangle: () => svg('path', { d: 'M18 1.5 L22.5 10 L13.5 10 Z' }),
};

// A small drawing of a line (and marker) for the HTML legend, coloured by CSS.
function swatch(kind, dash, point) {
  const icon = svg('svg', {
    viewBox: '0 0 36 12',
    width: '36',
    height: '12',
    'aria-hidden': 'true',
    class: `scale-chart__swatch scale-chart__swatch--${kind}`,
  });
  icon.append(
    svg('line', {
      x1: '1',
      y1: '6',
      x2: '35',
      y2: '6',
      'stroke-dasharray': dash.join(' ') || 'none',
    }),
  );
  if (point) icon.append(MARKERS[point]());
  return icon;
}

function segmented(id, name, legendText, choices) {
  const group = el('div', { class: 'scale-chart__segmented' });
  const inputs = {};
  for (const [value, text] of choices) {
    const inputId = `${id}-${name}-${value}`;
    inputs[value] = el('input', { type: 'radio', name: `${id}-${name}`, id: inputId, value });
    group.append(inputs[value], el('label', { htmlFor: inputId }, text));
  }
  const fieldset = el(
    'fieldset',
    { class: 'control scale-chart__choice' },
    el('legend', { class: 'label' }, legendText),
    group,
  );
  return { fieldset, inputs };
}

// A text box (type anything; bad values get a message) with an optional slider.
function numberControl(id, field, labelText, slider) {
  const inputId = `${id}-${field}`;
  const messageId = `${inputId}-message`;
  const input = el('input', {
    type: 'text',
    id: inputId,
    inputMode: 'numeric',
    autocomplete: 'off',
    spellcheck: false,
    'aria-describedby': messageId,
  });
  const range = slider
    ? el('input', {
        type: 'range',
        ...slider,
        'aria-labelledby': `${inputId}-label`,
        'aria-describedby': messageId,
      })
    : null;
  const message = el('p', { class: 'message', id: messageId, 'aria-live': 'polite' });
  const wrapper = el(
    'div',
    { class: `control${slider ? ' scale-chart__slider-control' : ''}` },
    el('label', { htmlFor: inputId, id: `${inputId}-label` }, labelText),
    el('div', { class: 'scale-chart__number-row' }, input, range),
    message,
  );
  return { wrapper, input, range, message };
}

function buildControls(id) {
  const mode = segmented(id, 'mode', 'Data', [
    ['tutorial', 'Exactly the tutorial'],
    ['averaged', 'Averaged'],
  ]);
  const measure = segmented(id, 'measure', 'Measure', [
    ['peak', 'Peak weight'],
    ['entropy', 'Entropy'],
  ]);
  const fields = {
    draws: numberControl(id, 'draws', 'Draws per width', { min: '1', max: '200', step: '1' }),
    T: numberControl(id, 'T', 'Tokens T', { min: '1', max: '10', step: '1' }),
    seed: numberControl(id, 'seed', 'Seed', null),
  };
  const causal = el('input', { type: 'checkbox', id: `${id}-causal` });
  const causalControl = el(
    'div',
    { class: 'control scale-chart__check' },
    el('span', { class: 'label' }, 'Mask'),
    el(
      'label',
      { class: 'scale-chart__check-label', htmlFor: causal.id },
      causal,
      ' causal: look back only',
    ),
  );
  const box = el(
    'div',
    { class: 'controls scale-chart__controls' },
    fields.draws.wrapper,
    fields.T.wrapper,
    fields.seed.wrapper,
    causalControl,
  );
  const modes = el('div', { class: 'scale-chart__modes' }, mode.fieldset, measure.fieldset);
  return { mode, measure, fields, causal, box, modes };
}

function buildLegend() {
  const uniformText = el('span', {}, 'uniform');
  const bandKey = el(
    'li',
    { class: 'scale-chart__band-key', hidden: true },
    el('span', { class: 'scale-chart__band-swatch', 'aria-hidden': 'true' }),
    '±1 standard deviation across draws',
  );
  const list = el(
    'ul',
    { class: 'scale-chart__legend', 'aria-label': 'Legend' },
    ...SERIES.map((s) => el('li', {}, swatch(s.key, s.dash, s.point), s.label)),
    el('li', {}, swatch('uniform', [4, 4], null), uniformText),
    bandKey,
  );
  return { list, uniformText, bandKey };
}

function buildButtons(tableId) {
  const toggle = el(
    'button',
    { type: 'button', 'aria-expanded': 'false', 'aria-controls': tableId },
    'Show numbers',
  );
  const png = el('button', { type: 'button', 'aria-label': 'Download the chart as PNG' }, 'PNG');
  const csv = el(
    'button',
    { type: 'button', 'aria-label': 'Download the chart data as CSV' },
    'CSV',
  );
  const row = el(
    'div',
    { class: 'button-row scale-chart__buttons' },
    toggle,
    el('div', { class: 'scale-chart__export' }, el('span', {}, 'Download'), png, csv),
  );
  return { toggle, png, csv, row };
}

// Every element of the figure, inserted before the slot's caption.
export function buildFigure(element, id) {
  const controls = buildControls(id);
  const legend = buildLegend();
  const buttons = buildButtons(`${id}-table`);
  const parts = {
    controls,
    legend,
    buttons,
    tutorialNote: el(
      'p',
      { class: 'scale-chart__note' },
      'Seed 0, one random draw per width, 64 tokens, no mask: the tutorial’s own numbers, a little bumpy because each point is a single draw.',
    ),
    headline: el('p', { class: 'scale-chart__headline', 'aria-live': 'polite' }, 'Computing…'),
    trend: el('p', { class: 'scale-chart__trend' }),
    canvas: el('canvas', { role: 'img', 'aria-label': 'Chart of the scale study; computing.' }),
    readout: el('p', { class: 'scale-chart__readout' }),
    status: el('p', { class: 'scale-chart__status' }),
    table: el('table', { class: 'numbers' }),
  };
  parts.canvasWrap = el('div', { class: 'scale-chart__canvas' }, parts.canvas);
  parts.tableBox = el(
    'div',
    {
      class: 'table-scroll sr-only',
      id: `${id}-table`,
      role: 'region',
      'aria-label': 'Numbers behind the chart',
    },
    parts.table,
  );
  parts.root = el(
    'div',
    { class: 'scale-chart' },
    controls.modes,
    controls.box,
    parts.tutorialNote,
    parts.headline,
    parts.trend,
    legend.list,
    parts.canvasWrap,
    parts.readout,
    buttons.row,
    parts.status,
    parts.tableBox,
  );
  element.insertBefore(parts.root, element.querySelector('figcaption'));
  return parts;
}

// Headline parts from the model: strings, { variable } and { value, series }.
export function writeHeadline(node, parts) {
  node.replaceChildren(
    ...parts.map((part) => {
      if (typeof part === 'string') return part;
      if (part.variable) return el('var', {}, part.variable);
      return el(
        'strong',
        { class: `scale-chart__value scale-chart__value--${part.series}` },
        part.value,
      );
    }),
  );
}

export function writeTable(table, { caption, head, rows }) {
  const headRow = el('tr', {}, ...head.map((text) => el('th', { scope: 'col' }, text)));
  const bodyRows = rows.map(([first, ...cells]) =>
    el('tr', {}, el('th', { scope: 'row' }, first), ...cells.map((text) => el('td', {}, text))),
  );
  table.replaceChildren(
    el('caption', {}, caption),
    el('thead', {}, headRow),
    el('tbody', {}, ...bodyRows),
  );
}

// Messages beside the averaged study's fields; `messages` maps field -> text.
export function writeMessages(fields, messages) {
  for (const [field, { input, range, message }] of Object.entries(fields)) {
    const text = messages[field] || '';
    message.textContent = text;
    for (const node of [input, range]) {
      if (!node) continue;
      if (text) node.setAttribute('aria-invalid', 'true');
      else node.removeAttribute('aria-invalid');
    }
  }
}

// Puts the view state into the controls (they may be out of step after a reset).
export function writeControls(controls, view) {
  controls.mode.inputs[view.mode].checked = true;
  controls.measure.inputs[view.measure].checked = true;
  controls.causal.checked = view.causal;
  controls.box.hidden = view.mode !== 'averaged';
  for (const [field, { input, range }] of Object.entries(controls.fields)) {
    if (input.value !== view.raw[field]) input.value = view.raw[field];
    if (!range) continue;
    const value = Number(view.raw[field]);
    if (!Number.isFinite(value) || value < 1) continue;
    range.value = String(field === 'T' ? Math.round(Math.log2(value)) : value);
    range.setAttribute('aria-valuetext', view.raw[field]);
  }
}
