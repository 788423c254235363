// Drawing the attention map's model: the magma heat map on a canvas (masked cells hatched so
// the triangle shows on a dark page too), the highlighted cell, the colour bar, the numbers
// table, the notes beside the map and the PNG with its title line.
import { magmaCss } from '../../lib/magma.js';
import { heatBitmap as bitmapOf, gridLayout, sizeCanvas } from '../../lib/grid.js';
import { segmentsToNodes } from '../../lib/glossary.js';
import { cssColor } from '../../theme.js';

// The plot side: as wide as the room allows, short enough that the map and a note fit on a
// laptop screen together. Not in the embedded view (embed.html): its window is as tall as its
// content, since the page around it sets the iframe to the height the view posts, so a map
// sized by that height sized itself by its own last drawing. Drawn while the iframe was still
// short (on a slow device, before the first map), it stayed 304 px wide in a 760 px iframe.
const MAX_PLOT = 620;
function maxPlot() {
  if (document.body.dataset.view === 'embed') return MAX_PLOT;
  return Math.max(200, Math.min(MAX_PLOT, window.innerHeight - 200));
}

// The map's cells as a bitmap side pixels across (T×T, or max-pooled when side < T), painted
// over `previous` when it is the same size.
export function heatBitmap(result, top, side, previous) {
  return bitmapOf(result.weights, result.T, top, previous, side);
}

function drawHatching(context, box, T) {
  context.save();
  context.beginPath();
  // The region above the diagonal, cell edge by cell edge.
  context.moveTo(box.left + box.cell, box.top);
  for (let row = 0; row < T; row++) {
    context.lineTo(box.left + (row + 1) * box.cell, box.top + row * box.cell);
    context.lineTo(box.left + (row + 1) * box.cell, box.top + (row + 1) * box.cell);
  }
  context.lineTo(box.left + box.plot, box.top);
  context.closePath();
  context.clip();
  context.strokeStyle = cssColor('--masked-hatch');
  context.lineWidth = 1;
  for (let x = -box.plot; x < box.plot; x += 7) {
    context.moveTo(box.left + x, box.top + box.plot);
    context.lineTo(box.left + x + box.plot, box.top);
  }
  context.stroke();
  context.restore();
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

// labels: the bar's bottom, middle and top as printed (model.js colourBarLabels).
function drawColourBar(context, box, labels) {
  const x = box.left + box.plot + 14;
  const width = 12;
  // One gradient through 33 magma stops: a rectangle per pixel row cost 3 ms a redraw.
  const bar = context.createLinearGradient(0, box.top + box.plot, 0, box.top);
  for (let stop = 0; stop <= 32; stop++) bar.addColorStop(stop / 32, magmaCss(stop / 32));
  context.fillStyle = bar;
  context.fillRect(x, box.top, width, box.plot);
  context.fillStyle = cssColor('--text');
  context.font = '11px system-ui, sans-serif';
  context.textAlign = 'left';
  for (const [index, fraction] of [0, 0.5, 1].entries()) {
    context.fillText(labels[index], x + width + 4, box.top + box.plot * (1 - fraction));
  }
}

function drawHighlight(context, box, cell) {
  if (!cell) return;
  context.strokeStyle = cssColor('--focus');
  context.lineWidth = 2;
  context.strokeRect(
    box.left + cell.key * box.cell,
    box.top + cell.query * box.cell,
    box.cell,
    box.cell,
  );
}

// Draws the whole map; returns the geometry (for pointer hit-tests) and whether the plot has
// fewer device pixels across than the map has cells, so that each pixel shows the largest
// weight it covers (pooled). bitmapFor(side): heatBitmap() for a plot side device pixels
// across. room: the width (CSS pixels) the map may fill.
export function drawMap(canvas, { room, state, result, labels, barLabels, bitmapFor, highlight }) {
  const T = result.T;
  const showLabels = (room - 150) / T >= 9;
  const longest = showLabels ? Math.max(...labels.map((label) => Math.min(label.length, 8))) : 3;
  const box = gridLayout(room, T, longest, maxPlot());
  const context = sizeCanvas(canvas, box);
  const side = Math.round(box.plot * (window.devicePixelRatio || 1));
  context.fillStyle = cssColor('--surface');
  context.fillRect(0, 0, box.width, box.height);
  context.imageSmoothingEnabled = false;
  context.drawImage(bitmapFor(side), box.left, box.top, box.plot, box.plot);
  if (state.causal && T > 1) drawHatching(context, box, T);
  context.strokeStyle = cssColor('--line');
  context.strokeRect(box.left - 0.5, box.top - 0.5, box.plot + 1, box.plot + 1);
  drawAxes(context, box, labels, showLabels);
  drawColourBar(context, box, barLabels);
  drawHighlight(context, box, highlight);
  return { ...box, pooled: side < T };
}

// How many device pixels across the plot is for a map too large for token labels (its axes
// then carry up to three-digit indices): the same for every such map, whatever its T.
export function largeMapSide(room) {
  return Math.round(gridLayout(room, 1, 3, maxPlot()).plot * (window.devicePixelRatio || 1));
}

// Splits "a · b · c" into lines no wider than `width` at the context's font.
function wrapTitle(context, title, width) {
  const lines = [];
  for (const part of title.split(' · ')) {
    const last = lines.at(-1);
    if (last && context.measureText(`${last} · ${part}`).width <= width) {
      lines[lines.length - 1] = `${last} · ${part}`;
    } else lines.push(part);
  }
  return lines;
}

// The PNG: title lines with the settings above the map as drawn.
export function exportCanvas(canvas, title) {
  const ratio = canvas.width / Number.parseFloat(canvas.style.width || canvas.width);
  const font = `${Math.round(12 * ratio)}px system-ui, sans-serif`;
  const measure = document.createElement('canvas').getContext('2d');
  measure.font = font;
  const lines = wrapTitle(measure, title, canvas.width - 16 * ratio);
  const lineHeight = 16 * ratio;
  const band = Math.round(lines.length * lineHeight + 10 * ratio);
  const output = document.createElement('canvas');
  output.width = canvas.width;
  output.height = canvas.height + band;
  const context = output.getContext('2d');
  context.fillStyle = cssColor('--surface');
  context.fillRect(0, 0, output.width, output.height);
  context.fillStyle = cssColor('--text');
  context.font = font;
  context.textBaseline = 'top';
  for (const [index, line] of lines.entries()) {
    context.fillText(line, 8 * ratio, 6 * ratio + index * lineHeight);
  }
  context.drawImage(canvas, 0, band);
  return output;
}

function cell(tag, text, scope) {
  const element = Object.assign(document.createElement(tag), { textContent: text });
  if (scope) element.scope = scope;
  return element;
}

// The numbers table; the statistics columns stay pinned at the right edge while the keys
// scroll under them (class "stat").
export function buildTable(model) {
  const table = document.createElement('table');
  table.className = 'numbers map-numbers';
  table.createCaption().textContent = model.caption;
  const head = table.createTHead().insertRow();
  head.append(
    cell('th', 'query \\ key', 'col'),
    ...model.keys.map((key) => cell('th', key, 'col')),
  );
  for (const [index, name] of model.stats.entries()) {
    head.append(Object.assign(cell('th', name, 'col'), { className: `stat stat-${index}` }));
  }
  const body = table.createTBody();
  for (const row of model.rows) {
    const line = body.insertRow();
    line.append(cell('th', row.label, 'row'), ...row.weights.map((weight) => cell('td', weight)));
    for (const [index, value] of row.stats.entries()) {
      line.append(Object.assign(cell('td', value), { className: `stat stat-${index}` }));
    }
  }
  return table;
}

// The caption as sighted readers see it, with the sideways-scroll cue (shown by CSS only
// when the table is wider than its box).
export function tableCaption(model) {
  const caption = cell('p', `${model.caption}. `);
  caption.className = 'table-caption';
  caption.setAttribute('aria-hidden', 'true'); // the table's own <caption> says it to screen readers
  const cue = cell('span', 'Scroll sideways for more keys →; the last three columns stay put.');
  cue.className = 'scroll-cue';
  caption.append(cue);
  return caption;
}

// Marks the highlighted weight in the table (if the table shows it).
export function highlightTable(table, highlight) {
  table?.querySelector('td.highlighted')?.classList.remove('highlighted');
  if (!table || !highlight) return;
  const row = table.tBodies[0].rows[highlight.query];
  row?.cells[highlight.key + 1]?.classList.add('highlighted');
}

// A live note: a paragraph marked data-note, which the prose check finds and counts.
export function noteParagraph(text) {
  const paragraph = cell('p', text);
  paragraph.dataset.note = '';
  return paragraph;
}

// A folded block for the curious: { summary, text }.
function moreBlock(more) {
  const details = document.createElement('details');
  details.append(cell('summary', more.summary), cell('p', more.text));
  return details;
}

// A note with an optional one-click button and an optional folded block; note: { text,
// button?, action?, more? } or null. Rebuilt only when it changes, so a focused button is
// never swapped out under the keyboard.
export function renderActionNote(box, note, dispatch) {
  const key = note ? JSON.stringify(note) : '';
  if (box.dataset.noteKey === key) return;
  box.dataset.noteKey = key;
  box.hidden = !note;
  if (!note) {
    box.replaceChildren();
    return;
  }
  const parts = [noteParagraph(note.text)];
  if (note.more) parts.push(moreBlock(note.more));
  if (note.button) {
    const button = cell('button', note.button);
    button.type = 'button';
    // A note's button sets fields, or sends its own command (the grown head's 'grow').
    button.addEventListener('click', () =>
      dispatch(note.command ?? { type: 'set', fields: note.action }),
    );
    parts.push(button);
  }
  box.replaceChildren(...parts);
}

export function renderSegments(box, segments) {
  box.replaceChildren(...segmentsToNodes(segments));
}

export function renderNotices(box, notices, dispatch) {
  box.hidden = notices.length === 0;
  const lines = notices.map((text) => cell('p', text));
  if (notices.length) {
    const dismiss = cell('button', 'Dismiss');
    dismiss.type = 'button';
    dismiss.addEventListener('click', () => dispatch({ type: 'dismissNotices' }));
    lines.push(dismiss);
  }
  box.replaceChildren(...lines);
}
