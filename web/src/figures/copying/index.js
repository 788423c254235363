// Section 9's figure: the copying head reading the reader's own text (either layer, its map, the
// note and the model's guess for the next letter), live, with its state in the page's link
// (link.js); the head the reader grows (growing.js), which the reading can show instead of the
// saved one as it grows; and the recorded growth of the saved head (model.js), drawn once.
// mount(element, { core, learning, grown, dispatch, linkFor }) → { load(state, messages), destroy() }.
import { numbersToggle } from '../../lib/numbers-toggle.js';
import { COPYING_HEAD, loadCopyingHead } from '../../trained/copying-head.js';
import './copying.css';
import { mountGrowing } from './growing.js';
import { growthModel, readingModel } from './model.js';
import { drawChart, drawReading, tableMarkup } from './render.js';

const READING_MARKUP = `
  <div class="copying-reading__field">
    <label for="copying-text">Say something twice</label>
    <textarea id="copying-text" rows="2" spellcheck="false" autocomplete="off" aria-describedby="copying-text-message"></textarea>
    <p id="copying-text-message" class="field-message" aria-live="polite"></p>
  </div>
  <fieldset class="copying-reading__layers copying-reading__sources">
    <legend>Read with</legend>
    <label><input type="radio" name="copying-source" value="saved" checked> the saved head</label>
    <label><input type="radio" name="copying-source" value="grown" disabled> the head you grow</label>
  </fieldset>
  <fieldset class="copying-reading__layers">
    <legend>Show</legend>
    <label><input type="radio" name="copying-layer" value="1"> layer 1, which looks one back</label>
    <label><input type="radio" name="copying-layer" value="2"> layer 2, which copies</label>
  </fieldset>
  <div class="copying-reading__scroller"><canvas role="img" tabindex="0"></canvas></div>
  <p class="copying-reading__note" data-note="copying" aria-live="polite"></p>
  <p class="copying-reading__guesses"></p>`;

const GROWTH_MARKUP = `
  <h3 class="copying-grow__title">The recorded run</h3>
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
    sources: [...box.querySelectorAll('input[name="copying-source"]')],
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

// The map of the reader's text: the saved head's, here, or the grown one's, from its worker (only
// the latest answer is drawn; null when a later request overtook this one). A refused text keeps
// the last good map and says why.
async function readingResult(core, grown, state) {
  const fields = { text: state.text, layer: state.layer, detail: 'weights' };
  const ask = grown?.();
  if (!ask) return core.copyingHeadMap(fields);
  const outcome = await ask.compute.run(ask.channel, 'growthMap', { ...ask.request, ...fields });
  if (outcome.error) throw new Error(outcome.error);
  return outcome.stale ? null : outcome.value; // overtaken: the later request draws
}

function mountReading(box, core, link) {
  const parts = readingParts(box);
  const view = { model: null, cache: {}, grown: null, asked: 0 };
  let state = link.initial;
  let notices = [...link.messages];
  const draw = () => view.model && drawReading(parts, view.model, view.cache);
  async function refresh() {
    const asked = ++view.asked;
    let error = null;
    try {
      const result = await readingResult(core, view.grown, state);
      if (asked !== view.asked || result === null) return; // a later request is on its way
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
  // Drawn in the next frame: draw() sets the scroller's height, and a size changed inside the
  // observer's delivery makes Firefox report a "ResizeObserver loop" error.
  new ResizeObserver(() => requestAnimationFrame(draw)).observe(parts.scroller);
  document.addEventListener('themechange', draw);
  showState(parts, state);
  loadCopyingHead().then(refresh, (error) => {
    parts.message.textContent = error.message;
  });
  return {
    load(next, messages) {
      state = next;
      notices = [...messages];
      showState(parts, state);
      refresh();
    },
    // source: null (the saved head) or () → the grown head's map request (or null before it is).
    useSource(source) {
      view.grown = source;
      parts.sources[0].checked = source === null;
      parts.sources[1].checked = source !== null;
      refresh();
    },
    enableGrown: () => {
      parts.sources[1].disabled = false;
    },
    showsGrown: () => view.grown !== null,
    refresh,
    radios: parts.sources,
  };
}

// The reading and the grow panel share the figure's part of the link: each saves its fields.
function sharedLink(link) {
  let state = link.initial;
  return {
    initial: state,
    messages: link.messages,
    save(fields) {
      state = Object.freeze({ ...state, ...fields });
      link.save(state);
    },
  };
}

// The grow panel, and the reading's switch between the saved head and the one growing: growing
// starts on the grown head; after each call it asks for the grown head's map again. "Show it on
// the map" puts layer 2 of the grown head on section 4's map and brings the map into view.
function mountGrowingWithReading(box, { learning, grown, dispatch }, link, reading) {
  const grownSource = () => {
    const ask = growing.grower.mapRequest({});
    return ask && { compute: learning.compute, ...ask };
  };
  const showOnMap = () => {
    dispatch({ type: 'set', fields: { vectors: 'grown-2' } });
    document.querySelector('[data-figure="map"]')?.scrollIntoView({ block: 'start' });
  };
  const growing = mountGrowing(box, {
    grown,
    link,
    showOnMap,
    onModel: () => {
      reading.enableGrown();
      if (reading.showsGrown()) reading.refresh();
      else if (growing.grower.growth()?.step === 0) reading.useSource(grownSource);
    },
  });
  const [savedRadio, grownRadio] = reading.radios;
  savedRadio.addEventListener('change', () => reading.useSource(null));
  grownRadio.addEventListener('change', () => reading.useSource(grownSource));
  return growing;
}

export function mount(element, { core, learning, grown, dispatch, linkFor }) {
  element.querySelector('.needs-script')?.remove();
  const box = (className) => Object.assign(document.createElement('div'), { className });
  const reading = box('copying-reading');
  const runs = box('copying-runs');
  const growing = box('copying-grow');
  const growth = box('copying-growth');
  runs.append(growing, growth);
  element.prepend(reading, runs);
  const link = sharedLink(linkFor('copying'));
  const readingView = mountReading(reading, core, link);
  const growingView = mountGrowingWithReading(
    growing,
    { learning, grown, dispatch },
    link,
    readingView,
  );
  const chart = mountGrowth(growth);
  return {
    load(state, messages) {
      readingView.load(state, messages);
      growingView.load(state, []);
    },
    destroy() {
      growingView.destroy();
      chart.destroy();
      reading.remove();
      runs.remove();
    },
  };
}
