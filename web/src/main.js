// The page's entry point: load the core, build the shared store from the URL, mount one
// module per figure into its slot. If WebAssembly cannot load, a banner says so and the
// narrative (plain HTML) stays readable.
import './style.css';
import { loadCore } from './core.js';
import { createMapStore } from './map-store.js';
import { setupTheme } from './theme.js';
import * as nameTags from './figures/name-tags/index.js';
import * as fourLines from './figures/four-lines/index.js';
import * as attentionMap from './figures/attention-map.js';
import * as scaleChart from './figures/scale-chart/index.js';
import * as proof from './figures/proof/index.js';
import * as experiments from './figures/experiments.js';

const FIGURES = {
  'name-tags': nameTags,
  'four-lines': fourLines,
  map: attentionMap,
  scale: scaleChart,
  proof,
  experiments,
};

function showBanner(message) {
  const banner = document.getElementById('banner');
  banner.textContent = message;
  banner.hidden = false;
}

function writeHash(hash) {
  if (location.hash !== hash) history.replaceState(null, '', hash);
}

async function start() {
  setupTheme(document.getElementById('theme-toggle'));
  let core;
  try {
    core = await loadCore();
  } catch (error) {
    showBanner(
      `The live figures could not start: ${error.message}. The explanation below is all here; ` +
        'the figures need a browser with WebAssembly enabled.',
    );
    return;
  }
  document.documentElement.classList.add('live');
  const store = createMapStore(core, { hash: location.hash, onHashWrite: writeHash });
  window.addEventListener('hashchange', () => store.load(location.hash));

  // Figures built to the contract get dispatch() and update(snapshot); the highlighted
  // query/key pair travels in every snapshot they receive.
  let highlight = null;
  const views = [];
  const publish = () => {
    const snapshot = Object.freeze({ ...store.get(), highlight });
    for (const view of views) view.update(snapshot);
  };
  const dispatch = (action) => {
    if (action.type === 'set') store.update(action.fields);
    if (action.type !== 'highlight') return;
    highlight = action.query == null ? null : { query: action.query, key: action.key };
    publish();
  };
  store.subscribe(publish);

  store.start();
  // The map first: it is the figure people come for, and the store's result is ready for it.
  const slots = [...document.querySelectorAll('[data-figure]')].sort(
    (a, b) => Number(b.dataset.figure === 'map') - Number(a.dataset.figure === 'map'),
  );
  for (const slot of slots) {
    const figure = FIGURES[slot.dataset.figure];
    try {
      const view = figure.mount(slot, { core, store, dispatch });
      if (typeof view?.update === 'function') {
        views.push(view);
        view.update(Object.freeze({ ...store.get(), highlight }));
      }
    } catch (error) {
      showBanner(`The “${slot.dataset.figure}” figure could not start: ${error.message}`);
    }
    // One figure per task, so the page stays responsive to input while the rest start.
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

// Errors that escape a handler still get a visible, human message instead of a silent console.
window.addEventListener('unhandledrejection', (event) => {
  event.preventDefault();
  showBanner(
    `Something went wrong: ${event.reason?.message ? event.reason.message : event.reason}`,
  );
});

start();
