// The whole operation in four lines: the four lines of code as a tab list; the selected line's
// live intermediate for the map's current input as a grid of coloured cells (rows = queries,
// columns = keys, or output dimensions for the last line); and a readout that plugs the real
// numbers of the pointed-at or focused cell into its formula. Every number comes from the
// store's last good core.attentionMap() result; this file only arranges and explains them.
import './four-lines.css';
import { compact, fixed, scientific, visibleToken } from '../lib/format.js';
import { magma } from '../lib/magma.js';
import { cssColor } from '../theme.js';

const MAX_TOKENS = 12; // rows and key columns shown
const MAX_DIMENSIONS = 8; // output columns shown
const TERMS_SHOWN = 3; // terms of a long sum written out in the readout
const NEGATIVE = [33, 102, 172]; // diverging ends (RdBu), blended from the page's surface colour
const POSITIVE = [178, 24, 43];
const DARK_TEXT = [29, 29, 31];
const LIGHT_TEXT = [255, 255, 255];
const SUBSCRIPTS = '₀₁₂₃₄₅₆₇₈₉';

const STEPS = [
  { name: 'scores', matrix: 'scaledScores', colours: 'diverging' },
  { name: 'mask', matrix: 'maskedScores', colours: 'diverging' },
  { name: 'weights', matrix: 'weights', colours: 'magma' },
  { name: 'output', matrix: 'output', colours: 'diverging' },
];

const MARKUP = `
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
  <div class="fl-panel" id="fl-panel" role="tabpanel">
    <p class="fl-summary"></p>
    <div class="fl-grid-wrap"><table class="fl-grid" role="grid" aria-readonly="true"></table></div>
    <div class="fl-legend" aria-hidden="true">
      <span class="fl-legend-low"></span><span class="fl-legend-bar"></span><span class="fl-legend-high"></span>
      <span class="fl-legend-masked"><span class="fl-legend-swatch"></span>−∞ (masked)</span>
    </div>
    <div class="readout fl-readout" aria-live="polite"></div>
  </div>
`;

// ---- numbers as people write them ---------------------------------------------------------
const minus = (text) => text.replace(/-/g, '−');
// Three decimals, or scientific when that would print as zero.
const plain = (value) =>
  minus(value !== 0 && Math.abs(value) < 0.001 ? scientific(value, 2) : fixed(value, 3));
const inParentheses = (value) => `(${plain(value)})`;
const significant = (value) =>
  Number.isFinite(value) ? minus(String(Number(value.toPrecision(3)))) : '—';
const subscript = (n) =>
  String(n)
    .split('')
    .map((digit) => SUBSCRIPTS[digit])
    .join('');
const quoted = (token) => `“${visibleToken(token)}”`;

// ---- colours -------------------------------------------------------------------------------
// Any CSS colour string as [r, g, b], through the browser's own parser.
const parser = document.createElement('canvas').getContext('2d');
function rgbOf(colour, fallback) {
  if (!parser || !colour) return fallback;
  parser.fillStyle = '#000000';
  parser.fillStyle = colour;
  const parsed = parser.fillStyle;
  if (parsed.startsWith('#'))
    return [1, 3, 5].map((start) => parseInt(parsed.slice(start, start + 2), 16));
  const match = parsed.match(/[\d.]+/g);
  return match ? match.slice(0, 3).map(Number) : fallback;
}

function luminance([r, g, b]) {
  const channel = (c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

// Dark or light text, whichever contrasts more with the background.
function textFor(background) {
  return contrast(background, DARK_TEXT) >= contrast(background, LIGHT_TEXT)
    ? DARK_TEXT
    : LIGHT_TEXT;
}

function contrast(a, b) {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

// Mid-tones (luminance near 0.2) reach 4.5:1 with neither black nor white text, so such a
// background is pulled toward white or black until its best text colour passes WCAG AA.
function readableBackground(background) {
  const text = textFor(background);
  const away = text === DARK_TEXT ? LIGHT_TEXT : DARK_TEXT;
  let adjusted = background;
  for (let t = 0.1; contrast(adjusted, text) < 4.5 && t <= 1; t += 0.1)
    adjusted = blend(background, away, t);
  return adjusted;
}

const css = ([r, g, b]) => `rgb(${Math.round(r)}, ${Math.round(g)}, ${Math.round(b)})`;
const blend = (from, to, t) => from.map((c, i) => c + (to[i] - c) * t);

// ---- the code lines, which follow the live scale and mask ---------------------------------
function scaleCode(scale) {
  if (scale === 'sqrt') return ' / sqrt(d)';
  if (scale === 'd') return ' / d';
  if (scale === 'none') return '';
  return ` * ${scale}`;
}

function codeLines(state) {
  return [
    {
      code: `scores  = q @ k.T${scaleCode(state.scale)}`,
      comment: '# how well each query fits each key',
    },
    {
      code: 'scores  = scores.masked_fill(mask, -inf)',
      comment: state.causal ? '# later tokens are off limits' : '# mask is off: nothing hidden',
    },
    { code: 'weights = softmax(scores, dim=-1)', comment: '# each row: shares adding to 1' },
    { code: 'out     = weights @ v', comment: '# blend the values by those shares' },
  ];
}

// "1/√d = 1/√24 = 0.204": the scale that was actually used, by name and value.
function scaleName(state, result) {
  const value = significant(result.scale);
  if (state.scale === 'sqrt') return `1/√d = 1/√${result.d} = ${value}`;
  if (state.scale === 'd') return `1/d = 1/${result.d} = ${value}`;
  if (state.scale === 'none') return 'none (factor 1)';
  return `a custom factor, ${value}`;
}

export function mount(element, { store }) {
  const root = document.createElement('div');
  root.className = 'four-lines';
  root.innerHTML = MARKUP; // static markup only; tokens go in through textContent
  element.insertBefore(root, element.querySelector('figcaption'));

  const $ = (selector) => root.querySelector(selector);
  const tabs = [...root.querySelectorAll('[role="tab"]')];
  const panel = $('.fl-panel');
  const summary = $('.fl-summary');
  const table = $('.fl-grid');
  const readout = $('.fl-readout');
  const legend = {
    root: $('.fl-legend'),
    low: $('.fl-legend-low'),
    bar: $('.fl-legend-bar'),
    high: $('.fl-legend-high'),
    masked: $('.fl-legend-masked'),
  };

  let snapshot = store.get();
  let step = 0;
  let active = { row: 0, col: 0 }; // the roving-tabindex cell, explained when nothing is hovered
  let hovered = null;
  let cells = []; // cells[row][col]
  let surface = [255, 255, 255];

  // ---- what one cell means, with its real numbers -----------------------------------------
  function cellLabel(result, row, col) {
    const { tokens } = result;
    if (STEPS[step].name === 'output')
      return `out${subscript(row)} (query ${quoted(tokens[row])}), dimension ${col}`;
    return `row ${row} (query ${quoted(tokens[row])}), column ${col} (key ${quoted(tokens[col])})`;
  }

  function explainScore(result, i, j) {
    const { T, d, q, k } = result;
    const terms = [];
    for (let c = 0; c < Math.min(d, TERMS_SHOWN); c += 1)
      terms.push(`${inParentheses(q[i * d + c])}${inParentheses(k[j * d + c])}`);
    const rest = d > TERMS_SHOWN ? ` + … ${d - TERMS_SHOWN} more` : '';
    const raw = result.rawScores[i * T + j];
    return [
      `q${subscript(i)}·k${subscript(j)} = Σ over ${d} dimension${d === 1 ? '' : 's'} c of q[${i}, c]·k[${j}, c]`,
      `      = ${terms.join(' + ')}${rest} = ${plain(raw)}`,
      `× scale ${scaleName(snapshot.state, result)} → ${plain(result.scaledScores[i * T + j])}`,
    ];
  }

  function explainMask(result, i, j) {
    const kept = plain(result.maskedScores[i * result.T + j]);
    if (!snapshot.state.causal) return [`The causal mask is off → kept: ${kept}`];
    if (j > i)
      return [`j = ${j} > i = ${i}: key ${quoted(result.tokens[j])} comes after this query → −∞`];
    return [
      `j = ${j} ≤ i = ${i}: key ${quoted(result.tokens[j])} is not in the future → kept: ${kept}`,
    ];
  }

  function explainWeight(result, i, j) {
    const { T } = result;
    const row = result.maskedScores.subarray(i * T, (i + 1) * T);
    let max = -Infinity;
    for (const score of row) if (score > max) max = score;
    let total = 0;
    for (const score of row) if (Number.isFinite(score)) total += Math.exp(score - max);
    const score = row[j];
    const weight = result.weights[i * T + j];
    if (!Number.isFinite(score)) {
      return [
        `exp(−∞ − max ${plain(max)}) = 0, so a masked key gets weight exactly ${plain(weight)}`,
      ];
    }
    const exp = Math.exp(score - max);
    return [
      `exp(${plain(score)} − max ${plain(max)}) / Σ row = ${plain(exp)} / ${plain(total)} = ${plain(weight)}`,
      "Subtracting the row's largest score first changes nothing but keeps exp() from overflowing.",
    ];
  }

  function explainOutput(result, i, c) {
    const { T } = result;
    const width = result.output.length / T;
    const keys = [];
    for (let j = 0; j < T; j += 1) if (result.weights[i * T + j] > 0) keys.push(j); // masked keys add exactly 0
    keys.sort((a, b) => result.weights[i * T + b] - result.weights[i * T + a]);
    const terms = keys
      .slice(0, TERMS_SHOWN)
      .map((j) => `${plain(result.weights[i * T + j])}·${inParentheses(result.v[j * width + c])}`);
    const rest = keys.length > TERMS_SHOWN ? ` + … ${keys.length - TERMS_SHOWN} more` : '';
    return [
      `out${subscript(i)}[${c}] = Σ over keys j of w[${i}, j] · v[j, ${c}], largest weights first`,
      `      = ${terms.join(' + ')}${rest} = ${plain(result.output[i * width + c])}`,
    ];
  }

  const EXPLAIN = {
    scores: explainScore,
    mask: explainMask,
    weights: explainWeight,
    output: explainOutput,
  };

  function showReadout() {
    const result = snapshot.result;
    if (!result || !cells.length) return;
    const target = hovered || active;
    const lines = EXPLAIN[STEPS[step].name](result, target.row, target.col);
    readout.textContent = [cellLabel(result, target.row, target.col), ...lines].join('\n');
    for (const [r, rowCells] of cells.entries()) {
      for (const [c, cell] of rowCells.entries())
        cell.classList.toggle('is-current', r === target.row && c === target.col);
    }
    table.querySelectorAll('th[data-row]').forEach((th) => {
      th.classList.toggle('is-current', Number(th.dataset.row) === target.row);
    });
    table.querySelectorAll('th[data-col]').forEach((th) => {
      th.classList.toggle('is-current', Number(th.dataset.col) === target.col);
    });
  }

  // ---- the grid -----------------------------------------------------------------------------
  // Weights: an exact 0 (a masked key, or one that underflowed) prints as "0", a tiny but
  // real weight as "<0.01" (the readout has its exact value), so the grid stays readable.
  function cellText(value) {
    if (STEPS[step].name !== 'weights') return compact(value);
    if (value === 0) return '0';
    return value < 0.005 ? '<0.01' : fixed(value, 2);
  }

  function shownShape(result) {
    const rows = Math.min(result.T, MAX_TOKENS);
    const isOutput = STEPS[step].name === 'output';
    const width = result.output.length / result.T;
    const cols = isOutput ? Math.min(width, MAX_DIMENSIONS) : rows;
    return { rows, cols, isOutput, width };
  }

  function colourScale(result, shape) {
    const { matrix, colours } = STEPS[step];
    // Both score lines share one range, so the mask visibly changes only the masked cells.
    const source = matrix === 'maskedScores' ? result.scaledScores : result[matrix];
    const stride = shape.isOutput ? shape.width : result.T;
    let low = Infinity,
      high = -Infinity;
    for (let r = 0; r < shape.rows; r += 1) {
      for (let c = 0; c < shape.cols; c += 1) {
        const value = source[r * stride + c];
        if (!Number.isFinite(value)) continue;
        low = Math.min(low, value);
        high = Math.max(high, value);
      }
    }
    if (colours === 'magma') {
      let top = 0; // from 0 to the largest weight, as in the map
      for (const weight of result.weights) top = Math.max(top, weight);
      return { low: 0, high: top, colour: (value) => magma(top > 0 ? value / top : 0) };
    }
    const reach = Math.max(Math.abs(low), Math.abs(high)) || 1;
    return {
      low: -reach,
      high: reach,
      colour: (value) =>
        blend(surface, value < 0 ? NEGATIVE : POSITIVE, Math.min(1, Math.abs(value) / reach)),
    };
  }

  function buildGrid(result) {
    const shape = shownShape(result);
    const scale = colourScale(result, shape);
    const { matrix } = STEPS[step];
    const values = result[matrix];
    const stride = shape.isOutput ? shape.width : result.T;
    const hadFocus = table.contains(document.activeElement);
    active = {
      row: Math.min(active.row, shape.rows - 1),
      col: Math.min(active.col, shape.cols - 1),
    };
    if (hovered && (hovered.row >= shape.rows || hovered.col >= shape.cols)) hovered = null;

    table.replaceChildren();
    const caption = document.createElement('caption');
    caption.className = 'sr-only';
    caption.textContent = shape.isOutput
      ? 'Output: rows are query tokens, columns are output dimensions.'
      : `${STEPS[step].name}: rows are query tokens (attending), columns are key tokens (attended to).`;
    table.append(caption);

    const head = table.createTHead().insertRow();
    const corner = document.createElement('th');
    corner.className = 'fl-corner';
    corner.innerHTML = shape.isOutput
      ? '<span>query ↓</span><span>dim →</span>'
      : '<span>query ↓</span><span>key →</span>';
    head.append(corner);
    for (let c = 0; c < shape.cols; c += 1) {
      const th = document.createElement('th');
      th.scope = 'col';
      th.dataset.col = c;
      th.textContent = shape.isOutput ? String(c) : visibleToken(result.tokens[c]);
      head.append(th);
    }

    const body = table.createTBody();
    cells = [];
    for (let r = 0; r < shape.rows; r += 1) {
      const tr = body.insertRow();
      const th = document.createElement('th');
      th.scope = 'row';
      th.dataset.row = r;
      th.textContent = visibleToken(result.tokens[r]);
      tr.append(th);
      const rowCells = [];
      for (let c = 0; c < shape.cols; c += 1) {
        const value = values[r * stride + c];
        const td = document.createElement('td');
        td.setAttribute('role', 'gridcell');
        td.dataset.row = r;
        td.dataset.col = c;
        td.tabIndex = r === active.row && c === active.col ? 0 : -1;
        td.textContent = cellText(value);
        if (Number.isFinite(value)) {
          const background = readableBackground(scale.colour(value));
          td.style.backgroundColor = css(background);
          td.style.color = css(textFor(background));
        } else {
          td.classList.add('fl-masked');
        }
        tr.append(td);
        rowCells.push(td);
      }
      cells.push(rowCells);
    }
    if (hadFocus) cells[active.row][active.col].focus({ preventScroll: true });
    drawLegend(scale);
    return shape;
  }

  function drawLegend(scale) {
    const stops = Array.from({ length: 9 }, (_, i) =>
      css(scale.colour(scale.low + ((scale.high - scale.low) * i) / 8)),
    );
    legend.bar.style.background = `linear-gradient(to right, ${stops.join(', ')})`;
    legend.low.textContent = compact(scale.low);
    legend.high.textContent = compact(scale.high);
    legend.masked.hidden = !(STEPS[step].name === 'mask' && snapshot.state.causal);
  }

  // ---- the sentence above the grid, with live numbers -----------------------------------------
  function describe(result, shape) {
    const { T } = result;
    const clipped = T > shape.rows ? ` Showing the first ${shape.rows} of ${T} tokens.` : '';
    const name = STEPS[step].name;
    if (name === 'scores') {
      const scaling =
        snapshot.state.scale === 'none'
          ? 'left unscaled'
          : `scaled by ${scaleName(snapshot.state, result)}`;
      return `A ${T} × ${T} table of scores: one row per query, one column per key, ${scaling}.${clipped}`;
    }
    if (name === 'mask') {
      if (!snapshot.state.causal)
        return `The causal mask is off (section 4), so this line changes nothing: every key stays visible.${clipped}`;
      const hidden = (T * (T - 1)) / 2;
      return `${hidden} of the ${T * T} scores, everything right of the diagonal, are now −∞.${clipped}`;
    }
    if (name === 'weights') {
      let peak = 0;
      for (const value of result.peakWeight) peak += value;
      return `Every row now adds up to 1. On average a row gives ${fixed(peak / T, 2)} to its favourite key.${clipped}`;
    }
    const shown = [];
    if (T > shape.rows) shown.push(`the first ${shape.rows} of ${T} tokens`);
    if (shape.width > shape.cols) shown.push(`dimensions 0–${shape.cols - 1} of ${shape.width}`);
    const showing = shown.length ? ` Showing ${shown.join(' and ')}.` : '';
    return `A ${T} × ${shape.width} output: each token's new vector, a weighted blend of the rows of v.${showing}`;
  }

  function render() {
    const result = snapshot.result;
    if (!result) return;
    const lines = codeLines(snapshot.state);
    tabs.forEach((tab, index) => {
      tab.querySelector('.fl-statement').textContent = lines[index].code;
      tab.querySelector('.fl-comment').textContent = lines[index].comment;
      tab.classList.toggle('is-inactive', index === 1 && !snapshot.state.causal);
    });
    const shape = buildGrid(result);
    summary.textContent = describe(result, shape);
    table.setAttribute('aria-label', `${STEPS[step].name} for the current input`);
    showReadout();
  }

  // ---- tabs -----------------------------------------------------------------------------------
  function select(index, { focus = false } = {}) {
    step = index;
    tabs.forEach((tab, i) => {
      tab.setAttribute('aria-selected', String(i === index));
      tab.tabIndex = i === index ? 0 : -1;
    });
    panel.setAttribute('aria-labelledby', tabs[index].id);
    if (focus) tabs[index].focus();
    render();
  }

  function onTabClick(event) {
    const tab = event.target.closest('[role="tab"]');
    if (tab) select(Number(tab.dataset.index));
  }

  function onTabKey(event) {
    const targets = {
      ArrowDown: step + 1,
      ArrowRight: step + 1,
      ArrowUp: step - 1,
      ArrowLeft: step - 1,
      Home: 0,
      End: STEPS.length - 1,
    };
    if (!(event.key in targets)) return;
    event.preventDefault();
    select((targets[event.key] + STEPS.length) % STEPS.length, { focus: true });
  }

  // ---- grid: pointer and roving keyboard focus -------------------------------------------------
  const cellOf = (event) => {
    const td = event.target.closest('td[data-row]');
    return td ? { row: Number(td.dataset.row), col: Number(td.dataset.col) } : null;
  };

  function onGridOver(event) {
    const cell = cellOf(event);
    if (!cell || (hovered && hovered.row === cell.row && hovered.col === cell.col)) return;
    hovered = cell;
    showReadout();
  }

  function onGridLeave() {
    hovered = null;
    showReadout();
  }

  function moveTo(row, col) {
    cells[active.row][active.col].tabIndex = -1;
    active = { row, col };
    const cell = cells[row][col];
    cell.tabIndex = 0;
    cell.focus();
  }

  function onGridFocus(event) {
    const cell = cellOf(event);
    if (!cell) return;
    if (cell.row !== active.row || cell.col !== active.col) {
      cells[active.row][active.col].tabIndex = -1;
      active = cell;
      cells[cell.row][cell.col].tabIndex = 0;
    }
    hovered = null;
    showReadout();
  }

  function onGridKey(event) {
    if (!cells.length || !cellOf(event)) return;
    const rows = cells.length,
      cols = cells[0].length;
    const { row, col } = active;
    const moves = {
      ArrowUp: [row - 1, col],
      ArrowDown: [row + 1, col],
      ArrowLeft: [row, col - 1],
      ArrowRight: [row, col + 1],
      Home: [row, 0],
      End: [row, cols - 1],
      PageUp: [0, col],
      PageDown: [rows - 1, col],
    };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const [nextRow, nextCol] = moves[event.key];
    moveTo(Math.min(rows - 1, Math.max(0, nextRow)), Math.min(cols - 1, Math.max(0, nextCol)));
  }

  function onTheme() {
    surface = rgbOf(cssColor('--surface'), surface);
    render();
  }

  const tabList = $('.fl-code');
  const listeners = [
    [tabList, 'click', onTabClick],
    [tabList, 'keydown', onTabKey],
    [table, 'pointerover', onGridOver],
    [table, 'pointerleave', onGridLeave],
    [table, 'focusin', onGridFocus],
    [table, 'keydown', onGridKey],
    [document, 'themechange', onTheme],
  ];
  for (const [target, type, handler] of listeners) target.addEventListener(type, handler);

  let placedCursor = false; // the first result puts the cursor on the last shown row, which sees every key
  function placeCursorOnce() {
    if (!placedCursor && snapshot.result) {
      active = { row: Math.min(snapshot.result.T, MAX_TOKENS) - 1, col: 1 };
      placedCursor = true;
    }
  }
  const unsubscribe = store.subscribe((next) => {
    snapshot = next;
    placeCursorOnce();
    render();
  });

  surface = rgbOf(cssColor('--surface'), surface);
  placeCursorOnce(); // the store may already hold a result when this figure mounts
  select(0);

  return {
    destroy() {
      unsubscribe();
      for (const [target, type, handler] of listeners) target.removeEventListener(type, handler);
      root.remove();
    },
  };
}
