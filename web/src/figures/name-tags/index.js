// Section 2, the name-tag room: five people whose name tags (keys) are arrows and who each
// hold a colour (their value); the reader drags the orange query (mouse, touch, or arrow
// keys on the focused handle). The core scores the query against every key, turns the
// scores into weights and blends the colours by them. Its own small room, independent of
// the map's sentence, so it neither reads the map's snapshot nor shares highlights with it.
// The query and the sharpness travel in the page's link (link.js): mount(element, { core,
// linkFor }) → { load(state, messages) } for a link that arrives later.
import './name-tags.css';
import { linkNotice } from '../../lib/link-notice.js';
import { ROOM_DEFAULTS } from './link.js';
import * as model from './model.js';
import { buildFigure, drawProjection, drawQuery, writeBars, writeBlend } from './render.js';

const STEP = 0.1; // arrow-key moves
const BIG_STEP = 0.5;
const ANNOUNCE_AFTER_MS = 600; // quiet time before the new weights are read out

// The room drawn from `view` (query, factor, hovered, focused): render() redraws the last
// result, recompute() asks the core first and reads the new weights out after a quiet moment.
function roomDrawing(core, parts, view, timers) {
  let result = null;
  function render() {
    if (!result) return;
    drawQuery(parts, view.query, model.queryLabel(view.query));
    const active = model.activePerson(result, view.hovered, view.focused);
    writeBars(parts, model.bars(result), active);
    writeBlend(parts, model.blend(result));
    parts.sum.textContent = model.sumText(result);
    parts.factor.textContent = model.factorText(view.factor);
    parts.slider.setAttribute('aria-valuetext', model.factorText(view.factor));
    drawProjection(parts.plane, model.projection(view.query, active));
    parts.readout.textContent = model.explain(result, view.query, view.factor, active);
  }
  function recompute() {
    try {
      result = core.formula(model.formulaInput(view.query, view.factor));
    } catch (error) {
      parts.readout.textContent = `The core rejected this input: ${error.message}`; // the last good drawing stays
    }
    render();
    clearTimeout(timers.announce);
    timers.announce = setTimeout(() => {
      if (result) parts.announcer.textContent = model.announcement(result);
    }, ANNOUNCE_AFTER_MS);
  }
  return { render, recompute };
}

export function mount(element, { core, linkFor }) {
  const link = linkFor('name-tags');
  const parts = buildFigure(
    element,
    model.PEOPLE.map((person) => model.colour(person.value)),
  );
  const showNotice = linkNotice(element);
  const view = { query: null, factor: 1, hovered: -1, focused: -1 };
  const timers = { frame: 0, announce: 0 };
  const { render, recompute } = roomDrawing(core, parts, view, timers);

  // Shows a room state (the link's, or the first view's).
  function show({ x, y, factor }) {
    Object.assign(view, { query: Object.freeze({ x, y }), factor });
    parts.slider.value = model.sliderFromFactor(factor);
    recompute();
  }
  // The reader's changes: drawn, and kept in the link.
  const save = () => link.save(Object.freeze({ ...view.query, factor: view.factor }));
  function moveQuery(x, y) {
    view.query = Object.freeze({ x: model.round(model.clamp(x)), y: model.round(model.clamp(y)) });
    recompute();
    save();
  }
  function onSharpness() {
    view.factor = model.factorFromSlider(parts.slider.value);
    recompute();
    save();
  }
  function onReset() {
    show(ROOM_DEFAULTS);
    save();
  }

  const listeners = [
    ...dragHandlers(parts, timers, moveQuery, () => view.query),
    ...barHandlers(parts, view, render),
    [parts.slider, 'input', onSharpness],
    [parts.reset, 'click', onReset],
  ];
  for (const [target, type, handler] of listeners) target.addEventListener(type, handler);
  show(link.initial);
  showNotice(link.messages);

  return {
    update() {}, // the room has its own five people; the map's state does not change it
    // A link that arrives later (pasted, or Back).
    load(state, messages) {
      show(state);
      showNotice(messages);
    },
    destroy() {
      for (const [target, type, handler] of listeners) target.removeEventListener(type, handler);
      cancelAnimationFrame(timers.frame);
      clearTimeout(timers.announce);
      parts.root.remove();
    },
  };
}

// Dragging the handle, clicking or tapping the plane, and arrow keys on the handle.
function dragHandlers(parts, timers, moveQuery, getQuery) {
  const { svg, handle } = parts;
  let pendingPoint = null;
  let dragging = false;
  const planePoint = (event) => {
    const matrix = svg.getScreenCTM();
    if (!matrix) return null;
    const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    return {
      x: (point.x - model.SIZE / 2) / model.UNIT,
      y: (model.SIZE / 2 - point.y) / model.UNIT,
    };
  };
  const onFrame = () => {
    timers.frame = 0;
    if (pendingPoint) moveQuery(pendingPoint.x, pendingPoint.y);
    pendingPoint = null;
  };
  const queuePoint = (event) => {
    pendingPoint = planePoint(event);
    if (!timers.frame) timers.frame = requestAnimationFrame(onFrame);
  };
  const onDown = (event) => {
    if (event.button !== 0) return;
    event.preventDefault();
    dragging = true;
    handle.setPointerCapture(event.pointerId);
    handle.classList.add('is-dragging');
    handle.focus({ preventScroll: true });
  };
  const onMove = (event) => dragging && queuePoint(event);
  const onUp = (event) => {
    if (!dragging) return;
    dragging = false;
    handle.classList.remove('is-dragging');
    if (handle.hasPointerCapture(event.pointerId)) handle.releasePointerCapture(event.pointerId);
  };
  const onKey = (event) => {
    const step = event.shiftKey ? BIG_STEP : STEP;
    const moves = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, step],
      ArrowDown: [0, -step],
    };
    const query = getQuery();
    if (event.key === 'Home') moveQuery(model.START_QUERY.x, model.START_QUERY.y);
    else if (moves[event.key])
      moveQuery(query.x + moves[event.key][0], query.y + moves[event.key][1]);
    else return;
    event.preventDefault();
  };
  return [
    [handle, 'pointerdown', onDown],
    [handle, 'pointermove', onMove],
    [handle, 'pointerup', onUp],
    [handle, 'pointercancel', onUp],
    [handle, 'keydown', onKey],
    [svg, 'click', queuePoint],
  ];
}

// Bars and key arrows: point at, tap or focus one to see its arithmetic.
function barHandlers(parts, view, render) {
  const n = model.PEOPLE.length;
  const indexOf = (event) => {
    const target = event.target.closest?.('[data-index]');
    return target ? Number(target.dataset.index) : -1;
  };
  const onHover = (event) => {
    const index = indexOf(event);
    if (index === view.hovered) return;
    view.hovered = index;
    render();
  };
  const onLeave = (event) => {
    if (event.pointerType === 'touch' || view.hovered === -1) return; // a tap stays chosen
    view.hovered = -1;
    render();
  };
  const onFocus = (event) => {
    view.focused = indexOf(event);
    parts.bars.forEach((bar, j) => {
      bar.item.tabIndex = j === view.focused ? 0 : -1;
    });
    render();
  };
  const onBlur = () => {
    view.focused = -1;
    render();
  };
  const onKey = (event) => {
    const index = indexOf(event);
    const targets = { ArrowDown: index + 1, ArrowUp: index - 1, Home: 0, End: n - 1 };
    if (!(event.key in targets)) return;
    event.preventDefault();
    parts.bars[Math.min(n - 1, Math.max(0, targets[event.key]))].item.focus();
  };
  return [
    [parts.svg, 'pointerover', onHover],
    [parts.svg, 'pointerleave', onLeave],
    [parts.list, 'pointerover', onHover],
    [parts.list, 'pointerleave', onLeave],
    [parts.list, 'focusin', onFocus],
    [parts.list, 'focusout', onBlur],
    [parts.list, 'keydown', onKey],
  ];
}
