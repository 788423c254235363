// The √d chart's canvas: a tree-shaken Chart.js line chart (line controller, line and point
// elements, linear and logarithmic scales) and its PNG export. The ±1 standard deviation
// bands, the uniform line, the hover guide and the opaque background are small inline
// plugins instead of Filler, Legend and Tooltip, which would add about 10 KB gzipped.
import {
  Chart,
  LinearScale,
  LineController,
  LineElement,
  LogarithmicScale,
  PointElement,
} from 'chart.js';
import { cssColor } from '../../theme.js';
import { MEASURES, SERIES, uniformLevel } from './model.js';
import { INVERSE_D, INVERSE_SQRT_D, UNSCALED } from '../../lib/scale.js';

Chart.register(LineController, LineElement, PointElement, LinearScale, LogarithmicScale);

export function readColors(root) {
  return {
    text: cssColor('--text'),
    muted: cssColor('--muted'),
    line: cssColor('--line'),
    surface: cssColor('--surface'),
    [UNSCALED]: cssColor('--accent'),
    [INVERSE_SQRT_D]: cssColor('--accent-2'),
    [INVERSE_D]: cssColor('--accent-3'),
    font: getComputedStyle(root).fontFamily || 'system-ui, sans-serif',
  };
}

// Opaque background, so an exported PNG reads in either theme.
function backgroundPlugin(get) {
  return {
    id: 'scaleBackground',
    beforeDraw(chart) {
      const { ctx, width, height } = chart;
      ctx.save();
      ctx.fillStyle = get().colors.surface;
      ctx.fillRect(0, 0, width, height);
      ctx.restore();
    },
  };
}

function drawBands(chart, { study, measure, colors, y0 }) {
  const { ctx, scales } = chart;
  const { mean, spread } = MEASURES[measure];
  ctx.globalAlpha = 0.16;
  SERIES.forEach(({ key }) => {
    const m = study[key][mean];
    const s = study[key][spread];
    const xs = Array.from(study.widths, (d) => scales.x.getPixelForValue(Math.log2(d)));
    ctx.beginPath();
    xs.forEach((px, i) => {
      ctx.lineTo(px, scales.y.getPixelForValue(m[i] + s[i]));
    });
    for (let i = xs.length - 1; i >= 0; i -= 1)
      ctx.lineTo(xs[i], scales.y.getPixelForValue(Math.max(y0, m[i] - s[i])));
    ctx.closePath();
    ctx.fillStyle = colors[key];
    ctx.fill();
  });
  ctx.globalAlpha = 1;
}

// The uniform level: a thin grey dashed line under the curves, so the 1/d curve is drawn
// on top of it where the two meet.
function drawUniform(chart, { settings, measure, colors }) {
  const { ctx, chartArea: area, scales } = chart;
  const py = scales.y.getPixelForValue(uniformLevel(settings.T, settings.causal, measure));
  ctx.strokeStyle = colors.muted;
  ctx.lineWidth = 1;
  ctx.setLineDash([4, 4]);
  ctx.beginPath();
  ctx.moveTo(area.left, py);
  ctx.lineTo(area.right, py);
  ctx.stroke();
  ctx.setLineDash([]);
}

function drawGuide(chart, { study, colors }) {
  const active = chart.getActiveElements();
  if (!active.length) return;
  const { ctx, chartArea: area, scales } = chart;
  const px = scales.x.getPixelForValue(Math.log2(study.widths[active[0].index]));
  ctx.strokeStyle = colors.line;
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.moveTo(px, area.top);
  ctx.lineTo(px, area.bottom);
  ctx.stroke();
}

function overlayPlugin(get, onHover) {
  return {
    id: 'scaleOverlay',
    beforeDatasetsDraw(chart) {
      const shown = get();
      if (!shown.study) return;
      const { ctx, chartArea: area } = chart;
      ctx.save();
      ctx.beginPath();
      ctx.rect(area.left, area.top - 2, area.right - area.left, area.bottom - area.top + 4);
      ctx.clip();
      if (shown.settings.draws > 1) drawBands(chart, { ...shown, y0: chart.scales.y.min });
      drawUniform(chart, shown);
      drawGuide(chart, shown);
      ctx.restore();
    },
    afterEvent(chart, args) {
      const active = chart.getActiveElements();
      onHover(args.event.type === 'mouseout' || !active.length ? -1 : active[0].index);
    },
  };
}

const tickText = (value) => String(Number(value.toPrecision(3)));

// get() returns { study, settings, measure, colors, axes } for the chart as it is now.
export function createChart(canvas, get, onHover) {
  return new Chart(canvas, {
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
          afterBuildTicks(axis) {
            axis.ticks = (get().axes?.x.ticks || []).map((value) => ({ value }));
          },
          ticks: { autoSkip: true, maxRotation: 0, callback: (value) => String(2 ** value) },
          title: { display: true, text: 'head width d (each step doubles)' },
        },
        y: { type: 'linear', ticks: { callback: tickText }, title: { display: true, text: '' } },
      },
    },
    plugins: [backgroundPlugin(get), overlayPlugin(get, onHover)],
  });
}

function yScale(y, colors) {
  const font = { family: colors.font, size: 12 };
  return {
    type: y.type,
    min: y.min,
    max: y.max,
    afterBuildTicks: y.ticks
      ? (axis) => {
          axis.ticks = y.ticks.map((value) => ({ value }));
        }
      : undefined,
    ticks: { color: colors.muted, font, callback: tickText },
    grid: { color: colors.line, tickColor: colors.line },
    border: { color: colors.muted },
    title: { display: true, text: y.title, color: colors.text, font: { ...font, size: 13 } },
  };
}

function styleDataset(dataset, series, colors) {
  const color = colors[series.key];
  const circle = series.point === 'circle';
  Object.assign(dataset, {
    borderColor: color,
    backgroundColor: color,
    pointBackgroundColor: circle ? colors.surface : color,
    pointBorderColor: color,
    pointBorderWidth: 2,
    borderWidth: series.width,
    borderDash: series.dash,
    pointStyle: series.point,
    pointRadius: circle ? 3.5 : 4.5,
    pointHoverRadius: circle ? 5.5 : 6.5,
    tension: 0,
  });
}

// Redraws the chart for what get() returns now.
export function drawChart(chart, { study, measure, colors, axes }) {
  const font = { family: colors.font, size: 12 };
  const x = chart.options.scales.x;
  Object.assign(x, { min: axes.x.min, max: axes.x.max });
  x.grid = { color: colors.line, tickColor: colors.line };
  x.border = { color: colors.muted };
  Object.assign(x.ticks, { color: colors.muted, font });
  Object.assign(x.title, { color: colors.text, font: { ...font, size: 13 } });
  chart.options.scales.y = yScale(axes.y, colors);
  const { mean } = MEASURES[measure];
  SERIES.forEach((series, s) => {
    const dataset = chart.data.datasets[s];
    dataset.data = axes.x.ticks.map((value, i) => ({ x: value, y: study[series.key][mean][i] }));
    styleDataset(dataset, series, colors);
  });
  chart.update();
}
