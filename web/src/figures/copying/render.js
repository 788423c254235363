// Draws section 9: the live reading of the reader's text (a letter map), and the growth model: a
// Chart.js line chart (loss on the left axis, layer 2's induction score on the right), dashed
// lines where the head forms and where the recipe's mix changed, with their labels, and the
// numbers table.
import { Chart, LinearScale, LineController, LineElement, PointElement } from 'chart.js';
import { axisTick } from '../../lib/format.js';
import { drawLetterMap } from '../../lib/letter-map.js';
import { cssColor, letterMapColours } from '../../theme.js';

Chart.register(LineController, LineElement, PointElement, LinearScale);

// One dashed vertical mark at step, its label in text row `row` from the top of the plot, on the
// side `side` ('left' or 'right') of the line if it has room there, else on the other.
function drawMark(chart, step, label, row, side) {
  const { ctx, chartArea: area, scales } = chart;
  const x = scales.x.getPixelForValue(step);
  ctx.save();
  ctx.strokeStyle = cssColor('--text');
  ctx.setLineDash([4, 4]);
  ctx.beginPath();
  ctx.moveTo(x, area.top);
  ctx.lineTo(x, area.bottom);
  ctx.stroke();
  ctx.fillStyle = cssColor('--text');
  ctx.font = '12px system-ui, sans-serif';
  const width = ctx.measureText(label).width;
  const leftFits = x - 6 - width >= area.left;
  const rightFits = x + 6 + width <= area.right;
  const onLeft = side === 'left' ? leftFits || !rightFits : !rightFits && leftFits;
  ctx.textAlign = onLeft ? 'right' : 'left';
  ctx.fillText(label, x + (onLeft ? -6 : 6), area.top + 12 + 14 * row);
  ctx.restore();
}

// The marks of the chart's model (the one updateChart last gave it): where the head forms (its
// label after the line; none before it has) and, where the recipe changed its mix, that step (its
// label before the line, a row lower).
const formsPlugin = {
  id: 'copyingForms',
  afterDatasetsDraw(chart) {
    const model = chart.$copying;
    if (!model) return; // the first draw, inside the constructor
    if (model.formedAt !== null) drawMark(chart, model.formedAt, model.formedLabel, 0, 'right');
    if (model.mixAt !== null) drawMark(chart, model.mixAt, model.mixLabel, 1, 'left');
  },
};

const axisTitle = (text, color) => ({ display: true, text, color });
// Ticks formatted here, not by Chart.js's Intl.NumberFormat (lib/format.js axisTick).
const ticks = () => ({ callback: axisTick });

export function drawChart(canvas, model) {
  const loss = cssColor('--accent');
  const induction = cssColor('--accent-2');
  const line = (label, data, color, yAxisID) => ({
    label,
    data,
    yAxisID,
    borderColor: color,
    backgroundColor: color,
    pointRadius: 2,
    borderWidth: 2,
  });
  const chart = new Chart(canvas, {
    type: 'line',
    data: {
      datasets: [
        line('training loss', model.loss, loss, 'y'),
        line("layer 2's induction score", model.induction, induction, 'score'),
      ],
    },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      parsing: false,
      plugins: { legend: { display: false }, tooltip: { enabled: false } },
      scales: {
        x: {
          type: 'linear',
          min: 0,
          max: model.lastStep,
          ticks: ticks(),
          title: axisTitle('step'),
        },
        y: { type: 'linear', ticks: ticks(), title: axisTitle('training loss (nats)', loss) },
        score: {
          type: 'linear',
          position: 'right',
          min: 0,
          max: 1,
          ticks: ticks(),
          grid: { drawOnChartArea: false },
          title: axisTitle('induction score', induction),
        },
      },
    },
    plugins: [formsPlugin],
  });
  chart.$copying = model;
  chart.update('none');
  return chart;
}

// The live run's chart, redrawn with `model`'s points and marks (no animation).
export function updateChart(chart, model) {
  chart.$copying = model;
  chart.data.datasets[0].data = model.loss;
  chart.data.datasets[1].data = model.induction;
  chart.options.scales.x.max = model.lastStep;
  chart.update('none');
}

export function tableMarkup(rows) {
  const body = rows.map((cells) => `<tr>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`);
  return `<table><caption>The recorded run, every 50 steps</caption><thead><tr><th scope="col">step</th><th scope="col">training loss</th><th scope="col">layer 2's induction score</th></tr></thead><tbody>${body.join('')}</tbody></table>`;
}

// The live reading: the layer's map of the reader's text, with its letters on both sides.
export function drawReading({ scroller, canvas }, model, cache) {
  drawLetterMap(canvas, model, {
    width: scroller.clientWidth,
    height: Math.min(scroller.clientWidth, Math.round(0.6 * window.innerHeight)),
    colours: letterMapColours(),
    cache,
  });
  canvas.setAttribute(
    'aria-label',
    `The copying head's map of your ${model.T} letters. ${model.note}`,
  );
  canvas.dataset.peaks = model.peaks.join(); // where each row looks most: for the tests
}
