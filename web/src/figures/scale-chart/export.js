// The √d chart as a PNG: a title with the settings, the chart, and the legend drawn under it
// (on the page the legend is HTML, which a canvas export would lose).
import { drawPoint } from 'chart.js/helpers';
import { exportTitle, legendEntries } from './model.js';

function wrapWords(ctx, text, width) {
  const lines = [''];
  for (const word of text.split(' ')) {
    const line = lines[lines.length - 1];
    const next = line ? `${line} ${word}` : word;
    if (line && ctx.measureText(next).width > width) lines.push(word);
    else lines[lines.length - 1] = next;
  }
  return lines;
}

// Legend entries packed into rows that fit the canvas width.
function legendRows(ctx, entries, width, u) {
  const rows = [[]];
  let x = u(14);
  for (const entry of entries) {
    const entryWidth = u(44) + ctx.measureText(entry.text).width + u(18);
    if (x + entryWidth > width - u(14) && rows[rows.length - 1].length) {
      rows.push([]);
      x = u(14);
    }
    rows[rows.length - 1].push({ ...entry, width: entryWidth });
    x += entryWidth;
  }
  return rows;
}

function drawKey(ctx, entry, left, y, colors, u) {
  if (entry.band) {
    ctx.globalAlpha = 0.3;
    ctx.fillStyle = colors.muted;
    ctx.fillRect(left, y - u(6), u(36), u(12));
    return;
  }
  const color = entry.uniform ? colors.muted : colors[entry.series.key];
  ctx.strokeStyle = color;
  ctx.lineWidth = u(entry.uniform ? 1 : entry.series.width);
  ctx.setLineDash((entry.uniform ? [4, 4] : entry.series.dash).map(u));
  ctx.beginPath();
  ctx.moveTo(left, y);
  ctx.lineTo(left + u(36), y);
  ctx.stroke();
  ctx.setLineDash([]);
  if (entry.uniform) return;
  const circle = entry.series.point === 'circle';
  ctx.fillStyle = circle ? colors.surface : color;
  const style = { pointStyle: entry.series.point, rotation: 0, borderWidth: u(2) };
  drawPoint(ctx, { ...style, radius: u(circle ? 3.5 : 4.5) }, left + u(18), y);
}

export function exportCanvas(chart, canvas, { settings, measure, colors }) {
  const ratio = chart.currentDevicePixelRatio || 1;
  const u = (n) => n * ratio;
  const font = (size, weight = '') => `${weight} ${u(size)}px ${colors.font}`.trim();
  const out = document.createElement('canvas');
  const ctx = out.getContext('2d');
  ctx.font = font(13);
  const rows = legendRows(ctx, legendEntries(settings, measure), canvas.width, u);
  ctx.font = font(14, '600');
  const titleLines = wrapWords(ctx, exportTitle(settings, measure), canvas.width - u(28));
  const top = u(14) + titleLines.length * u(20) + u(6);
  out.width = canvas.width;
  out.height = top + canvas.height + rows.length * u(22) + u(14);
  ctx.fillStyle = colors.surface;
  ctx.fillRect(0, 0, out.width, out.height);
  ctx.fillStyle = colors.text;
  ctx.font = font(14, '600');
  ctx.textBaseline = 'middle';
  titleLines.forEach((line, i) => {
    ctx.fillText(line, u(14), u(22) + i * u(20));
  });
  ctx.drawImage(canvas, 0, top);
  ctx.font = font(13);
  rows.forEach((row, r) => {
    const y = top + canvas.height + r * u(22) + u(11);
    let left = u(14);
    for (const entry of row) {
      ctx.save();
      drawKey(ctx, entry, left, y, colors, u);
      ctx.restore();
      ctx.fillStyle = colors.text;
      ctx.fillText(entry.text, left + u(44), y);
      left += entry.width;
    }
  });
  return out;
}
