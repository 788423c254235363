// Drawing for the four lines: the tab list of code lines, the grid of one line's
// intermediate, its legend, the scroll cue and the readout, each from the model's output.
import { STEPS } from './model.js';

const MARKUP = `
  <div class="fl-code-scroll">
    <div class="fl-code" role="tablist" aria-label="The four lines of attention" aria-orientation="vertical">
      ${STEPS.map(
        (_step, index) => `
        <button type="button" role="tab" class="fl-line" id="fl-tab-${index}" data-index="${index}"
                aria-controls="fl-panel" aria-selected="false" tabindex="-1">
          <span class="fl-number" aria-hidden="true">${index + 1}</span>
          <code class="fl-statement"></code>
          <span class="fl-comment"></span>
        </button>`,
      ).join('')}
    </div>
  </div>
  <p class="fl-code-cue" aria-hidden="true" hidden>Scroll the code sideways →</p>
  <div class="fl-panel" id="fl-panel" role="tabpanel">
    <p class="fl-input"></p>
    <p class="fl-summary"></p>
    <div class="fl-grid-wrap"><table class="fl-grid" role="grid" aria-readonly="true"></table></div>
    <p class="fl-scroll-cue" aria-hidden="true" hidden></p>
    <div class="fl-legend" aria-hidden="true">
      <span class="fl-legend-low"></span><span class="fl-legend-bar"></span><span class="fl-legend-high"></span>
      <span class="fl-legend-masked"><span class="fl-legend-swatch"></span>−∞ (masked)</span>
    </div>
    <div class="readout fl-readout" aria-live="polite"></div>
  </div>
`;

// Static markup only (tokens always go in through textContent).
export function buildFigure(element) {
  const root = document.createElement('div');
  root.className = 'four-lines';
  root.innerHTML = MARKUP;
  element.insertBefore(root, element.querySelector('figcaption'));
  const $ = (selector) => root.querySelector(selector);
  return {
    root,
    tabList: $('.fl-code'),
    tabs: [...root.querySelectorAll('[role="tab"]')],
    panel: $('.fl-panel'),
    input: $('.fl-input'),
    summary: $('.fl-summary'),
    wrap: $('.fl-grid-wrap'),
    table: $('.fl-grid'),
    cue: $('.fl-scroll-cue'),
    codeScroll: $('.fl-code-scroll'),
    codeCue: $('.fl-code-cue'),
    readout: $('.fl-readout'),
    legend: {
      bar: $('.fl-legend-bar'),
      low: $('.fl-legend-low'),
      high: $('.fl-legend-high'),
      masked: $('.fl-legend-masked'),
    },
  };
}

export function writeTabs(tabs, lines, step) {
  tabs.forEach((tab, index) => {
    tab.querySelector('.fl-statement').textContent = lines[index].code;
    tab.querySelector('.fl-comment').textContent = lines[index].comment;
    tab.classList.toggle('is-inactive', Boolean(lines[index].inactive));
    tab.setAttribute('aria-selected', String(index === step));
    tab.tabIndex = index === step ? 0 : -1;
  });
}

function headCell(text, dataset) {
  const th = document.createElement('th');
  th.textContent = text;
  Object.assign(th.dataset, dataset);
  return th;
}

function bodyRow(body, row, r, cursor) {
  const tr = body.insertRow();
  const th = headCell(row.label, { row: r });
  th.scope = 'row';
  tr.append(th);
  return row.cells.map((cell, c) => {
    const td = document.createElement('td');
    td.setAttribute('role', 'gridcell');
    Object.assign(td.dataset, { row: r, col: c });
    td.tabIndex = r === cursor.row && c === cursor.col ? 0 : -1;
    td.textContent = cell.text;
    if (cell.masked) td.classList.add('fl-masked');
    else Object.assign(td.style, { backgroundColor: cell.background, color: cell.color });
    tr.append(td);
    return td;
  });
}

// Rebuilds the table; returns cells[row][col].
export function writeGrid(table, grid, cursor, stepName) {
  table.replaceChildren();
  const caption = document.createElement('caption');
  caption.className = 'sr-only';
  caption.textContent = grid.caption;
  table.append(caption);
  table.setAttribute('aria-label', `${stepName} for the current input`);
  const head = table.createTHead().insertRow();
  const corner = headCell('', {});
  corner.className = 'fl-corner';
  for (const text of grid.corner)
    corner.append(Object.assign(document.createElement('span'), { textContent: text }));
  head.append(corner);
  grid.columns.forEach((text, c) => {
    const th = headCell(text, { col: c });
    th.scope = 'col';
    head.append(th);
  });
  const body = table.createTBody();
  return grid.rows.map((row, r) => bodyRow(body, row, r, cursor));
}

export function writeLegend(legend, grid, showMasked) {
  legend.bar.style.background = `linear-gradient(to right, ${grid.legend.stops.join(', ')})`;
  legend.low.textContent = grid.legend.low;
  legend.high.textContent = grid.legend.high;
  legend.masked.hidden = !showMasked;
}

// Marks the explained cell and its row and column labels; `shared` marks the pair
// highlighted elsewhere on the page.
export function markCells(table, cells, current, shared) {
  const is = (cell, r, c) => cell && cell.row === r && cell.col === c;
  cells.forEach((row, r) => {
    row.forEach((td, c) => {
      td.classList.toggle('is-current', is(current, r, c));
      td.classList.toggle('is-highlighted', is(shared, r, c));
    });
  });
  for (const th of table.querySelectorAll('th[data-row]'))
    th.classList.toggle('is-current', Number(th.dataset.row) === current?.row);
  for (const th of table.querySelectorAll('th[data-col]'))
    th.classList.toggle('is-current', Number(th.dataset.col) === current?.col);
}

// Shows a scroll cue only while its box is narrower than what it holds.
export function updateScrollCue(box, cue) {
  cue.hidden = !(box.scrollWidth > box.clientWidth + 1);
}
