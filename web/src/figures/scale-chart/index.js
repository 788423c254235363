// Section 5, "Why divide by √d": average peak attention weight (or entropy) against head
// width for no scaling, 1/√d and 1/d, from core.scaleStudy().
//
// Its controls (tutorial or averaged data, peak or entropy, draws, T, seed, mask) are this
// chart's own view state, kept here and not in the shared store: they describe a separate
// study of random queries and keys, not the map's sentence, so they should not make the map
// recompute. They travel in the page's link as the chart's own part (link.js). The map's
// snapshot changes nothing here.
import { downloadCanvas, downloadCsv } from '../../lib/download.js';
import { linkNotice } from '../../lib/link-notice.js';
import { EVERYTHING_NEAR, everythingIsNear } from '../../lib/when-near.js';
import { numbersToggle } from '../../lib/numbers-toggle.js';
import './scale-chart.css';
import { createChart, drawChart, readColors } from './canvas.js';
import { exportCanvas } from './export.js';
import { overBudget } from './link.js';
import * as model from './model.js';
import { buildFigure, writeControls, writeHeadline, writeMessages, writeTable } from './render.js';

let uid = 0;
const CACHE_SIZE = 24; // studies kept, so switching back to one is instant

// The multiply-adds a study needs: the core's own count when it offers one.
function studyWork(core) {
  if (typeof core.studyMultiplyAdds === 'function') return (s) => core.studyMultiplyAdds(s);
  return ({ T, widths, draws }) => T * T * draws * widths.reduce((sum, d) => sum + d, 0);
}

// Recent studies by key, so that switching back to one is instant.
function createStudyCache() {
  const cache = new Map();
  return {
    has: (key) => cache.has(key),
    get: (key) => cache.get(key),
    remember(key, entry) {
      if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value);
      cache.set(key, entry);
    },
  };
}

// One study: the averaged one (hundreds of millions of multiply-adds) in the compute worker
// when there is one (`background`), else here. done(outcome, ms) hears it, with the core's own
// time where the worker reports it, not the trip to it and back.
function computeStudy(core, background, settings, done) {
  const started = performance.now();
  const finish = (outcome) => done(outcome, outcome.ms ?? performance.now() - started);
  if (background && settings.mode === 'averaged') {
    background.run('study', 'scaleStudy', settings).then(finish);
    return;
  }
  try {
    finish({ value: core.scaleStudy(settings) });
  } catch (error) {
    finish({ error: error.message }); // the core's own message
  }
}

// seen.visible follows whether the figure is within 200 px of the screen; onSeen() is called
// each time it comes near, and when the page is printed (when-near.js: every figure counts as
// near then). Returns a function that stops watching.
function watchVisibility(root, seen, onSeen) {
  if (seen.visible) return () => {};
  const observer = new IntersectionObserver(
    (entries) => {
      seen.visible = entries.some((entry) => entry.isIntersecting);
      if (seen.visible) onSeen();
    },
    { rootMargin: '200px 0px' },
  );
  observer.observe(root);
  const printing = () => {
    seen.visible = true;
    onSeen();
  };
  document.addEventListener(EVERYTHING_NEAR, printing);
  seen.visible = everythingIsNear();
  return () => {
    observer.disconnect();
    document.removeEventListener(EVERYTHING_NEAR, printing);
  };
}

// Runs the study the view asks for, at most once per animation frame; the averaged one only
// once the figure is on screen, and in the compute worker when there is one (`background`).
// Keeps recent studies so switching back is instant.
function createRunner(core, background, parts, getView, show) {
  const limits = core.limits;
  const work = studyWork(core);
  const cache = createStudyCache();
  const timers = { delay: 0, frame: 0, compute: 0 };
  const seen = { visible: typeof IntersectionObserver !== 'function', pending: false };
  const latest = { key: '' };

  function refuse(messages) {
    writeMessages(parts.controls.fields, messages);
    parts.status.textContent = 'Showing the last good result; fix the value marked above.';
  }

  // Shown only if the view still asks for it; a study the view has moved on from is kept.
  function finish(settings, key, outcome, ms) {
    if (outcome.stale) return; // a newer averaged study is on its way
    if (key !== latest.key) {
      if ('value' in outcome) cache.remember(key, { study: outcome.value, settings, ms });
      return;
    }
    parts.canvasWrap.classList.remove('is-busy');
    parts.canvasWrap.removeAttribute('aria-busy');
    if ('error' in outcome) return refuse({ [model.blamedField(getView())]: outcome.error });
    const entry = { study: outcome.value, settings, ms };
    cache.remember(key, entry);
    show(entry);
  }

  function run() {
    timers.frame = 0;
    const view = getView();
    const { errors, settings } = model.settingsFor(view, limits);
    if (!settings) return refuse(errors);
    const tooMuch = model.budgetMessage(settings, limits.maxStudyMultiplyAdds, work);
    if (tooMuch) return refuse({ [model.blamedField(view)]: tooMuch });
    writeMessages(parts.controls.fields, {});
    const key = model.settingsKey(settings);
    latest.key = key;
    if (cache.has(key)) return show(cache.get(key));
    // The averaged study is heavy (hundreds of millions of multiply-adds): only when seen.
    seen.pending = settings.mode === 'averaged' && !seen.visible;
    if (seen.pending) return;
    parts.canvasWrap.classList.add('is-busy');
    parts.canvasWrap.setAttribute('aria-busy', 'true'); // print.js waits for it
    parts.status.textContent = 'Computing…';
    // Let "Computing…" paint before any study that runs on the main thread.
    clearTimeout(timers.compute);
    timers.compute = setTimeout(
      () =>
        computeStudy(core, background, settings, (outcome, ms) =>
          finish(settings, key, outcome, ms),
        ),
      settings.mode === 'averaged' ? 16 : 0,
    );
  }

  // Coalesce: any number of changes within `delay` ms, then one animation frame, one study.
  function schedule(delay = 0) {
    clearTimeout(timers.delay);
    const queue = () => {
      if (!timers.frame) timers.frame = requestAnimationFrame(run);
    };
    if (delay > 0) timers.delay = setTimeout(queue, delay);
    else queue();
  }

  const stopWatching = watchVisibility(parts.root, seen, () => seen.pending && schedule(0));
  return {
    schedule,
    stop() {
      cancelAnimationFrame(timers.frame);
      clearTimeout(timers.delay);
      clearTimeout(timers.compute);
      stopWatching();
    },
  };
}

// The chart's view for a state of its link part.
const viewOf = ({ mode, measure, causal, draws, T, seed }) => ({
  ...model.INITIAL_VIEW,
  mode,
  measure,
  causal,
  raw: { draws: String(draws), T: String(T), seed: String(seed) },
});

// The link's copy of the view: the averaged study's numbers as typed when they make a study the
// core would run, else the last that did (the fields then show their messages).
function linkState(view, saved, core) {
  const { settings } = model.settingsFor({ ...view, mode: 'averaged' }, core.limits);
  const typed = settings && !overBudget(settings, core) ? settings : saved;
  const { mode, measure, causal } = view;
  return Object.freeze({ mode, measure, causal, draws: typed.draws, T: typed.T, seed: typed.seed });
}

export function mount(element, { core, compute, linkFor }) {
  uid += 1;
  const link = linkFor('scale');
  const parts = buildFigure(element, `scale-chart-${uid}`);
  const showNotice = linkNotice(element);
  let view = viewOf(link.initial);
  let saved = link.initial;
  let shown = { study: null, settings: null, measure: view.measure, colors: {}, axes: null };
  shown.colors = readColors(parts.root);

  const readout = (index) => {
    parts.readout.textContent = model.readoutText(shown.study, shown.settings, view.measure, index);
  };
  const chart = createChart(parts.canvas, () => shown, readout);

  function show({ study, settings, ms }) {
    const { measure } = view;
    shown = { ...shown, study, settings, measure, axes: model.axes(study, settings, measure) };
    drawChart(chart, shown);
    parts.legend.bandKey.hidden = !(settings.draws > 1);
    parts.legend.uniformText.textContent = model.uniformLabel(settings, measure);
    writeHeadline(parts.headline, model.headline(study, settings, measure));
    parts.trend.textContent = model.trendSentence(study, measure);
    parts.canvas.setAttribute('aria-label', model.describe(study, settings, measure));
    writeTable(parts.table, model.tableModel(study, settings, measure));
    readout(-1);
    parts.status.textContent = model.statusText(settings, ms);
  }

  const runner = createRunner(core, compute, parts, () => view, show);
  function change(patch, delay = 0) {
    view = { ...view, ...patch, raw: { ...view.raw, ...patch.raw } };
    writeControls(parts.controls, view);
    parts.tutorialNote.hidden = view.mode !== 'tutorial';
    runner.schedule(delay);
    saved = linkState(view, saved, core);
    link.save(saved);
  }

  const fileName = (extension) =>
    `${model.fileStem(shown.settings)}${extension === 'png' ? `-${view.measure}` : ''}.${extension}`;
  const cleanups = wire(parts, {
    change,
    onTheme: () => {
      shown.colors = readColors(parts.root);
      if (shown.study) drawChart(chart, shown);
    },
    png: () =>
      shown.study && downloadCanvas(exportCanvas(chart, parts.canvas, shown), fileName('png')),
    csv: () =>
      shown.study && downloadCsv(model.csvRows(shown.study, shown.settings), fileName('csv')),
  });

  change({}); // the tutorial's study is small (2 million multiply-adds): at once
  showNotice(link.messages);

  return {
    update() {}, // the map's state does not change this study
    // A link that arrives later (pasted, or Back).
    load(state, messages) {
      view = viewOf(state);
      change({});
      showNotice(messages);
    },
    destroy() {
      runner.stop();
      for (const cleanup of cleanups) cleanup();
      chart.destroy();
      parts.root.remove();
    },
  };
}

const SLIDER_TO_VALUE = { draws: (v) => v, T: (v) => 2 ** v };

// Every listener of the figure; returns the functions that remove them.
function wire(parts, { change, onTheme, png, csv }) {
  const { controls, buttons } = parts;
  const cleanups = [];
  const listen = (target, type, handler) => {
    target.addEventListener(type, handler);
    cleanups.push(() => target.removeEventListener(type, handler));
  };
  for (const [mode, input] of Object.entries(controls.mode.inputs))
    listen(input, 'change', () => input.checked && change({ mode }));
  for (const [measure, input] of Object.entries(controls.measure.inputs))
    listen(input, 'change', () => input.checked && change({ measure }));
  for (const [field, { input, range }] of Object.entries(controls.fields)) {
    listen(input, 'input', () =>
      change({ raw: { [field]: input.value }, lastChanged: field }, 400),
    );
    listen(input, 'change', () => change({}, 0));
    if (!range) continue;
    const fromSlider = (delay) => () => {
      const value = String(SLIDER_TO_VALUE[field](Number(range.value)));
      change({ raw: { [field]: value }, lastChanged: field }, delay);
    };
    listen(range, 'input', fromSlider(300)); // dragging: the box follows, the study waits
    listen(range, 'change', fromSlider(60)); // released (or a key press): soon
  }
  listen(controls.causal, 'change', () =>
    change({ causal: controls.causal.checked, lastChanged: 'causal' }),
  );
  numbersToggle(buttons.toggle, parts.tableBox);
  listen(buttons.png, 'click', png);
  listen(buttons.csv, 'click', csv);
  listen(document, 'themechange', onTheme);
  return cleanups;
}
