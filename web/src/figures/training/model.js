// The training figure's model: three runs of the same one-head character model, scaled by
// 1/√d, not scaled, and by 1/d, as plain data, and everything the figure prints about them
// (settings checks, chart points, table rows, the progress line and the sentences that quote
// the live numbers). Pure: runs in Node; the core's training results come in as arguments.
import { fixed } from '../../lib/format.js';
import { INVERSE_D, INVERSE_SQRT_D, namedScale, scaleLabel, UNSCALED } from '../../lib/scale.js';

// One run per scale, keyed by its mode.
const run = (mode, label = scaleLabel(namedScale(mode))) =>
  Object.freeze({ key: mode, label, scale: namedScale(mode) });
export const RUNS = Object.freeze([
  run(INVERSE_SQRT_D),
  run(UNSCALED, 'not scaled'),
  run(INVERSE_D),
]);

export const WIDTHS = Object.freeze([16, 64, 256]);

export const DEFAULT_SETTINGS = Object.freeze({
  d: 64,
  steps: 300,
  learningRate: 0.01,
  source: 'shakespeare',
  text: '',
});

// Fixed for every run, so that the three differ only in their scale (and the page's numbers
// match `npm run train`'s for the same seed).
export const FIXED = Object.freeze({ seed: 0, batch: 16, context: 64, optimizer: 'adam' });

export const MAX_STEPS = 3000;
export const MAX_PASTED_CHARACTERS = 100000;
const SMOOTHING = 10; // training-batch losses averaged into one chart point

// Steps per request: in a worker, enough that the messages cost nothing and short enough
// that pause and reset answer within a fraction of a second; on the main thread (no worker)
// one step, the least a call can do (each call also measures the held-out windows).
export function stepsPerCall(mode, d) {
  if (mode === 'worker') return d >= 256 ? 5 : 10;
  return 1;
}

// { value: settings } or { errors: { field: message } }.
export function checkSettings(raw) {
  const errors = {};
  const d = Number(raw.d);
  if (!WIDTHS.includes(d)) errors.d = `Width must be one of ${WIDTHS.join(', ')}.`;
  const steps = Number(raw.steps);
  if (!Number.isInteger(steps) || steps < 10 || steps > MAX_STEPS)
    errors.steps = `Steps must be a whole number from 10 to ${MAX_STEPS}.`;
  const learningRate = Number(raw.learningRate);
  if (!Number.isFinite(learningRate) || learningRate <= 0 || learningRate > 10)
    errors.learningRate = 'The learning rate must be a number above 0 and at most 10.';
  const source = raw.source === 'pasted' ? 'pasted' : 'shakespeare';
  const text = String(raw.text ?? '');
  if (source === 'pasted' && text.length < FIXED.context + 1)
    errors.text = `Paste at least ${FIXED.context + 1} characters (this has ${text.length}).`;
  if (source === 'pasted' && text.length > MAX_PASTED_CHARACTERS)
    errors.text = `Paste at most ${MAX_PASTED_CHARACTERS} characters (this has ${text.length}).`;
  if (Object.keys(errors).length > 0) return { errors };
  return { value: Object.freeze({ d, steps, learningRate, source, text }) };
}

export function emptyRun(key) {
  return Object.freeze({
    key,
    status: 'starting',
    step: 0,
    points: Object.freeze([]),
    recent: Object.freeze([]),
    start: null,
    latest: null,
    history: Object.freeze([]),
    firstStep: null,
    weights: null,
    probe: Object.freeze([]),
    vocabulary: 0,
    error: '',
  });
}

function measured(result) {
  return Object.freeze({
    step: result.step,
    heldOutLoss: result.heldOutLoss,
    meanPeak: result.meanPeak,
    meanEntropy: result.meanEntropy,
  });
}

// The run after trainingStart's result.
export function started(run, result) {
  return Object.freeze({
    ...run,
    status: 'running',
    start: measured(result),
    latest: measured(result),
    history: Object.freeze([measured(result)]),
    weights: result.weights,
    probe: Object.freeze([...result.probe]),
    vocabulary: result.vocabulary.length,
  });
}

// The run after a trainingSteps result: one chart point (the mean of the last SMOOTHING
// training losses) per call, the first step's gradient norms kept for the narrative.
export function stepped(run, result, totalSteps) {
  const recent = [...run.recent, ...result.losses].slice(-SMOOTHING);
  const mean = recent.reduce((sum, value) => sum + value, 0) / recent.length;
  const firstStep =
    run.firstStep ??
    Object.freeze({
      query: result.queryGradientNorms[0],
      key: result.keyGradientNorms[0],
    });
  return Object.freeze({
    ...run,
    status: result.step >= totalSteps ? 'done' : run.status,
    step: result.step,
    recent: Object.freeze(recent),
    points: Object.freeze([...run.points, Object.freeze({ x: result.step, y: mean })]),
    latest: measured(result),
    history: Object.freeze([...run.history, measured(result)]),
    firstStep,
    weights: result.weights,
  });
}

export function failed(run, message) {
  return Object.freeze({ ...run, status: 'failed', error: message });
}

export function withStatus(run, status) {
  return run.status === 'done' || run.status === 'failed' ? run : Object.freeze({ ...run, status });
}

// The play button's words for a runner view.
export function playLabel({ runs, playing, finished }) {
  if (playing) return 'Pause';
  if (finished) return 'Finished: Reset to train again';
  return runs.length > 0 && !finished ? 'Resume' : 'Train the three heads';
}

// How many steps a call should ask for: never past the total.
export function nextCount(run, totalSteps, perCall) {
  return Math.max(0, Math.min(perCall, totalSteps - run.step));
}

export function progress(runs, totalSteps) {
  const done = runs.reduce((sum, run) => sum + Math.min(run.step, totalSteps), 0);
  const fraction = runs.length ? done / (runs.length * totalSteps) : 0;
  const slowest = Math.min(...runs.map((run) => run.step));
  return {
    fraction,
    text: `Step ${slowest} of ${totalSteps} (${Math.round(fraction * 100)}% of the three runs).`,
  };
}

// Chart's y range, fixed for a whole training: from 0 to just above the highest start loss.
export function lossAxisMax(runs) {
  const starts = runs.filter((run) => run.start).map((run) => run.start.heldOutLoss);
  return starts.length ? Math.ceil(Math.max(...starts) + 0.5) : 6;
}

// What the runs learn from, said once the core has read it: its length and its alphabet.
export function sourceNotice(settings, started) {
  const size = `${started.characters.toLocaleString('en')} characters (${started.vocabulary.length} distinct)`;
  if (settings.source === 'pasted')
    return (
      `Your text: ${size}. The model learns this alphabet of its own, so no character of ` +
      `your text is outside it (and Shakespeare's alphabet plays no part).`
    );
  return `The first ${started.characters.toLocaleString('en')} characters of Tiny Shakespeare (${started.vocabulary.length} distinct), shipped with this page; the last tenth is held out for the held-out loss.`;
}

const percent = (x) => `${Math.round(x * 100)}%`;
const loss = (x) => fixed(x, 3);

export function tableRows(runs) {
  return RUNS.map(({ key, label }) => {
    const run = runs.find((r) => r.key === key);
    const last = run?.points.at(-1);
    return {
      label,
      step: String(run?.step ?? 0),
      trainingLoss: last ? loss(last.y) : '–',
      heldOutLoss: run?.latest ? loss(run.latest.heldOutLoss) : '–',
      peak: run?.latest ? percent(run.latest.meanPeak) : '–',
      firstGradient: run?.firstStep ? fixed(run.firstStep.query, 3) : '–',
    };
  });
}

export { findings, chartLabel } from './findings.js';
