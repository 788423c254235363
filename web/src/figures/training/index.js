// Section 6, "Watch a head learn": trains the one-head character model three times side by
// side (1/√d, not scaled, 1/d) in the learning module, through its worker (runner.js), and
// draws the runs at most once per animation frame. Any change of setting resets the runs.
import './training.css';
import * as model from './model.js';
import * as render from './render.js';
import { createRunner } from './runner.js';
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

// Draws the runs at most once per animation frame. view(): the runner's view.
function createDrawing(parts, view) {
  const drawing = { chart: null, frame: 0 };

  // The axes stay fixed for a whole training: sized once every run has its start loss.
  function chartFor({ runs, settings }) {
    if (runs.length === 0) {
      drawing.chart?.destroy();
      drawing.chart = null;
    } else if (!drawing.chart && runs.every((r) => r.start || r.status === 'failed')) {
      drawing.chart = render.createLossChart(parts.canvas, settings.steps, model.lossAxisMax(runs));
    }
    return drawing.chart;
  }

  function draw() {
    drawing.frame = 0;
    const shown = view();
    const { runs, settings } = shown;
    const progress = model.progress(runs, settings?.steps ?? model.DEFAULT_SETTINGS.steps);
    parts.bar.value = progress.fraction;
    parts.status.textContent = runs.length === 0 ? 'Not started.' : progress.text;
    parts.notice.textContent = shown.notice;
    parts.play.textContent = model.playLabel(shown);
    parts.play.disabled = shown.finished;
    const chart = chartFor(shown);
    if (chart) render.drawChart(chart, runs, model.chartLabel(runs));
    render.drawMaps(parts.maps, runs);
    render.writeFindings(parts.findings, model.findings(runs, runs[0]?.vocabulary ?? 0));
    render.writeTable(parts.body, model.tableRows(runs));
  }

  return {
    draw,
    schedule() {
      if (!drawing.frame) drawing.frame = requestAnimationFrame(draw);
    },
    destroy() {
      cancelAnimationFrame(drawing.frame);
      drawing.chart?.destroy();
    },
  };
}

// The Train button: the first press checks the settings, waits for the trainer and Shakespeare
// (they arrive with learning.js: fetched when the section comes near, or here, at once if they
// already have; the trainer itself is in that file, so a pasted text cannot do without it
// either) and starts the runs; later presses pause or resume them. text: { shakespeare,
// loading }, filled here.
function createPlay(parts, runner, learning, text) {
  async function learningLoaded() {
    parts.status.textContent = 'Loading the trainer and its text…';
    try {
      text.shakespeare = (await learning.load()).shakespeare;
      return true;
    } catch (error) {
      parts.notice.textContent = `${error.message}. Press the button again to retry.`;
      parts.status.textContent = 'Not started.';
      return false;
    }
  }

  return async function play() {
    if (runner.view().runs.length > 0) return runner.pauseOrResume();
    if (text.loading) return;
    const checked = readSettings(parts.fields);
    render.writeMessages(parts.fields, checked.errors ?? {});
    if (!checked.value) return;
    text.loading = true;
    const ready = await learningLoaded();
    text.loading = false;
    if (ready) runner.start(checked.value);
  };
}

// learning: the section's module and data, loaded on first use (learning.js's createLearning).
export function mount(element, { learning }) {
  uid += 1;
  const id = uid;
  const parts = render.buildFigure(element, `training-${id}`, model.DEFAULT_SETTINGS);
  const text = { shakespeare: '', loading: false }; // the corpus slice, from learning.js
  const drawing = createDrawing(parts, () => runner.view());
  const runner = createRunner({
    compute: learning.compute,
    nameOf: (key) => `figure-${id}-${key}`,
    textFor: (settings) => (settings.source === 'pasted' ? settings.text : text.shakespeare),
    onChange: drawing.schedule,
  });

  function settingChanged() {
    parts.fields.text.control.parentElement.hidden = parts.fields.source.control.value !== 'pasted';
    render.writeMessages(parts.fields, readSettings(parts.fields).errors ?? {});
    if (runner.view().runs.length > 0) runner.reset();
  }

  // A failure is said when Train is pressed, if it still fails then.
  const stopWatching = whenNear(element, () => learning.load().catch(() => {}));
  parts.play.addEventListener('click', createPlay(parts, runner, learning, text));
  parts.reset.addEventListener('click', runner.reset);
  parts.root.addEventListener('change', settingChanged);
  drawing.draw();

  return {
    destroy() {
      stopWatching();
      runner.reset();
      drawing.destroy();
      parts.root.remove();
    },
  };
}
