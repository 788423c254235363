// Drawing for the name-tag room: the plane with the key arrows (each tipped with the colour
// its person holds) and the query arrow, the weight bars with their value swatches, and the
// blend the query takes home.
import { arrowHead, LIMIT, PEOPLE, SIZE, START_QUERY, toSvgX, toSvgY } from './model.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

const MARKUP = `
  <div class="nt-stage">
    <div class="nt-plane-wrap">
      <svg class="nt-plane" viewBox="0 0 ${SIZE} ${SIZE}" role="img" aria-labelledby="nt-plane-label">
        <title id="nt-plane-label">Five name tags (cat, sat, on, the, mat) and the query, as arrows from the origin; each tag's dot is the colour that person holds</title>
      </svg>
      <div class="nt-handle" tabindex="0" role="slider" aria-roledescription="two-way handle"
           aria-label="Query arrow tip" aria-describedby="nt-handle-help"
           aria-valuemin="${-LIMIT}" aria-valuemax="${LIMIT}"><span class="nt-knob"></span></div>
    </div>
    <div class="nt-side">
      <p class="nt-side-title" id="nt-bars-title">Attention weights <span class="nt-muted">(softmax of the scores) and the value each person holds</span></p>
      <ul class="nt-bars" aria-labelledby="nt-bars-title"></ul>
      <p class="nt-sum"></p>
      <div class="nt-blend">
        <p class="nt-side-title" id="nt-blend-title">What the query takes home <span class="nt-muted">(the values mixed by the weights)</span></p>
        <div class="nt-blend-row">
          <div class="nt-mix" role="img" aria-labelledby="nt-blend-text"></div>
          <span class="nt-equals" aria-hidden="true">=</span>
          <span class="nt-output" aria-hidden="true"></span>
        </div>
        <p class="nt-blend-text" id="nt-blend-text"></p>
        <p class="nt-blend-numbers"></p>
      </div>
    </div>
  </div>
  <div class="nt-controls">
    <div class="control nt-sharpness">
      <label for="nt-sharpness">Sharpness: multiply every score by</label>
      <div class="control-row">
        <input id="nt-sharpness" type="range" min="-1" max="1" step="0.01" value="0">
        <output for="nt-sharpness" class="nt-factor"></output>
      </div>
      <div class="nt-range-ends" aria-hidden="true"><span>× 0.1 spread out</span><span>sharpen × 10</span></div>
    </div>
    <button type="button" class="ghost nt-reset">Reset</button>
  </div>
  <div class="readout nt-readout"></div>
  <p class="sr-only" id="nt-handle-help">Arrow keys move the query tip by 0.1, with Shift by 0.5. Home puts it back to (${START_QUERY.x}, ${START_QUERY.y}).</p>
  <p class="sr-only nt-announce" aria-live="polite"></p>
`;

function svgElement(tag, attributes = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (parent) parent.append(node);
  return node;
}

// One arrow from the origin: a shaft and a head, sized so the head ends `inset` SVG units
// short of the tip (0 for keys; the query's head stops at the edge of its handle).
export function drawArrow(arrow, x, y, headSize, inset = 0) {
  const [fullX, fullY] = [toSvgX(x) - SIZE / 2, toSvgY(y) - SIZE / 2];
  const fullLength = Math.hypot(fullX, fullY);
  const keep = fullLength > inset ? (fullLength - inset) / fullLength : 0;
  const [dx, dy] = [fullX * keep, fullY * keep];
  const length = Math.hypot(dx, dy);
  const shaft = Math.max(0, length - headSize * 0.8) / (length || 1);
  arrow.line.setAttribute('x2', SIZE / 2 + dx * shaft);
  arrow.line.setAttribute('y2', SIZE / 2 + dy * shaft);
  const head = length > 1 ? arrowHead(SIZE / 2 + dx, SIZE / 2 + dy, dx, dy, headSize) : '';
  arrow.head.setAttribute('points', head);
}

function drawGrid(svg) {
  const grid = svgElement('g', { class: 'nt-grid', 'aria-hidden': 'true' }, svg);
  for (let i = -3; i <= 3; i += 1) {
    const className = i === 0 ? 'nt-axis' : 'nt-gridline';
    const [lo, hi] = [-3.3, 3.3];
    svgElement(
      'line',
      { class: className, x1: toSvgX(i), x2: toSvgX(i), y1: toSvgY(lo), y2: toSvgY(hi) },
      grid,
    );
    svgElement(
      'line',
      { class: className, y1: toSvgY(i), y2: toSvgY(i), x1: toSvgX(lo), x2: toSvgX(hi) },
      grid,
    );
  }
  for (const i of [-3, 3]) {
    const anchor = i < 0 ? 'start' : 'end';
    const text = String(i).replace('-', '−');
    svgElement(
      'text',
      { class: 'nt-tick', x: toSvgX(i), y: toSvgY(0) + 13, 'text-anchor': anchor },
      grid,
    ).textContent = text;
    svgElement(
      'text',
      { class: 'nt-tick', x: toSvgX(0) - 5, y: toSvgY(i) + (i < 0 ? 0 : 9), 'text-anchor': 'end' },
      grid,
    ).textContent = text;
  }
}

// A key arrow with its word and, at its tip, a dot in the colour its person holds.
function drawPerson(svg, person, index, swatch) {
  const group = svgElement(
    'g',
    { class: 'nt-key', 'data-index': index, 'aria-hidden': 'true' },
    svg,
  );
  const arrow = {
    group,
    line: svgElement('line', { class: 'nt-shaft', x1: SIZE / 2, y1: SIZE / 2 }, group),
    head: svgElement('polygon', { class: 'nt-head' }, group),
  };
  drawArrow(arrow, person.x, person.y, 11);
  const length = Math.hypot(person.x, person.y);
  const [lx, ly] = [person.x + (person.x / length) * 0.42, person.y + (person.y / length) * 0.42];
  svgElement(
    'circle',
    { class: 'nt-value-dot', cx: toSvgX(lx), cy: toSvgY(ly) - 12, r: 5, fill: swatch },
    group,
  );
  const label = svgElement(
    'text',
    { class: 'nt-key-label', x: toSvgX(lx), y: toSvgY(ly) + 5, 'text-anchor': 'middle' },
    group,
  );
  label.textContent = person.word;
  // A wide invisible stroke so the thin arrow is easy to point at.
  svgElement(
    'line',
    { class: 'nt-key-hit', x1: SIZE / 2, y1: SIZE / 2, x2: toSvgX(person.x), y2: toSvgY(person.y) },
    group,
  );
  return arrow;
}

function buildPlane(svg, swatches) {
  drawGrid(svg);
  const guide = svgElement('line', { class: 'nt-guide', 'aria-hidden': 'true' }, svg);
  const drop = svgElement('line', { class: 'nt-drop', 'aria-hidden': 'true' }, svg);
  const keys = PEOPLE.map((person, index) => drawPerson(svg, person, index, swatches[index]));
  const group = svgElement('g', { class: 'nt-query', 'aria-hidden': 'true' }, svg);
  const query = {
    line: svgElement('line', { class: 'nt-shaft', x1: SIZE / 2, y1: SIZE / 2 }, group),
    head: svgElement('polygon', { class: 'nt-head' }, group),
    label: svgElement('text', { class: 'nt-query-label', 'text-anchor': 'middle' }, group),
  };
  query.label.textContent = 'query';
  return { keys, query, guide, drop };
}

function buildBar(person, index, swatch) {
  const item = document.createElement('li');
  item.className = 'nt-bar';
  item.tabIndex = index === 0 ? 0 : -1;
  item.dataset.index = index;
  item.innerHTML = `
    <span class="nt-bar-word"></span>
    <span class="nt-swatch" aria-hidden="true"></span>
    <span class="nt-bar-track" aria-hidden="true"><span class="nt-bar-fill"></span></span>
    <span class="nt-bar-weight"></span>
    <span class="nt-bar-score"></span>`; // static markup; the words go in as text
  item.querySelector('.nt-bar-word').textContent = person.word;
  item.querySelector('.nt-swatch').style.background = swatch;
  const fill = item.querySelector('.nt-bar-fill');
  fill.style.background = swatch;
  return {
    item,
    fill,
    weight: item.querySelector('.nt-bar-weight'),
    score: item.querySelector('.nt-bar-score'),
  };
}

// Every element of the figure, inserted before the slot's caption. `swatches`: CSS colours.
export function buildFigure(element, swatches) {
  const root = document.createElement('div');
  root.className = 'name-tags';
  root.innerHTML = MARKUP;
  element.insertBefore(root, element.querySelector('figcaption'));
  const $ = (selector) => root.querySelector(selector);
  const bars = PEOPLE.map((person, index) => buildBar(person, index, swatches[index]));
  $('.nt-bars').append(...bars.map((bar) => bar.item));
  const mix = $('.nt-mix');
  const segments = PEOPLE.map(() => mix.appendChild(document.createElement('span')));
  segments.forEach((segment, j) => {
    segment.style.background = swatches[j];
  });
  return {
    root,
    svg: $('.nt-plane'),
    plane: buildPlane($('.nt-plane'), swatches),
    handle: $('.nt-handle'),
    list: $('.nt-bars'),
    bars,
    segments,
    output: $('.nt-output'),
    blendText: $('.nt-blend-text'),
    blendNumbers: $('.nt-blend-numbers'),
    slider: $('#nt-sharpness'),
    factor: $('.nt-factor'),
    sum: $('.nt-sum'),
    reset: $('.nt-reset'),
    readout: $('.nt-readout'),
    announcer: $('.nt-announce'),
  };
}

export function drawQuery(parts, query, label) {
  const { plane, handle } = parts;
  drawArrow(plane.query, query.x, query.y, 13, 7);
  const [tipX, tipY] = [toSvgX(query.x), toSvgY(query.y)];
  handle.style.left = `${(tipX / SIZE) * 100}%`;
  handle.style.top = `${(tipY / SIZE) * 100}%`;
  const length = Math.hypot(query.x, query.y) || 1;
  const labelX = tipX + (query.x / length) * 22;
  const labelY = tipY - (query.y / length) * 22 + 4;
  plane.query.label.setAttribute('x', Math.min(SIZE - 22, Math.max(22, labelX)));
  plane.query.label.setAttribute('y', Math.min(SIZE - 4, Math.max(12, labelY)));
  handle.setAttribute('aria-valuenow', String(Math.round(query.x * 100) / 100));
  handle.setAttribute('aria-valuetext', label);
}

export function drawProjection(plane, { guide, drop }) {
  const set = (line, [x1, y1, x2, y2]) => {
    line.setAttribute('x1', toSvgX(x1));
    line.setAttribute('y1', toSvgY(y1));
    line.setAttribute('x2', toSvgX(x2));
    line.setAttribute('y2', toSvgY(y2));
  };
  set(plane.guide, guide);
  set(plane.drop, drop);
}

export function writeBars(parts, rows, active) {
  rows.forEach((row, j) => {
    const bar = parts.bars[j];
    bar.fill.style.width = `${row.fill * 100}%`;
    bar.weight.textContent = row.weight;
    bar.score.textContent = row.score;
    bar.item.classList.toggle('is-active', j === active);
    bar.item.setAttribute('aria-label', row.label);
    const arrow = parts.plane.keys[j];
    arrow.group.classList.toggle('is-active', j === active);
    arrow.line.style.strokeWidth = String(row.arrowWidth);
    arrow.group.style.opacity = String(row.arrowOpacity);
  });
}

// The mix bar (each person's colour as wide as their weight) and the colour it makes.
export function writeBlend(parts, blend) {
  blend.segments.forEach((segment, j) => {
    parts.segments[j].style.flexGrow = String(segment.share);
  });
  parts.output.style.background = blend.colour;
  parts.blendText.textContent = blend.text;
  parts.blendNumbers.textContent = blend.numbers;
}
