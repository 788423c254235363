// Section 9's figure: the copying head reading the reader's own text (either layer, its map, the
// note and the model's guess for the next letter), live, with its state in the page's link
// (link.js); and the recorded growth of the head (model.js), drawn once.
// mount(element, { core, linkFor }) → { load(state, messages), destroy() }.
import { numbersToggle } from '../../lib/numbers-toggle.js';
import { COPYING_HEAD, loadCopyingHead } from '../../trained/copying-head.js';
import './copying.css';
import { growthModel, readingModel } from './model.js';
import { drawChart, drawReading, tableMarkup } from './render.js';

const READING_MARKUP = `
  <div class="copying-reading__field">
    <label for="copying-text">Say something twice</label>
    <textarea id="copying-text" rows="2" spellcheck="false" autocomplete="off" aria-describedby="copying-text-message"></textarea>
    <p id="copying-text-message" class="field-message" aria-live="polite"></p>
  </div>
  <fieldset class="copying-reading__layers">
    <legend>Show</legend>
    <label><input type="radio" name="copying-layer" value="1"> layer 1, which looks one back</label>
    <label><input type="radio" name="copying-layer" value="2"> layer 2, which copies</label>
  </fieldset>
  <div class="copying-reading__scroller"><canvas role="img" tabindex="0"></canvas></div>
  <p class="copying-reading__note" data-note="copying" aria-live="polite"></p>
  <p class="copying-reading__guesses"></p>`;

const GROWTH_MARKUP = `
  <p class="copying-growth__legend"><span class="copying-growth__loss">— training loss</span> <span class="copying-growth__score">— layer 2's induction score</span></p>
  <div class="copying-growth__plot"><canvas role="img"></canvas></div>
  <p class="copying-growth__timing" data-role="timing"></p>
  <button type="button" aria-expanded="false">Show numbers</button>
  <div class="copying-growth__table sr-only"></div>`;

function mountGrowth(box) {
  const model = growthModel(COPYING_HEAD);
  box.innerHTML = GROWTH_MARKUP;
  const canvas = box.querySelector('canvas');
  canvas.setAttribute('aria-label', model.ariaLabel);
  box.querySelector('[data-role="timing"]').textContent = model.timing;
  const table = box.querySelector('.copying-growth__table');
  table.innerHTML = tableMarkup(model.table);
  numbersToggle(box.querySelector('button'), table);
  return drawChart(canvas, model);
}

function readingParts(box) {
  box.innerHTML = READING_MARKUP;
  const $ = (selector) => box.querySelector(selector);
  return {
    text: $('textarea'),
    message: $('.field-message'),
    layers: [...box.querySelectorAll('input[name="copying-layer"]')],
    scroller: $('.copying-reading__scroller'),
    canvas: $('canvas'),
    note: $('.copying-reading__note'),
    guesses: $('.copying-reading__guesses'),
  };
}

// The reading's state, shown in its controls (not the box the reader is typing in).
function showState(parts, state) {
  if (document.activeElement !== parts.text) parts.text.value = state.text;
  for (const radio of parts.layers) radio.checked = Number(radio.value) === state.layer;
}

function mountReading(box, core, link) {
  const parts = readingParts(box);
  const view = { model: null, cache: {} };
  let state = link.initial;
  let notices = [...link.messages];
  const draw = () => view.model && drawReading(parts, view.model, view.cache);
  function refresh() {
    let error = null;
    try {
      const result = core.copyingHeadMap({
        text: state.text,
        layer: state.layer,
        detail: 'weights',
      });
      view.model = readingModel(result);
      parts.note.textContent = view.model.note;
      parts.guesses.textContent = view.model.guesses;
      draw();
    } catch (refused) {
      error = refused.message; // the last good map stays
    }
    parts.message.textContent = [...notices, error].filter(Boolean).join(' ');
    notices = [];
  }
  const change = (fields) => {
    state = Object.freeze({ ...state, ...fields });
    link.save(state);
    requestAnimationFrame(refresh);
  };
  parts.text.addEventListener('input', () => change({ text: parts.text.value }));
  for (const radio of parts.layers)
    radio.addEventListener('change', () => change({ layer: Number(radio.value) }));
  new ResizeObserver(draw).observe(parts.scroller);
  document.addEventListener('themechange', draw);
  showState(parts, state);
  loadCopyingHead().then(refresh, (error) => {
    parts.message.textContent = error.message;
  });
  return (next, messages) => {
    state = next;
    notices = [...messages];
    showState(parts, state);
    refresh();
  };
}

export function mount(element, { core, linkFor }) {
  element.querySelector('.needs-script')?.remove();
  const reading = Object.assign(document.createElement('div'), { className: 'copying-reading' });
  const growth = Object.assign(document.createElement('div'), { className: 'copying-growth' });
  element.prepend(reading, growth);
  const load = mountReading(reading, core, linkFor('copying'));
  const chart = mountGrowth(growth);
  return {
    load,
    destroy() {
      chart.destroy();
      reading.remove();
      growth.remove();
    },
  };
}
