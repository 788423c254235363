// The training figure's loss chart (Chart.js, only the line chart's parts): one line per run,
// held-out loss against step, each told apart by its colour, its dash and its marker, and
// named in the margin right of the plot at the height its line ends (a small plugin), labels
// nudged apart where lines end close together and kept inside the plot's height, so no label
// ever crosses a line or another label while the runs go on. Where the fitted axis leaves the
// lines' start out, a mark at its top says where they start.
// It draws what model.js computed: points, the y range, the accessible name.
import { Chart, LinearScale, LineController, LineElement, PointElement } from 'chart.js';
import { axisTick } from '../../lib/format.js';
import { INVERSE_D, INVERSE_SQRT_D, UNSCALED } from '../../lib/scale.js';
import { cssColor } from '../../theme.js';
import { NO_HEAD, RUNS } from './model.js';

Chart.register(LineController, LineElement, PointElement, LinearScale);

// Colour, dash and marker per run: a reader without colour still tells the lines apart.
const LINE_STYLES = Object.freeze({
  [INVERSE_SQRT_D]: { colour: '--accent-2', dash: [], marker: 'circle' },
  [UNSCALED]: { colour: '--accent', dash: [7, 4], marker: 'triangle' },
  [INVERSE_D]: { colour: '--accent-3', dash: [2, 3], marker: 'rect' },
  [NO_HEAD]: { colour: '--muted', dash: [12, 4, 2, 4], marker: 'crossRot' },
});

const LABEL_GAP = 13; // px between two end labels' baselines

// Labels at the lines' right ends, in the space the layout keeps free on the right; where two
// would overlap, the lower one moves down.
const endLabels = {
  id: 'trainingEndLabels',
  afterDatasetsDraw(chart) {
    const { ctx, chartArea } = chart;
    const ends = chart.data.datasets
      .map((dataset, i) => ({ dataset, point: chart.getDatasetMeta(i).data.at(-1) }))
      .filter(({ point }) => point && Number.isFinite(point.y))
      .map(({ dataset, point }) => ({ dataset, x: point.x, y: point.y }))
      .sort((a, b) => a.y - b.y);
    // Down from the top, then back up from the bottom edge, so no two labels overlap and none
    // leaves the plot.
    for (let i = 1; i < ends.length; i++)
      ends[i].y = Math.max(ends[i].y, ends[i - 1].y + LABEL_GAP);
    for (let i = ends.length - 1; i >= 0; i--) {
      const below = i === ends.length - 1 ? chartArea.bottom + LABEL_GAP : ends[i + 1].y;
      ends[i].y = Math.max(Math.min(ends[i].y, below - LABEL_GAP), chartArea.top);
    }
    ctx.save();
    ctx.font = '12px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    for (const { dataset, y } of ends) {
      ctx.fillStyle = dataset.borderColor;
      ctx.fillText(dataset.label, chartArea.right + 6, y);
    }
    ctx.restore();
  },
};

// "start: 4.08 ↑" above the plot (in the room its top padding keeps), over step 0, when the lines
// start above the axis: never on a line.
const startMark = {
  id: 'trainingStartMark',
  afterDatasetsDraw(chart) {
    const text = chart.options.plugins.trainingStartMark?.text;
    if (!text) return;
    const { ctx, chartArea } = chart;
    ctx.save();
    ctx.font = '12px system-ui, sans-serif';
    ctx.textBaseline = 'bottom';
    ctx.fillStyle = cssColor('--muted');
    ctx.fillText(text, chartArea.left, chartArea.top - 3);
    ctx.restore();
  },
};

export function createLossChart(canvas, steps) {
  const muted = cssColor('--muted');
  const line = cssColor('--line');
  const axis = (title, range) => ({
    type: 'linear',
    ...range,
    title: { display: true, text: title, color: muted },
    ticks: { color: muted, callback: axisTick },
    grid: { color: line },
  });
  return new Chart(canvas, {
    type: 'line',
    data: {
      datasets: RUNS.map(({ key, label }) => {
        const style = LINE_STYLES[key];
        const colour = cssColor(style.colour);
        return {
          label,
          data: [],
          borderColor: colour,
          backgroundColor: colour,
          borderDash: style.dash,
          pointStyle: style.marker,
          pointRadius: 3,
          borderWidth: 2,
        };
      }),
    },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      parsing: false,
      events: [],
      layout: { padding: { right: 78, top: 18 } },
      scales: {
        x: axis('step', { min: 0, max: steps }),
        y: axis('held-out loss (nats)', { min: 0, max: 5 }),
      },
    },
    plugins: [endLabels, startMark],
  });
}

// What the chart last drew, so a frame whose points, range and name are the same does not
// lay the chart out again (the points change only when the held-out windows are measured).
const drawn = new WeakMap();

// points: one array per run, in RUNS order; steps: the x axis's end; range: { min, max } of
// the y axis; start: the mark for where lines start above it, or null; label: the canvas's
// accessible name.
export function drawChart(chart, points, { steps, range, start, label }) {
  const key = JSON.stringify([points, steps, range, start, label]);
  if (drawn.get(chart) === key) return;
  drawn.set(chart, key);
  RUNS.forEach((_, i) => {
    chart.data.datasets[i].data = points[i];
  });
  chart.options.scales.x.max = steps;
  chart.options.scales.y.min = range.min;
  chart.options.scales.y.max = range.max;
  chart.options.plugins.trainingStartMark = { text: start };
  chart.update('none');
  chart.canvas.setAttribute('aria-label', label);
}
