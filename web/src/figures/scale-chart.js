// Section 5, "Why divide by √d": average peak attention weight (or entropy) against head
// width, for no scaling, 1/√d and 1/d, from core.scaleStudy().
//
// Two data modes: "Exactly the tutorial" (seed 0, one draw per width, T = 64, no mask,
// d = 4…256, the tutorial's own numbers: 0.88 and 0.11 at d = 256) and "Averaged" (d = 1…1024,
// N draws with a ±1 standard deviation band, T, mask and seed under the reader's control).
//
// Chart.js is tree-shaken: only the line controller, line and point elements and the linear
// scale are registered. The x axis is linear over log2(d) with ticks at the powers of two.
// The spread bands, the uniform reference line, the hover guide and the opaque background
// (for PNG export) are three small inline plugins instead of Filler, Legend and Tooltip,
// which would add about 10 KB gzipped; the legend is HTML and the hover readout is text.
import { numbersToggle } from '../lib/numbers-toggle.js';
import { Chart, LineController, LineElement, PointElement, LinearScale } from 'chart.js';
import { drawPoint } from 'chart.js/helpers';
import { fixed } from '../lib/format.js';
import { downloadCanvas, downloadCsv } from '../lib/download.js';
import { cssColor } from '../theme.js';
import './scale-chart.css';

Chart.register(LineController, LineElement, PointElement, LinearScale);

const TUTORIAL = Object.freeze({
  mode: 'tutorial',
  widths: [4, 8, 16, 32, 64, 128, 256],
  T: 64,
  draws: 1,
  causal: false,
  seed: 0,
});
const AVERAGED_WIDTHS = Array.from({ length: 11 }, (_, i) => 2 ** i); // 1 … 1024
const FIELDS = {
  draws: { name: 'Draws', low: 1, high: 200, initial: 32 },
  T: { name: 'T', low: 2, high: 1024, initial: 64 },
  seed: { name: 'Seed', low: 0, high: Number.MAX_SAFE_INTEGER, initial: 0 },
};
// The three curves, in the order the core returns them. Colour, dash and marker all differ,
// so the chart does not rely on colour alone.
const SERIES = [
  {
    key: 'none',
    label: 'no scaling',
    short: 'unscaled',
    color: '--accent',
    dash: [7, 4],
    point: 'circle',
    width: 2.25,
  },
  {
    key: 'sqrt',
    label: 'divided by √d',
    short: '1/√d',
    color: '--accent-2',
    dash: [],
    point: 'rectRot',
    width: 3,
  },
  {
    key: 'd',
    label: 'divided by d',
    short: '1/d',
    color: '--accent-3',
    dash: [2, 3],
    point: 'triangle',
    width: 2.25,
  },
];
const VIEWS = {
  peak: {
    mean: 'peakMean',
    spread: 'peakSpread',
    axis: 'average peak weight',
    caption: 'Average peak attention weight of a row',
  },
  entropy: {
    mean: 'entropyMean',
    spread: 'entropySpread',
    axis: 'average entropy (nats)',
    caption: 'Average entropy of a row, in nats',
  },
};
const SVG = 'http://www.w3.org/2000/svg';

let uid = 0;

function el(tag, props = {}, ...children) {
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

// A small drawing of a series' line and marker for the HTML legend, coloured by CSS.
function swatch(series) {
  const icon = svg('svg', {
    viewBox: '0 0 36 12',
    width: '36',
    height: '12',
    'aria-hidden': 'true',
    class: `scale-chart__swatch scale-chart__swatch--${series.key}`,
  });
  icon.append(
    svg('line', {
      x1: '1',
      y1: '6',
      x2: '35',
      y2: '6',
      'stroke-dasharray': series.dash.join(' ') || 'none',
    }),
  );
  const markers = {
    circle: () => svg('circle', { cx: '18', cy: '6', r: '3.5' }),
    rectRot: () => svg('path', { d: 'M18 1.5 L22.5 6 L18 10.5 L13.5 6 Z' }),
    triangle: () => svg('path', { d: 'M18 1.5 L22.5 10 L13.5 10 Z' }),
  };
  icon.append(markers[series.point]());
  return icon;
}

function wholeNumber(raw, { name, low, high }) {
  const text = String(raw).trim();
  const value = /^[+]?\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value) || value < low || value > high) {
    return { error: `${name} must be a whole number from ${low} to ${high}.` };
  }
  return { value };
}

// What a row would score if it spread its attention evenly over every token it may see:
// 1/T and ln T without the mask; with it, row i sees i + 1 tokens, so the average over rows.
function uniform(T, causal, view) {
  if (!causal) return view === 'peak' ? 1 / T : Math.log(T);
  let sum = 0;
  for (let visible = 1; visible <= T; visible += 1)
    sum += view === 'peak' ? 1 / visible : Math.log(visible);
  return sum / T;
}

function plural(count, one, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}

// Effective number of tokens, e^H, for the entropy sentence.
function tokensWorth(entropy) {
  const n = Math.exp(entropy);
  return Number.isFinite(n) ? (n < 10 ? n.toFixed(1) : String(Math.round(n))) : '—';
}

export function mount(element, { core }) {
  uid += 1;
  const id = `scale-chart-${uid}`;
  const caption = element.querySelector('figcaption');
  const cleanups = [];
  const listen = (target, type, handler, options) => {
    target.addEventListener(type, handler, options);
    cleanups.push(() => target.removeEventListener(type, handler, options));
  };

  // ---- DOM ------------------------------------------------------------------------------
  function segmented(name, legendText, choices) {
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

  const modeGroup = segmented('mode', 'Data', [
    ['tutorial', 'Exactly the tutorial'],
    ['averaged', 'Averaged'],
  ]);
  const viewGroup = segmented('view', 'Measure', [
    ['peak', 'Peak weight'],
    ['entropy', 'Entropy'],
  ]);
  modeGroup.inputs.tutorial.checked = true;
  viewGroup.inputs.peak.checked = true;

  // A text box (type anything; bad values get a message) paired with a slider.
  function numberControl(field, labelText, slider) {
    const inputId = `${id}-${field}`;
    const labelId = `${inputId}-label`;
    const messageId = `${inputId}-message`;
    const input = el('input', {
      type: 'text',
      id: inputId,
      inputMode: 'numeric',
      autocomplete: 'off',
      spellcheck: false,
      value: String(FIELDS[field].initial),
      'aria-describedby': messageId,
    });
    const range = slider
      ? el('input', {
          type: 'range',
          ...slider,
          'aria-labelledby': labelId,
          'aria-describedby': messageId,
        })
      : null;
    const message = el('p', { class: 'message', id: messageId, 'aria-live': 'polite' });
    const row = el('div', { class: 'scale-chart__number-row' }, input, range);
    const wrapper = el(
      'div',
      { class: `control${slider ? ' scale-chart__slider-control' : ''}` },
      el('label', { htmlFor: inputId, id: labelId }, labelText),
      row,
      message,
    );
    return { wrapper, input, range, message };
  }

  const controls = {
    draws: numberControl('draws', 'Draws per width', {
      min: '1',
      max: '200',
      step: '1',
      value: '32',
    }),
    T: numberControl('T', 'Tokens T', {
      min: '1',
      max: '10',
      step: '1',
      value: '6',
      'aria-valuetext': '64',
    }),
    seed: numberControl('seed', 'Seed', null),
  };
  const causalInput = el('input', { type: 'checkbox', id: `${id}-causal` });
  const causalControl = el(
    'div',
    { class: 'control scale-chart__check' },
    el('span', { class: 'label' }, 'Mask'),
    el(
      'label',
      { class: 'scale-chart__check-label', htmlFor: causalInput.id },
      causalInput,
      ' causal: look back only',
    ),
  );

  const tutorialNote = el(
    'p',
    { class: 'scale-chart__note' },
    'Seed 0, one random draw per width, 64 tokens, no mask: the tutorial’s own numbers, a little bumpy because each point is a single draw.',
  );

  const modesBox = el(
    'div',
    { class: 'scale-chart__modes' },
    modeGroup.fieldset,
    viewGroup.fieldset,
  );
  const controlsBox = el(
    'div',
    { class: 'controls scale-chart__controls' },
    controls.draws.wrapper,
    controls.T.wrapper,
    controls.seed.wrapper,
    causalControl,
  );

  const headline = el('p', { class: 'scale-chart__headline', 'aria-live': 'polite' }, 'Computing…');
  const legend = el(
    'ul',
    { class: 'scale-chart__legend', 'aria-label': 'Legend' },
    ...SERIES.map((series) => el('li', {}, swatch(series), series.label)),
  );
  const uniformIcon = svg('svg', {
    viewBox: '0 0 36 12',
    width: '36',
    height: '12',
    'aria-hidden': 'true',
    class: 'scale-chart__swatch scale-chart__swatch--uniform',
  });
  uniformIcon.append(
    svg('line', { x1: '1', y1: '6', x2: '35', y2: '6', 'stroke-dasharray': '4 4' }),
  );
  const uniformText = el('span', {}, 'uniform');
  legend.append(el('li', {}, uniformIcon, uniformText));
  const bandKey = el(
    'li',
    { class: 'scale-chart__band-key', hidden: true },
    el('span', { class: 'scale-chart__band-swatch', 'aria-hidden': 'true' }),
    '±1 standard deviation across draws',
  );
  legend.append(bandKey);

  const canvas = el('canvas', {
    role: 'img',
    'aria-label': 'Chart of the scale study; computing.',
  });
  const canvasWrap = el('div', { class: 'scale-chart__canvas' }, canvas);
  const readout = el('p', { class: 'scale-chart__readout' });
  const status = el('p', { class: 'scale-chart__status' });

  const tableId = `${id}-table`;
  const toggle = el(
    'button',
    { type: 'button', 'aria-expanded': 'false', 'aria-controls': tableId },
    'Show numbers',
  );
  const pngButton = el('button', { type: 'button' }, 'PNG');
  const csvButton = el('button', { type: 'button' }, 'CSV');
  const buttons = el(
    'div',
    { class: 'button-row scale-chart__buttons' },
    toggle,
    el('div', { class: 'scale-chart__export' }, el('span', {}, 'Download'), pngButton, csvButton),
  );
  pngButton.setAttribute('aria-label', 'Download the chart as PNG');
  csvButton.setAttribute('aria-label', 'Download the chart data as CSV');
  const table = el('table', { class: 'numbers' });
  const tableBox = el(
    'div',
    {
      class: 'table-scroll sr-only',
      id: tableId,
      role: 'region',
      'aria-label': 'Numbers behind the chart',
    },
    table,
  );

  const root = el(
    'div',
    { class: 'scale-chart' },
    modesBox,
    controlsBox,
    tutorialNote,
    headline,
    legend,
    canvasWrap,
    readout,
    buttons,
    status,
    tableBox,
  );
  element.insertBefore(root, caption);

  // ---- state ----------------------------------------------------------------------------
  let mode = 'tutorial';
  let view = 'peak';
  let causal = false;
  const raw = {
    draws: controls.draws.input.value,
    T: controls.T.input.value,
    seed: controls.seed.input.value,
  };
  let lastChanged = 'draws';
  let coreError = null; // { field, message } from the core for the averaged settings
  const cache = new Map(); // settings key -> { study, settings, ms }
  let shown = null; // what the chart shows now (the last good study)
  let visible = false;
  let pending = false; // averaged work waiting for the figure to scroll into view
  let frame = 0;
  let timer = 0;
  let computeTimer = 0;
  let wanted = ''; // the settings key the latest run() asked for
  let colors = {};

  function readColors() {
    colors = {
      text: cssColor('--text'),
      muted: cssColor('--muted'),
      line: cssColor('--line'),
      surface: cssColor('--surface'),
      none: cssColor('--accent'),
      sqrt: cssColor('--accent-2'),
      d: cssColor('--accent-3'),
      font: getComputedStyle(root).fontFamily || 'system-ui, sans-serif',
    };
  }
  readColors();

  // ---- chart ----------------------------------------------------------------------------
  // Opaque background, so an exported PNG reads in either theme.
  const backgroundPlugin = {
    id: 'scaleBackground',
    beforeDraw(chart) {
      const { ctx, width, height } = chart;
      ctx.save();
      ctx.fillStyle = colors.surface;
      ctx.fillRect(0, 0, width, height);
      ctx.restore();
    },
  };

  // ±1 standard deviation bands, the uniform reference line, and a guide at the hovered width.
  const overlayPlugin = {
    id: 'scaleOverlay',
    beforeDatasetsDraw(chart) {
      if (!shown) return;
      const {
        ctx,
        chartArea: area,
        scales: { x, y },
      } = chart;
      const { study, settings } = shown;
      const stats = VIEWS[view];
      ctx.save();
      ctx.beginPath();
      ctx.rect(area.left, area.top - 2, area.right - area.left, area.bottom - area.top + 4);
      ctx.clip();
      if (settings.draws > 1) {
        ctx.globalAlpha = 0.16;
        SERIES.forEach((series, s) => {
          if (!chart.isDatasetVisible(s)) return;
          const mean = study[series.key][stats.mean];
          const spread = study[series.key][stats.spread];
          const xs = Array.from(study.widths, (d) => x.getPixelForValue(Math.log2(d)));
          ctx.beginPath();
          xs.forEach((px, i) => {
            ctx.lineTo(px, y.getPixelForValue(mean[i] + spread[i]));
          });
          for (let i = xs.length - 1; i >= 0; i -= 1)
            ctx.lineTo(xs[i], y.getPixelForValue(Math.max(0, mean[i] - spread[i])));
          ctx.closePath();
          ctx.fillStyle = colors[series.key];
          ctx.fill();
        });
        ctx.globalAlpha = 1;
      }
      const level = uniform(settings.T, settings.causal, view);
      const py = y.getPixelForValue(level);
      ctx.strokeStyle = colors.muted;
      ctx.lineWidth = 1.25;
      ctx.setLineDash([4, 4]);
      ctx.beginPath();
      ctx.moveTo(area.left, py);
      ctx.lineTo(area.right, py);
      ctx.stroke();
      ctx.setLineDash([]);
      const active = chart.getActiveElements();
      if (active.length) {
        const px = x.getPixelForValue(Math.log2(study.widths[active[0].index]));
        ctx.strokeStyle = colors.line;
        ctx.lineWidth = 1;
        ctx.beginPath();
        ctx.moveTo(px, area.top);
        ctx.lineTo(px, area.bottom);
        ctx.stroke();
      }
      ctx.restore();
    },
    afterEvent(chart, args) {
      if (args.event.type === 'mouseout') showReadout(-1);
      else {
        const active = chart.getActiveElements();
        showReadout(active.length ? active[0].index : -1);
      }
    },
  };

  let xTicks = [];
  const chart = new Chart(canvas, {
    type: 'line',
    data: { datasets: SERIES.map((series) => ({ label: series.label, data: [] })) },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      parsing: false,
      normalized: true,
      interaction: { mode: 'index', intersect: false },
      layout: { padding: { top: 6, right: 10 } },
      plugins: { legend: { display: false }, tooltip: { enabled: false } },
      scales: {
        x: {
          type: 'linear',
          min: 1.7,
          max: 8.3,
          afterBuildTicks(axis) {
            axis.ticks = xTicks.map((value) => ({ value }));
          },
          ticks: { autoSkip: true, maxRotation: 0, callback: (value) => String(2 ** value) },
          title: { display: true, text: 'head width d (each step doubles)' },
        },
        y: {
          type: 'linear',
          min: 0,
          max: 1,
          ticks: { includeBounds: false, stepSize: 0.2 },
          title: { display: true, text: VIEWS.peak.axis },
        },
      },
    },
    plugins: [backgroundPlugin, overlayPlugin],
  });

  function styleChart() {
    const font = { family: colors.font, size: 12 };
    for (const axis of [chart.options.scales.x, chart.options.scales.y]) {
      axis.grid = { color: colors.line, tickColor: colors.line };
      axis.border = { color: colors.muted };
      axis.ticks.color = colors.muted;
      axis.ticks.font = font;
      axis.title.color = colors.text;
      axis.title.font = { ...font, size: 13 };
    }
    chart.data.datasets.forEach((dataset, s) => {
      const series = SERIES[s];
      const color = colors[series.key];
      Object.assign(dataset, {
        borderColor: color,
        backgroundColor: color,
        pointBackgroundColor: series.point === 'circle' ? colors.surface : color,
        pointBorderColor: color,
        pointBorderWidth: 2,
        borderWidth: series.width,
        borderDash: series.dash,
        pointStyle: series.point,
        pointRadius: series.point === 'circle' ? 3.5 : 4.5,
        pointHoverRadius: series.point === 'circle' ? 5.5 : 6.5,
        tension: 0,
      });
    });
  }

  // ---- settings and computing -----------------------------------------------------------
  function averagedSettings() {
    const errors = {};
    const values = {};
    for (const field of Object.keys(FIELDS)) {
      const checked = wholeNumber(raw[field], FIELDS[field]);
      if (checked.error) errors[field] = checked.error;
      else values[field] = checked.value;
    }
    return {
      errors,
      settings: {
        mode: 'averaged',
        widths: AVERAGED_WIDTHS,
        T: values.T,
        draws: values.draws,
        causal,
        seed: values.seed,
      },
    };
  }

  function showMessages(errors) {
    for (const field of Object.keys(FIELDS)) {
      const text =
        errors[field] || (coreError && coreError.field === field ? coreError.message : '');
      const { input, range, message } = controls[field];
      message.textContent = text;
      if (text) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
      if (range) {
        if (text) range.setAttribute('aria-invalid', 'true');
        else range.removeAttribute('aria-invalid');
      }
    }
  }

  const keyOf = (settings) =>
    JSON.stringify([settings.mode, settings.T, settings.draws, settings.causal, settings.seed]);

  // Coalesce: any number of changes within `delay` ms, then one animation frame, one study.
  function schedule(delay = 0) {
    clearTimeout(timer);
    const queue = () => {
      if (!frame) frame = requestAnimationFrame(run);
    };
    if (delay > 0) timer = setTimeout(queue, delay);
    else queue();
  }

  function run() {
    frame = 0;
    wanted = '';
    clearTimeout(computeTimer);
    canvasWrap.classList.remove('is-busy');
    let settings = TUTORIAL;
    if (mode === 'averaged') {
      const checked = averagedSettings();
      coreError = null;
      showMessages(checked.errors);
      if (Object.keys(checked.errors).length) {
        status.textContent = 'Showing the last good result; fix the value marked above.';
        return;
      }
      settings = checked.settings;
      const tooMuch = budgetMessage(settings);
      if (tooMuch) {
        coreError = { field: lastChanged === 'T' ? 'T' : 'draws', message: tooMuch };
        showMessages({});
        status.textContent = 'Showing the last good result; fix the value marked above.';
        return;
      }
    }
    const key = keyOf(settings);
    wanted = key;
    const cached = cache.get(key);
    if (cached) {
      show(cached);
      return;
    }
    // The averaged study is heavy (hundreds of millions of multiply-adds): only when seen.
    if (mode === 'averaged' && !visible) {
      pending = true;
      return;
    }
    pending = false;
    canvasWrap.classList.add('is-busy');
    status.textContent = 'Computing…';
    // Let "Computing…" paint before the core blocks the main thread.
    computeTimer = setTimeout(() => compute(settings, key), mode === 'averaged' ? 16 : 0);
  }

  function compute(settings, key) {
    canvasWrap.classList.remove('is-busy');
    if (key !== wanted) return; // the reader moved on before it started
    const started = performance.now();
    try {
      const study = core.scaleStudy(settings);
      const entry = { study, settings, ms: performance.now() - started };
      if (cache.size > 24) cache.delete(cache.keys().next().value);
      cache.set(key, entry);
      show(entry);
    } catch (error) {
      // The core's own message (e.g. the work budget), next to the control that caused it.
      const field = mode === 'averaged' && lastChanged !== 'causal' ? lastChanged : 'draws';
      coreError = { field, message: error.message };
      showMessages({});
      status.textContent = shown ? 'Showing the last good result.' : '';
      if (mode !== 'averaged') headline.textContent = `The study could not run: ${error.message}`;
    }
  }

  // The core refuses studies over its work budget (Σ T²·d·draws multiply-adds, see
  // core.limits); say so before asking it, with how many draws would fit at this T.
  function budgetMessage({ T, widths, draws }) {
    const limit = core.limits?.maxStudyMultiplyAdds;
    const perDraw = T * T * widths.reduce((sum, d) => sum + d, 0);
    if (!(limit > 0) || perDraw * draws <= limit) return '';
    const fits = Math.floor(limit / perDraw);
    const millions = (n) => `${Math.round(n / 1e6).toLocaleString('en-US')} million`;
    return (
      `Too much work: ${plural(draws, 'draw')} of ${T} tokens need ${millions(perDraw * draws)} multiply-adds; ` +
      `the limit is ${millions(limit)}. ` +
      (fits >= 1
        ? `With T = ${T}, at most ${fits === 1 ? '1 draw fits' : `${fits} draws fit`}.`
        : `Try a smaller T.`)
    );
  }

  // ---- drawing --------------------------------------------------------------------------
  function show(entry) {
    shown = entry;
    const { study, settings, ms } = entry;
    const stats = VIEWS[view];
    const lastIndex = study.widths.length - 1;
    xTicks = Array.from(study.widths, (d) => Math.log2(d));
    chart.options.scales.x.min = xTicks[0] - 0.3;
    chart.options.scales.x.max = xTicks[lastIndex] + 0.3;
    // Entropy runs from 0 to ln T (uniform); a little headroom above the dashed ln T line.
    const yMax = view === 'peak' ? 1 : Math.ceil(Math.log(settings.T) * 1.05 * 2) / 2;
    chart.options.scales.y.max = yMax;
    chart.options.scales.y.title.text = stats.axis;
    chart.options.scales.y.ticks.stepSize = view === 'peak' ? 0.2 : undefined;
    SERIES.forEach((series, s) => {
      const mean = study[series.key][stats.mean];
      chart.data.datasets[s].data = xTicks.map((x, i) => ({ x, y: mean[i] }));
    });
    styleChart();
    chart.update();

    bandKey.hidden = !(settings.draws > 1);
    uniformText.textContent = uniformLabel(settings);
    writeHeadline(entry);
    canvas.setAttribute('aria-label', describe(entry));
    writeTable(entry);
    showReadout(-1);
    status.textContent =
      settings.mode === 'tutorial'
        ? `Computed by the C++ core in ${Math.max(1, Math.round(ms))} ms.`
        : `${plural(settings.draws, 'draw')} per width, ${settings.T} tokens, mask ${settings.causal ? 'on' : 'off'}, seed ${settings.seed}: computed by the C++ core in ${Math.max(1, Math.round(ms))} ms.`;
  }

  // "uniform: 1/64 = 0.016", or the row average with the causal mask.
  function uniformLabel(settings) {
    const level = uniform(settings.T, settings.causal, view);
    const digits = view === 'peak' ? 3 : 2;
    if (settings.causal)
      return `uniform over the visible tokens (row average ${fixed(level, digits)})`;
    return view === 'peak'
      ? `uniform: 1/${settings.T} = ${fixed(level, digits)}`
      : `uniform: ln ${settings.T} = ${fixed(level, digits)}`;
  }

  // The PNG: a title, the chart, and the legend drawn under it (the page's legend is HTML).
  function exportCanvas() {
    const ratio = chart.currentDevicePixelRatio || 1;
    const u = (n) => n * ratio;
    const { settings } = shown;
    const out = document.createElement('canvas');
    const ctx = out.getContext('2d');
    const font = (size, weight = '') => `${weight} ${u(size)}px ${colors.font}`.trim();
    const entries = [
      ...SERIES.map((series) => ({ series, text: series.label })),
      { uniform: true, text: uniformLabel(settings) },
      ...(settings.draws > 1 ? [{ band: true, text: '±1 standard deviation across draws' }] : []),
    ];
    ctx.font = font(13);
    const pad = u(14);
    const rowHeight = u(22);
    const rows = [[]];
    let x = pad;
    for (const entry of entries) {
      entry.width = u(44) + ctx.measureText(entry.text).width + u(18);
      if (x + entry.width > canvas.width - pad && rows[rows.length - 1].length) {
        rows.push([]);
        x = pad;
      }
      rows[rows.length - 1].push(entry);
      x += entry.width;
    }
    const title = `${VIEWS[view].caption} against head width d; ${
      settings.mode === 'tutorial'
        ? 'exactly the tutorial (seed 0, one draw, T = 64)'
        : `${plural(settings.draws, 'draw')}, T = ${settings.T}, mask ${settings.causal ? 'on' : 'off'}, seed ${settings.seed}`
    }`;
    ctx.font = font(14, '600');
    const titleLines = [''];
    for (const word of title.split(' ')) {
      const line = titleLines[titleLines.length - 1];
      const next = line ? `${line} ${word}` : word;
      if (line && ctx.measureText(next).width > canvas.width - 2 * pad) titleLines.push(word);
      else titleLines[titleLines.length - 1] = next;
    }
    const top = pad + titleLines.length * u(20);
    out.width = canvas.width;
    out.height = top + u(6) + canvas.height + rows.length * rowHeight + pad;
    ctx.fillStyle = colors.surface;
    ctx.fillRect(0, 0, out.width, out.height);
    ctx.fillStyle = colors.text;
    ctx.font = font(14, '600');
    ctx.textBaseline = 'middle';
    titleLines.forEach((line, i) => {
      ctx.fillText(line, pad, pad + u(8) + i * u(20));
    });
    ctx.drawImage(canvas, 0, top + u(6));
    ctx.font = font(13);
    rows.forEach((row, r) => {
      const y = top + u(6) + canvas.height + r * rowHeight + rowHeight / 2;
      let left = pad;
      for (const entry of row) {
        ctx.save();
        if (entry.band) {
          ctx.globalAlpha = 0.3;
          ctx.fillStyle = colors.muted;
          ctx.fillRect(left, y - u(6), u(36), u(12));
        } else {
          const color = entry.uniform ? colors.muted : colors[entry.series.key];
          ctx.strokeStyle = color;
          ctx.fillStyle = color;
          ctx.lineWidth = u(entry.uniform ? 1.25 : entry.series.width);
          ctx.setLineDash((entry.uniform ? [4, 4] : entry.series.dash).map(u));
          ctx.beginPath();
          ctx.moveTo(left, y);
          ctx.lineTo(left + u(36), y);
          ctx.stroke();
          ctx.setLineDash([]);
          if (!entry.uniform) {
            const circle = entry.series.point === 'circle';
            ctx.fillStyle = circle ? colors.surface : color;
            ctx.lineWidth = u(2);
            drawPoint(
              ctx,
              {
                pointStyle: entry.series.point,
                radius: u(circle ? 3.5 : 4.5),
                rotation: 0,
                borderWidth: u(2),
              },
              left + u(18),
              y,
            );
          }
        }
        ctx.restore();
        ctx.fillStyle = colors.text;
        ctx.fillText(entry.text, left + u(44), y);
        left += entry.width;
      }
    });
    return out;
  }

  function value(key, series) {
    return el('strong', { class: `scale-chart__value scale-chart__value--${series}` }, key);
  }

  function writeHeadline({ study, settings }) {
    const i = study.widths.length - 1;
    const d = study.widths[i];
    const stats = VIEWS[view];
    const get = (series) => study[series][stats.mean][i];
    const level = uniform(settings.T, settings.causal, view);
    const where =
      settings.mode === 'tutorial'
        ? ''
        : ` (${settings.draws === 1 ? 'one draw' : `mean of ${settings.draws} draws`} of ${settings.T} tokens${settings.causal ? ', causal mask' : ''})`;
    const dVar = () => el('var', {}, 'd');
    const parts = [`At `, dVar(), ` = ${d}${where}, `];
    if (view === 'peak') {
      const uniformText = settings.causal
        ? `close to uniform, which with the mask averages ${fixed(level, 3)}`
        : `close to uniform, 1/${settings.T} = ${fixed(level, 3)}`;
      parts.push(
        'without scaling, a row puts ',
        value(fixed(get('none'), 2), 'none'),
        ' of its attention on a single token on average; divided by √',
        dVar(),
        ' it puts ',
        value(fixed(get('sqrt'), 2), 'sqrt'),
        '; divided by ',
        dVar(),
        ', ',
        value(fixed(get('d'), 2), 'd'),
        ` (${uniformText}).`,
      );
    } else {
      const uniformText = settings.causal
        ? `close to uniform, which with the mask averages ${fixed(level, 2)}`
        : `close to uniform, ln ${settings.T} = ${fixed(level, 2)}`;
      parts.push(
        'without scaling, a row’s attention has an entropy of ',
        value(fixed(get('none'), 2), 'none'),
        ` nats, as if spread over ${tokensWorth(get('none'))} tokens; divided by √`,
        dVar(),
        ', ',
        value(fixed(get('sqrt'), 2), 'sqrt'),
        ` nats (${tokensWorth(get('sqrt'))} tokens); divided by `,
        dVar(),
        ', ',
        value(fixed(get('d'), 2), 'd'),
        ` nats (${uniformText}).`,
      );
    }
    headline.replaceChildren(...parts);
  }

  // The canvas's label: the finding, in words, with the live numbers.
  function describe({ study, settings }) {
    const stats = VIEWS[view];
    const digits = 2;
    const n = study.widths.length;
    const range = view === 'peak' ? 1 : Math.log(settings.T);
    const trend = (key) => {
      const mean = Array.from(study[key][stats.mean]);
      const first = mean[0];
      const last = mean[n - 1];
      if (Math.abs(last - first) < 0.25 * Math.max(first, last, 0.01 * range)) {
        return `stays between ${fixed(Math.min(...mean), digits)} and ${fixed(Math.max(...mean), digits)}`;
      }
      return `${last > first ? 'rises' : 'falls'} from ${fixed(first, digits)} to ${fixed(last, digits)}`;
    };
    const what =
      view === 'peak' ? 'average peak attention weight' : 'average attention entropy in nats';
    const level = uniform(settings.T, settings.causal, view);
    const source =
      settings.mode === 'tutorial'
        ? 'the tutorial’s single draw per width'
        : `the mean of ${plural(settings.draws, 'draw')} per width with a band of one standard deviation`;
    return (
      `Line chart of ${what} against head width d from ${study.widths[0]} to ${study.widths[n - 1]}, doubling each step, ` +
      `for ${settings.T} tokens (${source}). Without scaling it ${trend('none')}; divided by the square root of d it ${trend('sqrt')}; ` +
      `divided by d it ${trend('d')}, near uniform attention (${fixed(level, view === 'peak' ? 3 : 2)}).`
    );
  }

  function writeTable({ study, settings }) {
    const stats = VIEWS[view];
    const spread = settings.draws > 1;
    const captionText = `${stats.caption} against head width d, ${
      settings.mode === 'tutorial'
        ? 'exactly the tutorial (seed 0, one draw, 64 tokens, no mask)'
        : `${spread ? `mean ± one standard deviation over ${settings.draws} draws` : 'one draw'} of ${settings.T} tokens, mask ${settings.causal ? 'on' : 'off'}, seed ${settings.seed}`
    }.`;
    const head = el(
      'tr',
      {},
      el('th', { scope: 'col' }, 'd'),
      ...SERIES.map((series) => el('th', { scope: 'col' }, series.short)),
    );
    const rows = Array.from(study.widths, (d, i) =>
      el(
        'tr',
        {},
        el('th', { scope: 'row' }, String(d)),
        ...SERIES.map((series) => {
          const mean = fixed(study[series.key][stats.mean][i], 3);
          return el(
            'td',
            {},
            spread ? `${mean} ± ${fixed(study[series.key][stats.spread][i], 3)}` : mean,
          );
        }),
      ),
    );
    table.replaceChildren(
      el('caption', {}, captionText),
      el('thead', {}, head),
      el('tbody', {}, ...rows),
    );
  }

  function showReadout(index) {
    if (!shown || index < 0) {
      readout.textContent = 'Point at or touch the chart to read the numbers at one width.';
      return;
    }
    const { study, settings } = shown;
    const stats = VIEWS[view];
    const digits = view === 'peak' ? 3 : 2;
    const parts = SERIES.map((series) => {
      const mean = fixed(study[series.key][stats.mean][index], digits);
      const sd =
        settings.draws > 1 ? ` ± ${fixed(study[series.key][stats.spread][index], digits)}` : '';
      return `${series.short} ${mean}${sd}`;
    });
    readout.textContent = `d = ${study.widths[index]}: ${parts.join(' · ')}`;
  }

  function setMode(next) {
    mode = next;
    controlsBox.hidden = mode !== 'averaged';
    tutorialNote.hidden = mode !== 'tutorial';
    if (mode === 'tutorial') {
      coreError = null;
      showMessages({});
    }
    schedule();
  }

  // ---- events ---------------------------------------------------------------------------
  for (const [value, input] of Object.entries(modeGroup.inputs))
    listen(input, 'change', () => input.checked && setMode(value));
  for (const [value, input] of Object.entries(viewGroup.inputs)) {
    listen(input, 'change', () => {
      if (!input.checked) return;
      view = value;
      if (shown) show(shown);
    });
  }

  const sliderToValue = { draws: (v) => v, T: (v) => 2 ** v };
  const valueToSlider = {
    draws: (v) => Math.min(200, Math.max(1, v)),
    T: (v) => Math.min(10, Math.max(1, Math.round(Math.log2(v)))),
  };

  for (const field of Object.keys(FIELDS)) {
    const { input, range } = controls[field];
    listen(input, 'input', () => {
      raw[field] = input.value;
      lastChanged = field;
      const checked = wholeNumber(input.value, FIELDS[field]);
      if (range && !checked.error) {
        range.value = String(valueToSlider[field](checked.value));
        range.setAttribute('aria-valuetext', String(checked.value));
      }
      schedule(400); // typing: wait for a pause
    });
    listen(input, 'change', () => schedule(0));
    if (!range) continue;
    const fromSlider = (delay) => () => {
      const next = sliderToValue[field](Number(range.value));
      input.value = String(next);
      range.setAttribute('aria-valuetext', String(next));
      raw[field] = input.value;
      lastChanged = field;
      schedule(delay);
    };
    listen(range, 'input', fromSlider(300)); // dragging: the box follows, the study waits
    listen(range, 'change', fromSlider(60)); // released (or a key press): soon
  }
  listen(causalInput, 'change', () => {
    causal = causalInput.checked;
    lastChanged = 'causal';
    schedule(0);
  });

  numbersToggle(toggle, tableBox);

  const fileStem = () => {
    if (!shown || shown.settings.mode === 'tutorial') return 'scale-study-tutorial';
    const s = shown.settings;
    return `scale-study-averaged-T${s.T}-draws${s.draws}${s.causal ? '-causal' : ''}-seed${s.seed}`;
  };
  listen(
    pngButton,
    'click',
    () => shown && downloadCanvas(exportCanvas(), `${fileStem()}-${view}.png`),
  );
  listen(csvButton, 'click', () => {
    if (!shown) return;
    const { study, settings } = shown;
    const rows = [
      [
        'd',
        'scale',
        'peak_mean',
        'peak_spread',
        'entropy_mean',
        'entropy_spread',
        'T',
        'draws',
        'causal',
        'seed',
      ],
    ];
    study.widths.forEach((d, i) => {
      for (const series of SERIES) {
        const s = study[series.key];
        rows.push([
          d,
          series.key,
          s.peakMean[i],
          s.peakSpread[i],
          s.entropyMean[i],
          s.entropySpread[i],
          settings.T,
          settings.draws,
          settings.causal ? 1 : 0,
          settings.seed,
        ]);
      }
    });
    downloadCsv(rows, `${fileStem()}.csv`);
  });

  listen(document, 'themechange', () => {
    readColors();
    styleChart();
    chart.update();
  });

  let observer = null;
  if (typeof IntersectionObserver === 'function') {
    observer = new IntersectionObserver(
      (entries) => {
        visible = entries.some((entry) => entry.isIntersecting);
        if (visible && pending) schedule(0);
      },
      { rootMargin: '200px 0px' },
    );
    observer.observe(element);
  } else {
    visible = true;
  }

  setMode('tutorial'); // the tutorial's study is small (2 million multiply-adds): at once

  return {
    destroy() {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
      clearTimeout(computeTimer);
      if (observer) observer.disconnect();
      for (const cleanup of cleanups) cleanup();
      chart.destroy();
      root.remove();
    },
  };
}
