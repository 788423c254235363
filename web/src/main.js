// The page's entry point: load the core, build the one store from the URL, mount one module
// per figure into its slot, then subscribe once and hand every snapshot to every figure's
// update(). If WebAssembly cannot load, a banner says so and the narrative (plain HTML) stays.
import './style.css';
import './print.css';
import { loadCore } from './core.js';
import { TRAINING_RUNS, workerCount } from './compute/worker-count.js';
import { createLearning } from './learning.js';
import { createCompute } from './compute/client.js';
import { createPictureWants } from './compute/pictures.js';
import { startComputeWorker } from './compute/start-worker.js';
import { savedModelOf } from './state.js';
import { loadSavedModel } from './trained/saved-models.js';
import { createStore } from './store.js';
import { createHashSync } from './lib/hash-sync.js';
import { setupInPageLinks } from './lib/in-page-links.js';
import { linkHash, parseParts } from './link.js';
import { heroLink } from './figures/hero/link.js';
import { copyingLink, READING_DEFAULTS } from './figures/copying/link.js';
import { createGrownHead } from './figures/copying/grown-head.js';
import { GROWN_CHOICE } from './trained/copying-head.js';
import { nameTagsLink } from './figures/name-tags/link.js';
import { scaleLink } from './figures/scale-chart/link.js';
import { trainingLink } from './figures/training/link.js';
import { setupGlossary } from './lib/glossary.js';
import { layOutSections } from './lib/lay-out-sections.js';
import { loadScript } from './lib/load-script.js';
import { whenNear } from './lib/when-near.js';
import { setupShowMe } from './show-me.js';
import { setupTheme } from './theme.js';
import { addEmbedActions } from './embed/actions.js';
import { setupPrint } from './print.js';
import { registerOffline } from './offline/register.js';
import * as hero from './figures/hero/index.js';
import * as nameTags from './figures/name-tags/index.js';
import * as fourLines from './figures/four-lines/index.js';
import * as attentionMap from './figures/attention-map/index.js';
import * as experiments from './figures/experiments/index.js';

// The figures whose state travels in the page's link beside the map's (link.js), each named
// by its slot (data-figure). Adding a figure's part is one entry here (web/README.md).
const LINKED = [heroLink, nameTagsLink, scaleLink, trainingLink, copyingLink];

const FIGURES = {
  hero,
  'name-tags': nameTags,
  'four-lines': fourLines,
  map: attentionMap,
  experiments,
};

// The sections after the map load their figures' code as they come near (later-figures.js).
const LATER = {
  file: 'later-figures.js',
  global: 'AttentionLaterFigures',
  what: 'the code of the figures of sections 5 to 9',
};

function showBanner(message) {
  const banner = document.getElementById('banner');
  banner.textContent = message;
  banner.hidden = false;
}

// The maps first (the first screen's, then section 4's): they are what people come for, and
// the store's result is ready for them.
const FIRST = ['hero', 'map'];
const rank = (slot) => {
  const at = FIRST.indexOf(slot.dataset.figure);
  return at < 0 ? FIRST.length : at;
};
function slotsInOrder() {
  return [...document.querySelectorAll('[data-figure]')].sort((a, b) => rank(a) - rank(b));
}

// Facts about this page's run on <html data-…>: the compute path, the kernel, the heap.
function declare(facts) {
  for (const [key, value] of Object.entries(facts)) document.documentElement.dataset[key] = value;
}

// Large maps go to the worker, which also paints them at the sizes the maps are drawn
// (pictures.js); the bytes its core holds are declared beside the page's. A saved model's maps
// are small and computed on the page, once its weights have loaded (only the page's copy of
// the core holds them).
function backgroundMap(compute, core, pictures, grownMap) {
  return async (state) => {
    if (state.vectors === GROWN_CHOICE) return grownMap(state);
    if (savedModelOf(state)) return savedModelMap(core, state);
    const outcome = await compute.runPainted(
      'map',
      'attentionMap',
      [state],
      pictures.wanted(state),
    );
    // Asked after the map, but the map does not wait for the answer.
    compute.run('heap', 'heapInUse').then((heap) => {
      if ('value' in heap) declare({ workerHeapInUse: heap.value });
    });
    return outcome;
  };
}

async function savedModelMap(core, state) {
  try {
    // loaded and decoded from float16 here, so the time below is the core's alone
    await loadSavedModel(state.vectors);
    const started = performance.now();
    const value = core.attentionMap(state);
    return { value, ms: performance.now() - started };
  } catch (error) {
    return { error: error.message, field: error.field };
  }
}

// Layer 2 of the head the reader grows (vectors=grown-2), from the worker that grows it, when this
// page grows the run the link names (its grow-seed and grow-steps: wanted()); until then the saved
// head's layer 2 stands in, and the map's note offers to grow it (a link never starts a run).
// The result says which: `grown` (figures/attention-map/grown-note.js).
function grownHeadMap(core, grown, wanted) {
  return async (state) => {
    const settings = wanted();
    const ask = grown.mapFor(settings, { text: state.text, layer: 2, detail: state.detail });
    if (!ask) {
      const outcome = await savedModelMap(core, { ...state, vectors: 'copying-2' });
      const standIn = { seed: settings.seed, steps: settings.steps, standIn: true };
      return outcome.value ? { ...outcome, value: { ...outcome.value, grown: standIn } } : outcome;
    }
    const outcome = await ask.compute.run(ask.channel, 'growthMap', ask.request);
    if (!outcome.value) return outcome; // refused (its message goes beside the text) or overtaken
    const { step } = outcome.value;
    const status = grown.grower.growth()?.status ?? 'growing';
    return { ...outcome, value: { ...outcome.value, grown: { ...settings, step, status } } };
  };
}

// The map follows the grown head while it shows it: each change of the run asks for it again.
function followGrownHead(store, grown) {
  const refresh = () => {
    if (store.getSnapshot()?.requested.vectors === GROWN_CHOICE)
      store.dispatch({ type: 'refresh' });
  };
  grown.listen(refresh);
  return refresh;
}

// Hands each snapshot to every figure: the first (the map) at once, the others one per task
// after it, so that drawing a large result never adds up to one long task that blocks input.
// A figure still waiting when a newer snapshot arrives draws the newer one.
function figureUpdater(figures) {
  let latest = null;
  let waiting = [];
  function updateNext() {
    const figure = waiting.shift();
    figure?.update?.(latest);
    if (waiting.length) setTimeout(updateNext, 0);
  }
  return (snapshot) => {
    latest = snapshot;
    const [first, ...others] = figures;
    first?.update?.(snapshot);
    const idle = waiting.length === 0;
    waiting = others;
    if (idle && waiting.length) setTimeout(updateNext, 0);
  };
}

function mountOne(slot, module, context, mounted, snapshot) {
  try {
    const figure = module.mount(slot, context);
    mounted.push(figure);
    context.links.mounted(slot.dataset.figure, figure);
    figure.update?.(snapshot); // a figure with no map input may have no update()
  } catch (error) {
    showBanner(`The “${slot.dataset.figure}” figure could not start: ${error.message}`);
  }
}

// A later section's figure mounts when its section comes near and its code has loaded. Until
// then its slot says so; if the code cannot load, the slot says that instead (the prose stays).
function mountLater(slot, context, mounted, store) {
  const waiting = Object.assign(document.createElement('p'), {
    className: 'figure-waiting',
    textContent: 'This figure starts as its section comes into view.',
  });
  slot.prepend(waiting);
  whenNear(slot, async () => {
    try {
      const modules = await loadScript(LATER.file, LATER.global, LATER.what);
      // Each figure in a task of its own: the script's arrival resolves every waiting section
      // at once, and their mounts in one task were a 55 ms task at full speed.
      await new Promise((resolve) => setTimeout(resolve, 0));
      waiting.remove();
      mountOne(slot, modules[slot.dataset.figure], context, mounted, store.getSnapshot());
    } catch (error) {
      waiting.textContent = `This figure could not start: ${error.message}. Reload the page to try again.`;
    }
  });
}

// onMapShown() is called in the task after the first figure (the map) has mounted and drawn.
// What one figure shows of another's travels here, in the context: the map draws the
// experiment's note with the experiments figure's renderer, never by importing it.
async function mountAll(
  core,
  store,
  mounted,
  { compute, learning, grown, pictures, links, onMapShown },
) {
  const showExperimentNote = experiments.noteRenderer(core);
  const context = {
    core,
    dispatch: store.dispatch,
    compute,
    learning,
    grown,
    pictures,
    showExperimentNote,
    links,
    linkFor: links.linkFor,
  };
  for (const [index, slot] of slotsInOrder().entries()) {
    const module = FIGURES[slot.dataset.figure];
    if (module) mountOne(slot, module, context, mounted, store.getSnapshot());
    else mountLater(slot, context, mounted, store);
    // One figure per task, so the page stays responsive to input while the rest start.
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (index === 0) onMapShown();
  }
}

// The page's link (link.js): the map's state from the store, each linked figure's from the
// figure. linkFor(name) is a figure's handle on its part: { initial, messages, save(state) }. A
// link that arrives later (pasted, Back) reaches the store and every linked figure's load().
// afterLoad() runs once a link that arrived later has reached every part.
// The parts a figure's state reads besides its own: the map, showing the head grown in section 9,
// names that head by section 9's grow-seed and grow-steps, embedded or not.
const READS = { map: ['copying'] };
const reads = (figure, name) => figure === name || (READS[figure] ?? []).includes(name);

function createLinks(store, core, afterLoad) {
  // Only the parts of figures on this page (an embedded figure's link holds its own state), and
  // those they read.
  const onPage = [...document.querySelectorAll('[data-figure]')].map((el) => el.dataset.figure);
  const parts = LINKED.filter(({ name }) => onPage.some((figure) => reads(figure, name)));
  const context = { core }; // what parts check against: the core's limits and budgets
  let { states, messages } = parseParts(location.hash, parts, context);
  const byName = new Map(); // figure name -> mounted figure
  const followers = new Set(); // told whenever the link changes (the Embed boxes' snippets)
  const write = () => {
    const shown = store.getSnapshot()?.state;
    if (!shown) return;
    hash.write(linkHash(shown, parts, states));
    for (const follower of followers) follower();
  };
  const hash = createHashSync({
    location,
    history,
    load(link) {
      store.dispatch({ type: 'load', hash: link });
      ({ states, messages } = parseParts(link, parts, context));
      for (const [name, figure] of byName) figure.load?.(states[name], messages[name] ?? []);
      afterLoad();
    },
  });
  return {
    write,
    arrived: hash.arrived,
    // The link an embedded `figure` opens with: the map's state and that figure's part only.
    hashFor: (figure) => {
      const { state } = store.getSnapshot();
      const grown = figure === 'map' && state.vectors === GROWN_CHOICE;
      return linkHash(
        state,
        parts.filter(({ name }) => name === figure || (grown && reads(figure, name))),
        states,
      );
    },
    mounted: (name, figure) => byName.set(name, figure),
    stateOf: (name) => states[name],
    follow: (follower) => followers.add(follower),
    linkFor: (name) => ({
      initial: states[name],
      messages: messages[name] ?? [],
      save(state) {
        states = { ...states, [name]: state };
        write();
      },
    }),
  };
}

async function start() {
  setupTheme(document.getElementById('theme-toggle'));
  setupInPageLinks(document, window);
  setupGlossary(document);
  setupPrint(document, window);
  // The learning section's module and data load on first use, with workers of their own.
  const learning = createLearning({
    workers: workerCount(TRAINING_RUNS),
    onNotice: showBanner,
    onMode: (mode, reason) => declare({ learningCompute: mode, learningComputeReason: reason }),
  });
  let core;
  try {
    core = await loadCore(globalThis.AttentionCore);
  } catch (error) {
    showBanner(
      `The live figures could not start: ${error.message}. The explanation below is all here; ` +
        'the figures need a browser with WebAssembly enabled.',
    );
    return;
  }
  document.documentElement.classList.add('live');
  // One worker for the page core's heavy calls (large maps, the averaged study):
  // the latest request wins per channel. The page says which path it took, for the tests.
  // It starts once the first map is on screen (until then calls run here).
  let onMapShown;
  const mapShown = new Promise((resolve) => {
    onMapShown = resolve;
  });
  mapShown.then(() => layOutSections(document));
  const compute = createCompute({
    startAfter: mapShown,
    core,
    startWorker: startComputeWorker,
    onNotice: showBanner,
    onMode: (mode, reason) => declare({ compute: mode, computeReason: reason }),
  });
  declare({ compute: compute.describe().mode, kernel: core.simdKernel });
  const pictures = createPictureWants();
  // The page's one grown head: section 9 grows it, the map can show it.
  const grown = createGrownHead(learning);
  declare({ growthWorkers: grown.grower.workers });
  const wanted = () => links.stateOf('copying') ?? READING_DEFAULTS;
  const store = createStore(core, {
    hash: location.hash,
    background: backgroundMap(compute, core, pictures, grownHeadMap(core, grown, wanted)),
  });
  const links = createLinks(store, core, followGrownHead(store, grown));
  addEmbedActions(document, location, links);
  window.addEventListener('hashchange', links.arrived);
  store.start();
  links.write();
  setupShowMe(document, store);
  const figures = []; // filled as they mount; snapshots published meanwhile reach those mounted
  const update = figureUpdater(figures);
  // The map first: rewriting the link costs a few milliseconds of the browser's own.
  store.subscribe((snapshot) => {
    update(snapshot);
    links.write();
    declare({ heapBytes: core.heapBytes(), heapInUse: core.heapInUse() });
  });
  await mountAll(core, store, figures, {
    compute,
    learning,
    grown,
    pictures,
    links,
    onMapShown,
  });
  // Once every figure has started: caching the files for offline use is not the first screen's.
  registerOffline(window).then((offline) => declare({ offline }));
}

// Errors that escape a handler still get a visible, human message instead of a silent console.
window.addEventListener('unhandledrejection', (event) => {
  event.preventDefault();
  showBanner(
    `Something went wrong: ${event.reason?.message ? event.reason.message : event.reason}`,
  );
});

start();
