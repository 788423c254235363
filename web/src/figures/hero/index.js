// The first screen: the reader's words, read by the copying head's second layer (the model grown
// on Shakespeare, web/src/trained/copying-head.js), with its map, a sentence about what it did
// with them and the model's guess for the next letter; one switch shows the tutorial's untrained
// head instead. Its state is its own (link.js), apart from section 4's map, and travels in the
// page's link. mount(element, { core, linkFor }) → { load(state, messages) }.
import './hero.css';
import { attachGridCursor } from '../../lib/grid-cursor.js';
import { letterCellAt } from '../../lib/letter-map.js';
import { COPYING_HEAD, loadCopyingHead } from '../../trained/copying-head.js';
import { HERO_DEFAULTS } from './link.js';
import { heroModel } from './model.js';
import { drawHero, writeLines } from './render.js';

// The core's answer for a state: { value } or { error } with the core's own sentence.
function compute(core, { words, head }) {
  try {
    if ([...words].length > COPYING_HEAD.context)
      throw new Error(
        `The first screen reads up to ${COPYING_HEAD.context} characters; this has ${[...words].length}.`,
      );
    if (head === 'copying')
      return {
        value: core.copyingHeadMap({ text: words, layer: 2, detail: 'weights', guesses: 3 }),
      };
    return { value: core.attentionMap({ text: words, detail: 'weights' }) }; // the tutorial's figure
  } catch (error) {
    return { error: error.message };
  }
}

// The first state of these that the core can map: the reader's head on the default words, else
// the tutorial's head (which reads any character).
function firstGood(core, state) {
  for (const head of [state.head, 'tutorial']) {
    const fallback = { words: HERO_DEFAULTS.words, head };
    const outcome = compute(core, fallback);
    if ('value' in outcome) return { state: fallback, value: outcome.value };
  }
  throw new Error('the first screen could not draw even its default words');
}

function element(tag, properties = {}) {
  return Object.assign(document.createElement(tag), properties);
}

function buildParts(root) {
  const label = element('label', { htmlFor: 'hero-text', textContent: 'Your words' });
  const input = element('textarea', {
    id: 'hero-text',
    rows: 2,
    spellcheck: false,
    autocomplete: 'off',
  });
  input.maxLength = COPYING_HEAD.context;
  input.setAttribute('aria-describedby', 'hero-text-message');
  const message = element('p', { id: 'hero-text-message', className: 'field-message' });
  message.setAttribute('aria-live', 'polite');
  const untrained = element('input', { id: 'hero-untrained', type: 'checkbox' });
  const switchLabel = element('label', { className: 'hero-switch' });
  switchLabel.append(untrained, ' Show an untrained head instead (the tutorial’s)');
  const field = element('div', { className: 'hero-field' });
  field.append(label, input, message);
  const scroller = element('div', { className: 'hero-scroller' });
  const canvas = element('canvas', { className: 'hero-map', tabIndex: 0 });
  canvas.setAttribute('role', 'img');
  scroller.append(canvas);
  const line = element('p', { className: 'hero-line' });
  line.dataset.note = 'hero';
  line.setAttribute('aria-live', 'polite');
  const guesses = element('p', { className: 'hero-guesses' });
  const readout = element('p', { className: 'hero-readout' });
  root.prepend(field, scroller, readout, line, guesses, switchLabel);
  return { input, message, untrained, scroller, canvas, line, guesses, readout };
}

// Keeps the controls equal to the state, except the box the reader is typing in.
function showState(parts, state) {
  if (document.activeElement !== parts.input) parts.input.value = state.words;
  parts.untrained.checked = state.head === 'tutorial';
}

export function mount(element, { core, linkFor }) {
  element.querySelector('.needs-script')?.remove();
  const link = linkFor('hero');
  const parts = buildParts(element);
  const view = { model: null, highlight: null, cache: {}, follow: true, box: null };
  let state = link.initial;
  const notices = [...link.messages]; // a link's refused values, said once beside the box
  let frame = 0;

  const draw = () => view.model && drawHero(parts, view);
  function refresh() {
    frame = 0;
    const outcome = compute(core, state);
    parts.message.textContent = [...notices.splice(0), outcome.error].filter(Boolean).join(' ');
    parts.input.setAttribute('aria-invalid', String(Boolean(outcome.error)));
    if (outcome.error && view.model) return; // the last good map stays
    // No good map yet (a link's words the head cannot read): the default words instead.
    const shown = outcome.error ? firstGood(core, state) : { state, value: outcome.value };
    view.model = heroModel(shown.state.head, shown.value);
    view.highlight = null;
    view.follow = true;
    writeLines(parts, view.model, null);
    draw();
    performance.mark('hero-drawn'); // read by bench/page-speed.mjs
  }
  const schedule = () => {
    frame ||= requestAnimationFrame(refresh);
  };
  function change(fields) {
    state = Object.freeze({ ...state, ...fields });
    link.save(state);
    schedule();
  }

  parts.input.addEventListener('input', () => change({ words: parts.input.value }));
  parts.untrained.addEventListener('change', () =>
    change({ head: parts.untrained.checked ? 'tutorial' : 'copying' }),
  );
  attachGridCursor(parts.canvas, {
    size: () => view.model?.T ?? 0,
    cellUnder: (event) =>
      view.box && letterCellAt(view.box, view.model.T, event.offsetX, event.offsetY),
    pick: (cell) => {
      view.highlight = cell;
      writeLines(parts, view.model, cell);
      draw();
    },
  });
  // Drawn in the next frame: draw() sets the scroller's height, and a size changed inside the
  // observer's delivery makes Firefox report a "ResizeObserver loop" error.
  new ResizeObserver(() => requestAnimationFrame(draw)).observe(parts.scroller);
  document.addEventListener('themechange', draw);
  showState(parts, state);
  loadCopyingHead().then(refresh, (error) => {
    parts.message.textContent = error.message;
    change({ head: 'tutorial' });
  });
  return {
    // A link that arrives later (pasted, or Back): its state, shown at once.
    load(next, messages) {
      state = next;
      notices.push(...messages);
      showState(parts, state);
      schedule();
    },
  };
}
