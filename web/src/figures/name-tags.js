// The name-tag room: five keys in two dimensions drawn as blue arrows, one orange query the
// reader drags (mouse, touch, or arrow keys on the focused handle), and the softmax weights
// over the keys as live bars. A sharpness factor multiplies every score before the softmax.
// The core computes every score and weight: the query is repeated once per key so that row 0
// of core.formula() is exactly "this query against every key". Independent of the map store.
import './name-tags.css';
import { compact, fixed } from '../lib/format.js';

const KEYS = [
  { word: 'cat', x: 1.6, y: 0.5 },
  { word: 'sat', x: 0.3, y: 1.7 },
  { word: 'on', x: -1.5, y: 0.8 },
  { word: 'the', x: -0.8, y: -1.4 },
  { word: 'mat', x: 1.3, y: -1.1 },
];
const START_QUERY = { x: -0.4, y: 1.5 };
const LIMIT = 3; // the query tip stays inside [-3, 3]²
const SIZE = 320; // drawing size in SVG units
const UNIT = SIZE / (2 * 3.3); // SVG units per unit of the plane
const STEP = 0.1,
  BIG_STEP = 0.5; // arrow-key moves
const ANNOUNCE_AFTER_MS = 600; // quiet time before the new weights are read out
const SVG_NS = 'http://www.w3.org/2000/svg';
const SUBSCRIPTS = '₀₁₂₃₄₅₆₇₈₉';

const MARKUP = `
  <div class="nt-stage">
    <div class="nt-plane-wrap">
      <svg class="nt-plane" viewBox="0 0 ${SIZE} ${SIZE}" role="img" aria-labelledby="nt-plane-label">
        <title id="nt-plane-label">Five keys (cat, sat, on, the, mat) and the query, as arrows from the origin</title>
      </svg>
      <div class="nt-handle" tabindex="0" role="slider" aria-roledescription="two-way handle"
           aria-label="Query arrow tip" aria-describedby="nt-handle-help"
           aria-valuemin="${-LIMIT}" aria-valuemax="${LIMIT}"><span class="nt-knob"></span></div>
    </div>
    <div class="nt-side">
      <p class="nt-side-title" id="nt-bars-title">Attention weights <span class="nt-muted">(softmax of the scores)</span></p>
      <ul class="nt-bars" aria-labelledby="nt-bars-title"></ul>
      <p class="nt-sum"></p>
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
  <p class="sr-only" id="nt-handle-help">Arrow keys move the query tip by 0.1, with Shift by 0.5. Home puts it back.</p>
  <p class="sr-only nt-announce" aria-live="polite"></p>
`;

function svgElement(tag, attributes = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (parent) parent.append(node);
  return node;
}

// Plane coordinates (y up) to SVG coordinates (y down).
const toSvgX = (x) => SIZE / 2 + x * UNIT;
const toSvgY = (y) => SIZE / 2 - y * UNIT;

// A number as people write it: two decimals and a real minus sign.
const number = (value, digits = 2) => fixed(value, digits).replace('-', '−');
const inParentheses = (value) => `(${number(value)})`;
const subscript = (n) =>
  String(n)
    .split('')
    .map((digit) => SUBSCRIPTS[digit])
    .join('');
const clamp = (value) => Math.min(LIMIT, Math.max(-LIMIT, value));
const round = (value) => Math.round(value * 100) / 100;

// The points of an arrowhead at (x, y) in SVG units, pointing along (dx, dy).
function arrowHead(x, y, dx, dy, size) {
  const length = Math.hypot(dx, dy) || 1;
  const ux = dx / length,
    uy = dy / length;
  const baseX = x - ux * size,
    baseY = y - uy * size;
  const half = size * 0.55;
  return `${x},${y} ${baseX - uy * half},${baseY + ux * half} ${baseX + uy * half},${baseY - ux * half}`;
}

// One arrow from the origin: a shaft and a head, sized so the head ends `inset` SVG units
// short of the tip (0 for keys; the query's head stops at the edge of its handle).
function drawArrow(arrow, x, y, headSize, inset = 0) {
  const fullX = toSvgX(x) - SIZE / 2,
    fullY = toSvgY(y) - SIZE / 2;
  const fullLength = Math.hypot(fullX, fullY);
  const keep = fullLength > inset ? (fullLength - inset) / fullLength : 0;
  const dx = fullX * keep,
    dy = fullY * keep;
  const tipX = SIZE / 2 + dx,
    tipY = SIZE / 2 + dy;
  const length = Math.hypot(dx, dy);
  const shaft = Math.max(0, length - headSize * 0.8) / (length || 1);
  arrow.line.setAttribute('x2', SIZE / 2 + dx * shaft);
  arrow.line.setAttribute('y2', SIZE / 2 + dy * shaft);
  arrow.head.setAttribute('points', length > 1 ? arrowHead(tipX, tipY, dx, dy, headSize) : '');
}

function buildPlane(svg) {
  const grid = svgElement('g', { class: 'nt-grid', 'aria-hidden': 'true' }, svg);
  for (let i = -3; i <= 3; i += 1) {
    const className = i === 0 ? 'nt-axis' : 'nt-gridline';
    svgElement(
      'line',
      { class: className, x1: toSvgX(i), x2: toSvgX(i), y1: toSvgY(-3.3), y2: toSvgY(3.3) },
      grid,
    );
    svgElement(
      'line',
      { class: className, y1: toSvgY(i), y2: toSvgY(i), x1: toSvgX(-3.3), x2: toSvgX(3.3) },
      grid,
    );
  }
  for (const i of [-3, 3]) {
    svgElement(
      'text',
      { class: 'nt-tick', x: toSvgX(i), y: toSvgY(0) + 13, 'text-anchor': i < 0 ? 'start' : 'end' },
      grid,
    ).textContent = number(i, 0);
    svgElement(
      'text',
      { class: 'nt-tick', x: toSvgX(0) - 5, y: toSvgY(i) + (i < 0 ? 0 : 9), 'text-anchor': 'end' },
      grid,
    ).textContent = number(i, 0);
  }
  // The line through the highlighted key, and the drop from the query tip onto it: the
  // dot product is the key's length times how far along that line the query reaches.
  const guide = svgElement('line', { class: 'nt-guide', 'aria-hidden': 'true' }, svg);
  const drop = svgElement('line', { class: 'nt-drop', 'aria-hidden': 'true' }, svg);

  const keys = KEYS.map((key, index) => {
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
    drawArrow(arrow, key.x, key.y, 11);
    const length = Math.hypot(key.x, key.y);
    const label = svgElement(
      'text',
      {
        class: 'nt-key-label',
        x: toSvgX(key.x + (key.x / length) * 0.38),
        y: toSvgY(key.y + (key.y / length) * 0.38) + 5,
        'text-anchor': 'middle',
      },
      group,
    );
    label.textContent = key.word;
    // A wide invisible stroke so the thin arrow is easy to point at.
    svgElement(
      'line',
      { class: 'nt-key-hit', x1: SIZE / 2, y1: SIZE / 2, x2: toSvgX(key.x), y2: toSvgY(key.y) },
      group,
    );
    return arrow;
  });

  const queryGroup = svgElement('g', { class: 'nt-query', 'aria-hidden': 'true' }, svg);
  const query = {
    line: svgElement('line', { class: 'nt-shaft', x1: SIZE / 2, y1: SIZE / 2 }, queryGroup),
    head: svgElement('polygon', { class: 'nt-head' }, queryGroup),
    label: svgElement('text', { class: 'nt-query-label' }, queryGroup),
  };
  query.label.textContent = 'query';

  return { keys, query, guide, drop };
}

function buildBars(_list) {
  return KEYS.map((key, index) => {
    const item = document.createElement('li');
    item.className = 'nt-bar';
    item.tabIndex = index === 0 ? 0 : -1;
    item.dataset.index = index;
    item.innerHTML = `
      <span class="nt-bar-word"></span>
      <span class="nt-bar-track" aria-hidden="true"><span class="nt-bar-fill"></span></span>
      <span class="nt-bar-weight"></span>
      <span class="nt-bar-score"></span>`;
    item.querySelector('.nt-bar-word').textContent = key.word;
    return {
      item,
      fill: item.querySelector('.nt-bar-fill'),
      weight: item.querySelector('.nt-bar-weight'),
      score: item.querySelector('.nt-bar-score'),
    };
  });
}

export function mount(element, { core }) {
  const root = document.createElement('div');
  root.className = 'name-tags';
  root.innerHTML = MARKUP; // static markup only
  element.insertBefore(root, element.querySelector('figcaption'));

  const $ = (selector) => root.querySelector(selector);
  const svg = $('.nt-plane');
  const plane = buildPlane(svg);
  const handle = $('.nt-handle');
  const bars = buildBars($('.nt-bars'));
  for (const bar of bars) $('.nt-bars').append(bar.item);
  const slider = $('#nt-sharpness');
  const factorOutput = $('.nt-factor');
  const sum = $('.nt-sum');
  const readout = $('.nt-readout');
  const announcer = $('.nt-announce');

  const n = KEYS.length;
  const keyArray = Float32Array.from(KEYS.flatMap((key) => [key.x, key.y]));
  const valueArray = new Float32Array(n); // unused by this figure: only the weights are shown
  let query = { ...START_QUERY };
  let factor = 1;
  let hovered = -1; // key under the pointer (bar or arrow)
  let focused = -1; // bar with keyboard focus
  let result = null;
  let frame = 0;
  let pendingPoint = null;
  let announceTimer = 0;

  const factorFromSlider = () => 10 ** Number(slider.value);

  function compute() {
    const queries = new Float32Array(n * 2);
    for (let t = 0; t < n; t += 1) {
      queries[2 * t] = query.x;
      queries[2 * t + 1] = query.y;
    }
    try {
      result = core.formula({
        q: queries,
        k: keyArray,
        v: valueArray,
        T: n,
        d: 2,
        dV: 1,
        scale: factor,
        causal: false,
      });
    } catch (error) {
      readout.textContent = `The core rejected this input: ${error.message}`; // keep the last good drawing
    }
  }

  // The key the readout explains: the one pointed at or focused, else the best match.
  function activeKey() {
    if (hovered >= 0) return hovered;
    if (focused >= 0) return focused;
    let best = 0;
    for (let j = 1; j < n; j += 1) if (result.weights[j] > result.weights[best]) best = j;
    return best;
  }

  function drawQuery() {
    drawArrow(plane.query, query.x, query.y, 13, 7);
    const tipX = toSvgX(query.x),
      tipY = toSvgY(query.y);
    handle.style.left = `${(tipX / SIZE) * 100}%`;
    handle.style.top = `${(tipY / SIZE) * 100}%`;
    const length = Math.hypot(query.x, query.y) || 1;
    const labelX = tipX + (query.x / length) * 22,
      labelY = tipY - (query.y / length) * 22 + 4;
    plane.query.label.setAttribute('x', Math.min(SIZE - 22, Math.max(22, labelX)));
    plane.query.label.setAttribute('y', Math.min(SIZE - 4, Math.max(12, labelY)));
    plane.query.label.setAttribute('text-anchor', 'middle');
    handle.setAttribute('aria-valuenow', String(round(query.x)));
    handle.setAttribute('aria-valuetext', `query at x ${number(query.x)}, y ${number(query.y)}`);
  }

  function drawProjection(j) {
    const key = KEYS[j];
    const length = Math.hypot(key.x, key.y);
    const ux = key.x / length,
      uy = key.y / length;
    const along = query.x * ux + query.y * uy; // how far the query reaches along the key
    const reach = Math.max(3.3, Math.abs(along));
    plane.guide.setAttribute('x1', toSvgX(-ux * reach));
    plane.guide.setAttribute('y1', toSvgY(-uy * reach));
    plane.guide.setAttribute('x2', toSvgX(ux * reach));
    plane.guide.setAttribute('y2', toSvgY(uy * reach));
    plane.drop.setAttribute('x1', toSvgX(query.x));
    plane.drop.setAttribute('y1', toSvgY(query.y));
    plane.drop.setAttribute('x2', toSvgX(ux * along));
    plane.drop.setAttribute('y2', toSvgY(uy * along));
  }

  function explain(j) {
    const key = KEYS[j];
    const raw = result.rawScores[j];
    const scaled = result.scaledScores[j];
    let total = 0;
    for (let t = 0; t < n; t += 1) total += Math.exp(result.scaledScores[t]);
    const exp = Math.exp(scaled);
    const lines = [
      `q·k${subscript(j + 1)} (“${key.word}”) = ${inParentheses(query.x)}${inParentheses(key.x)} + ${inParentheses(query.y)}${inParentheses(key.y)} = ${number(raw)}`,
      `× sharpness ${number(factor)} = ${number(scaled)}`,
      `weight = e^${number(scaled)} / Σ e^score = ${compact(exp)} / ${compact(total)} = ${number(result.weights[j])}`,
    ];
    readout.textContent = lines.join('\n');
  }

  function render() {
    if (!result) return;
    drawQuery();
    const active = activeKey();
    let total = 0;
    bars.forEach((bar, j) => {
      const weight = result.weights[j];
      total += weight;
      bar.fill.style.width = `${Math.max(0, Math.min(1, weight)) * 100}%`;
      bar.weight.textContent = number(weight);
      bar.score.textContent = `q·k ${number(result.rawScores[j])}`;
      bar.item.classList.toggle('is-active', j === active);
      bar.item.setAttribute(
        'aria-label',
        `${KEYS[j].word}: weight ${number(weight)}, score q·k ${number(result.rawScores[j])}`,
      );
      const arrow = plane.keys[j];
      arrow.group.classList.toggle('is-active', j === active);
      arrow.line.style.strokeWidth = String(1.5 + 5 * weight);
      arrow.group.style.opacity = String(0.45 + 0.55 * Math.sqrt(weight));
    });
    sum.textContent = `Σ weights = ${number(total)}`;
    factorOutput.textContent = `× ${factor < 10 ? number(factor) : number(factor, 1)}`;
    slider.setAttribute('aria-valuetext', `times ${number(factor)}`);
    drawProjection(active);
    explain(active);
  }

  function update() {
    compute();
    render();
    scheduleAnnouncement();
  }

  function scheduleAnnouncement() {
    clearTimeout(announceTimer);
    announceTimer = setTimeout(() => {
      if (!result) return;
      const order = KEYS.map((_key, j) => j).sort((a, b) => result.weights[b] - result.weights[a]);
      announcer.textContent = `Weights: ${order.map((j) => `${KEYS[j].word} ${number(result.weights[j])}`).join(', ')}.`;
    }, ANNOUNCE_AFTER_MS);
  }

  function moveQuery(x, y) {
    query = { x: round(clamp(x)), y: round(clamp(y)) };
    update();
  }

  // ---- pointer: drag the handle; click or tap the plane to put the tip there -------------
  function planePoint(event) {
    const matrix = svg.getScreenCTM();
    if (!matrix) return null;
    const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    return { x: (point.x - SIZE / 2) / UNIT, y: (SIZE / 2 - point.y) / UNIT };
  }

  function onFrame() {
    frame = 0;
    if (pendingPoint) moveQuery(pendingPoint.x, pendingPoint.y);
    pendingPoint = null;
  }

  function queuePoint(event) {
    pendingPoint = planePoint(event);
    if (!frame) frame = requestAnimationFrame(onFrame);
  }

  let dragging = false;
  function onPointerDown(event) {
    if (event.button !== 0) return;
    event.preventDefault();
    dragging = true;
    handle.setPointerCapture(event.pointerId);
    handle.classList.add('is-dragging');
    handle.focus({ preventScroll: true });
  }
  function onPointerMove(event) {
    if (dragging) queuePoint(event);
  }
  function onPointerUp(event) {
    if (!dragging) return;
    dragging = false;
    handle.classList.remove('is-dragging');
    if (handle.hasPointerCapture(event.pointerId)) handle.releasePointerCapture(event.pointerId);
  }
  function onPlaneClick(event) {
    queuePoint(event);
  }

  function onHandleKey(event) {
    const step = event.shiftKey ? BIG_STEP : STEP;
    const moves = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, step],
      ArrowDown: [0, -step],
    };
    if (event.key === 'Home') {
      moveQuery(START_QUERY.x, START_QUERY.y);
    } else if (moves[event.key]) {
      moveQuery(query.x + moves[event.key][0], query.y + moves[event.key][1]);
    } else {
      return;
    }
    event.preventDefault();
  }

  // ---- bars and key arrows: point at or focus one to see its arithmetic -------------------
  function indexOf(event) {
    const target = event.target.closest('[data-index]');
    return target ? Number(target.dataset.index) : -1;
  }
  function onHover(event) {
    const index = indexOf(event);
    if (index !== hovered) {
      hovered = index;
      render();
    }
  }
  function onLeave() {
    if (hovered !== -1) {
      hovered = -1;
      render();
    }
  }
  function onBarFocus(event) {
    focused = indexOf(event);
    bars.forEach((bar, j) => {
      bar.item.tabIndex = j === focused ? 0 : -1;
    });
    render();
  }
  function onBarBlur() {
    focused = -1;
    render();
  }
  function onBarKey(event) {
    const index = indexOf(event);
    const targets = { ArrowDown: index + 1, ArrowUp: index - 1, Home: 0, End: n - 1 };
    if (!(event.key in targets)) return;
    event.preventDefault();
    bars[Math.min(n - 1, Math.max(0, targets[event.key]))].item.focus();
  }

  function onSlider() {
    factor = factorFromSlider();
    update();
  }
  function onReset() {
    slider.value = '0';
    factor = 1;
    moveQuery(START_QUERY.x, START_QUERY.y);
  }

  const list = $('.nt-bars');
  const listeners = [
    [handle, 'pointerdown', onPointerDown],
    [handle, 'pointermove', onPointerMove],
    [handle, 'pointerup', onPointerUp],
    [handle, 'pointercancel', onPointerUp],
    [handle, 'keydown', onHandleKey],
    [svg, 'click', onPlaneClick],
    [svg, 'pointerover', onHover],
    [svg, 'pointerleave', onLeave],
    [list, 'pointerover', onHover],
    [list, 'pointerleave', onLeave],
    [list, 'focusin', onBarFocus],
    [list, 'focusout', onBarBlur],
    [list, 'keydown', onBarKey],
    [slider, 'input', onSlider],
    [$('.nt-reset'), 'click', onReset],
  ];
  for (const [target, type, handler] of listeners) target.addEventListener(type, handler);

  factor = factorFromSlider();
  compute();
  render();

  return {
    destroy() {
      for (const [target, type, handler] of listeners) target.removeEventListener(type, handler);
      cancelAnimationFrame(frame);
      clearTimeout(announceTimer);
      root.remove();
    },
  };
}
