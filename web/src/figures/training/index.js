// Section 6, "Watch a head learn": trains the one-head character model three times side by
// side (1/√d, not scaled, 1/d) and once with no head at all, in the learning module's workers
// (runner.js), and draws the runs at most once per animation frame. Any change of setting
// resets the runs. The settings (not the runs) travel in the page's link as the figure's own
// part (link.js).
import './training.css';
import { linkNotice } from '../../lib/link-notice.js';
import * as model from './model.js';
import * as render from './render.js';
import { createRunner } from './runner.js';
import { learningRateFor } from './spread.js';
import { whenNear } from '../../lib/when-near.js';

let uid = 0;

function readSettings(fields) {
  return model.checkSettings({
    d: fields.d.control.value,
    steps: fields.steps.control.value,
    learningRate: fields.learningRate.control.value,
    source: fields.source.control.value,
    text: fields.text.control.value,
  });
}

// The chart, the maps, then the samples, sentences and table, each in a task of its own after
// the frame that drew the progress: drawn in one task, the first frame of a run took 57-74 ms
// of the main thread (the chart's update 18 ms, the maps' first labels 17 ms); with the chart
// still in the frame, 57-61 ms in two bench runs of three. With no runs (before the first,
// after a reset) there is little to draw, and it is cleared at once.
function drawRest(parts, view, context, drawChart) {
  const steps = [
    drawChart,
    () => render.drawMaps(parts.maps, view().runs),
    () => {
      const { runs } = view();
      render.writeSamples(parts.samples, model.samples(runs));
      render.writeFindings(
        parts.findings,
        model.summary(runs, context),
        model.findings(runs, runs[0]?.vocabulary ?? 0, context),
      );
      render.writeTable(parts.body, model.tableRows(runs));
    },
  ];
  if (view().runs.length === 0) {
    for (const step of steps) step();
    return;
  }
  const next = () => {
    steps.shift()();
    if (steps.length) setTimeout(next, 0);
  };
  setTimeout(next, 0);
}

// Draws the runs at most once per animation frame. view(): the runner's view; data: { results }
// (learning-results.json, once loaded).
function createDrawing(parts, view, data) {
  const drawing = { chart: null, frame: 0, chartWanted: false };

  // The chart is made once, when the page is idle after mounting (or at the first run, if that
  // comes sooner), so that no run's first frame pays for it; a theme change makes it again.
  function chartFor({ runs, settings }) {
    if (!drawing.chart && (drawing.chartWanted || runs.length > 0))
      drawing.chart = render.createLossChart(parts.chart.canvas, settings?.steps ?? 0);
    render.showPlaceholder(parts.chart, runs.length === 0);
    return drawing.chart;
  }

  // The loss chart for the runner's view as it is when this runs.
  function drawLossChart(context) {
    const shown = view();
    const { runs, settings } = shown;
    const chart = chartFor(shown);
    if (!chart) return;
    const steps = settings?.steps ?? model.DEFAULT_SETTINGS.steps;
    const points = model.RUNS.map(({ key }) => {
      const run = runs.find((r) => r.key === key);
      return run ? model.chartPoints(run) : [];
    });
    const range = model.lossAxisRange(runs, steps);
    render.drawChart(chart, points, {
      steps,
      range,
      start: model.startMark(runs, range),
      label: model.chartLabel(runs, context),
    });
  }

  function draw() {
    drawing.frame = 0;
    const shown = view();
    const { runs, settings } = shown;
    const steps = settings?.steps ?? model.DEFAULT_SETTINGS.steps;
    const context = { results: data.results, settings };
    const progress = model.progress(runs, steps);
    parts.bar.value = progress.fraction;
    parts.status.textContent = runs.length === 0 ? 'Not started.' : progress.text;
    parts.notice.textContent = shown.notice;
    parts.play.textContent = model.playLabel(shown);
    parts.play.disabled = shown.finished;
    drawRest(parts, view, context, () => drawLossChart(context));
  }

  function schedule() {
    if (!drawing.frame) drawing.frame = requestAnimationFrame(draw);
  }

  const idle = globalThis.requestIdleCallback ?? ((callback) => setTimeout(callback, 200));
  idle(() => {
    drawing.chartWanted = true;
    schedule();
  });

  return {
    draw,
    schedule,
    // Colours come from the theme: a new chart and every map and box drawn again.
    themeChanged() {
      drawing.chart?.destroy();
      drawing.chart = null;
      render.forgetDrawn(parts);
      schedule();
    },
    destroy() {
      cancelAnimationFrame(drawing.frame);
      drawing.chart?.destroy();
    },
  };
}

// The rate field's placeholder names the width's own rate once the table is here.
function showWidthRate(parts, results) {
  const rate = learningRateFor(results, Number(parts.fields.d.control.value));
  parts.fields.learningRate.control.placeholder =
    rate === null ? 'the width’s own' : `${rate} (this width’s own)`;
}

// The learning rate a run uses: the reader's, else the width's own from the native table.
// { value } or { error } (the table did not load and the field is empty).
function resolvedRate(settings, results) {
  const rate = settings.learningRate ?? learningRateFor(results, settings.d);
  if (rate !== null) return { value: { ...settings, learningRate: rate } };
  return { error: 'Type a learning rate: the table of each width’s own rate did not load.' };
}

// The Train button: the first press checks the settings, waits for the trainer, Shakespeare
// and the native table (they arrive with learning.js: fetched when the section comes near, or
// here, at once if they already have) and starts the runs; later presses pause or resume them.
// data: { shakespeare, results, loading, tried }, filled here.
function createPlay(parts, runner, learning, data) {
  async function learningLoaded() {
    parts.status.textContent = 'Loading the trainer and its text…';
    try {
      Object.assign(data, await learning.load());
      return true;
    } catch (error) {
      parts.notice.textContent = `${error.message}. Press the button again to retry.`;
      parts.status.textContent = 'Not started.';
      return false;
    }
  }

  return async function play() {
    if (runner.view().runs.length > 0) return runner.pauseOrResume();
    if (data.loading) return;
    data.tried = true;
    const checked = readSettings(parts.fields);
    render.writeMessages(parts.fields, checked.errors ?? {});
    if (!checked.value) return;
    data.loading = true;
    const ready = await learningLoaded();
    data.loading = false;
    if (!ready) return;
    showWidthRate(parts, data.results);
    const resolved = resolvedRate(checked.value, data.results);
    if (resolved.error) {
      parts.status.textContent = 'Not started.';
      return render.writeMessages(parts.fields, { learningRate: resolved.error });
    }
    runner.start(resolved.value);
  };
}

// learning: the section's module and data, loaded on first use (learning.js's createLearning).
export function mount(element, { learning, linkFor }) {
  uid += 1;
  const id = uid;
  const link = linkFor('training');
  const parts = render.buildFigure(element, `training-${id}`, link.initial);
  const showNotice = linkNotice(element);
  const data = { shakespeare: '', results: null, loading: false, tried: false };
  const drawing = createDrawing(parts, () => runner.view(), data);
  const runner = createRunner({
    compute: learning.compute,
    nameOf: (key) => `figure-${id}-${key}`,
    textFor: (settings) => (settings.source === 'pasted' ? settings.text : data.shakespeare),
    onChange: drawing.schedule,
  });

  function settingChanged() {
    parts.fields.text.control.parentElement.hidden = parts.fields.source.control.value !== 'pasted';
    const errors = readSettings(parts.fields).errors ?? {};
    const typed = { text: parts.fields.text.control.value, tried: data.tried };
    render.writeMessages(parts.fields, model.visibleErrors(errors, typed));
    showWidthRate(parts, data.results);
    if (runner.view().runs.length > 0) runner.reset();
  }
  // The link, and the printout's sentence, keep the last settings a run would accept.
  function saveSettings() {
    const checked = readSettings(parts.fields);
    if (!checked.value) return;
    link.save(checked.value);
    parts.printed.textContent = model.settingsSentence(checked.value);
  }

  // A failure is said when Train is pressed, if it still fails then.
  const stopWatching = whenNear(element, () =>
    learning
      .load()
      .then((loaded) => {
        Object.assign(data, loaded);
        showWidthRate(parts, data.results);
      })
      .catch(() => {}),
  );
  parts.play.addEventListener('click', createPlay(parts, runner, learning, data));
  parts.reset.addEventListener('click', runner.reset);
  parts.root.addEventListener('change', settingChanged);
  document.addEventListener('themechange', drawing.themeChanged);
  parts.body.closest('details').addEventListener('toggle', drawing.schedule);
  parts.root.addEventListener('input', (event) => {
    if (event.target === parts.fields.text.control) settingChanged();
    saveSettings();
  });
  parts.root.addEventListener('change', saveSettings);
  drawing.draw();
  showNotice(link.messages);
  parts.printed.textContent = model.settingsSentence(link.initial);

  return {
    // A link that arrives later (pasted, or Back): its settings, and the runs reset.
    load(settings, messages) {
      render.showSettings(parts.fields, settings);
      settingChanged();
      showNotice(messages);
    },
    destroy() {
      stopWatching();
      document.removeEventListener('themechange', drawing.themeChanged);
      runner.reset();
      drawing.destroy();
      parts.root.remove();
    },
  };
}
