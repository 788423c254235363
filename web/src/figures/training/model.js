// The training figure's model: four runs of the same character model, three with one head
// (scaled by 1/√d, not scaled, by 1/d) and one with no head at all (the baseline), as plain
// data, and everything the figure prints about them (settings checks, chart points and range,
// table rows, the progress line, the samples and the sentences that quote the live numbers).
// Pure: runs in Node; the core's training results come in as arguments.
import { fixed } from '../../lib/format.js';
import { INVERSE_D, INVERSE_SQRT_D, namedScale, scaleLabel, UNSCALED } from '../../lib/scale.js';

export const NO_HEAD = 'nohead';

// One run per configuration, keyed as learning-results.json names it; head: whether it has
// the attention head (the baseline has none, so no map and no attention numbers).
const run = (mode, label = scaleLabel(namedScale(mode))) =>
  Object.freeze({ key: mode, label, scale: namedScale(mode), head: true });
export const RUNS = Object.freeze([
  run(INVERSE_SQRT_D),
  run(UNSCALED, 'not scaled'),
  run(INVERSE_D),
  Object.freeze({ key: NO_HEAD, label: 'no head', scale: namedScale(INVERSE_SQRT_D), head: false }),
]);
export const HEADS = Object.freeze(RUNS.filter((r) => r.head));

export const WIDTHS = Object.freeze([16, 64, 256]);

// learningRate null: the rate the native sweep chose for the width (spread.js's
// learningRateFor), filled in once the table has loaded.
export const DEFAULT_SETTINGS = Object.freeze({
  d: 64,
  steps: 300,
  learningRate: null,
  source: 'shakespeare',
  text: '',
});

// Fixed for every run, so that the four differ only in their head (and the page's numbers
// match `npm run train -- --protocol page`'s for the same seed: web/test/training-protocol.test.mjs).
export const FIXED = Object.freeze({ seed: 0, batch: 16, context: 64, optimizer: 'adam' });

export const MAX_STEPS = 3000;
export const MAX_PASTED_CHARACTERS = 100000;
const SMOOTHING = 10; // training-batch losses averaged for the table
export const SAMPLE_LENGTH = 80; // characters each run writes after its text's first
const SAMPLE_EVERY = 50; // steps between samples (and one at the start and at the end)

// Steps per request: in a worker, enough that the messages cost nothing and short enough
// that pause and reset answer within a fraction of a second; on the main thread (no worker)
// one step, the least a call can do.
export function stepsPerCall(mode, d) {
  if (mode === 'worker') return d >= 256 ? 5 : 10;
  return 1;
}

// Whether the call that ends at `step` should also measure the held-out windows: after each
// call up to 2·perCall steps (the first comparison comes early), every third full call after
// that, and at the last step. Every run asks the same, so they are measured at the same steps.
export function shouldMeasure(step, totalSteps, perCall) {
  return step >= totalSteps || step <= 2 * perCall || step % (3 * perCall) === 0;
}

export function shouldSample(step, totalSteps) {
  return step >= totalSteps || step % SAMPLE_EVERY === 0;
}

function checkText(source, text) {
  if (source !== 'pasted') return null;
  if (text.length < FIXED.context + 1)
    return `Paste at least ${FIXED.context + 1} characters (this has ${text.length}).`;
  if (text.length > MAX_PASTED_CHARACTERS)
    return `Paste at most ${MAX_PASTED_CHARACTERS} characters (this has ${text.length}).`;
  return null;
}

// { value: settings } or { errors: { field: message } }. An empty learning rate is the
// width's own (null in the settings).
export function checkSettings(raw) {
  const errors = {};
  const d = Number(raw.d);
  if (!WIDTHS.includes(d)) errors.d = `Width must be one of ${WIDTHS.join(', ')}.`;
  const steps = Number(raw.steps);
  if (!Number.isInteger(steps) || steps < 10 || steps > MAX_STEPS)
    errors.steps = `Steps must be a whole number from 10 to ${MAX_STEPS}.`;
  const rateText = String(raw.learningRate ?? '').trim();
  const learningRate = rateText === '' ? null : Number(rateText);
  if (
    learningRate !== null &&
    (!Number.isFinite(learningRate) || learningRate <= 0 || learningRate > 10)
  )
    errors.learningRate = 'The learning rate must be a number above 0 and at most 10.';
  const source = raw.source === 'pasted' ? 'pasted' : 'shakespeare';
  const text = String(raw.text ?? '');
  const textError = checkText(source, text);
  if (textError) errors.text = textError;
  if (Object.keys(errors).length > 0) return { errors };
  return { value: Object.freeze({ d, steps, learningRate, source, text }) };
}

// The settings in one sentence, for the printout (where the controls are not printed).
export function settingsSentence({ d, steps, learningRate, source, text }) {
  const rate =
    learningRate === null ? 'the width’s own learning rate' : `learning rate ${learningRate}`;
  const learned =
    source === 'pasted' ? `a pasted text of ${text.length} characters` : 'Shakespeare';
  return `Settings: head width d = ${d}, ${steps} steps, ${rate}, learning from ${learned}.`;
}

// The messages to show while a reader is still filling the form: a pasted text is judged
// only once something is in the box, or Train was pressed (tried).
export function visibleErrors(errors, { text, tried }) {
  if (tried || text.length > 0) return errors;
  const { text: _waiting, ...others } = errors;
  return others;
}

export function emptyRun(key) {
  return Object.freeze({
    key,
    status: 'starting',
    step: 0,
    recent: Object.freeze([]),
    start: null,
    latest: null,
    history: Object.freeze([]),
    firstStep: null,
    weights: null,
    probe: Object.freeze([]),
    vocabulary: 0,
    sample: null,
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
    weights: result.weights ?? null,
    probe: Object.freeze([...(result.probe ?? [])]),
    vocabulary: result.vocabulary.length,
  });
}

// The run after a trainingSteps result: the last SMOOTHING training losses, the first step's
// gradient norms kept for the narrative, and, when the call measured, one held-out point.
export function stepped(run, result, totalSteps) {
  const recent = [...run.recent, ...result.losses].slice(-SMOOTHING);
  const firstStep =
    run.firstStep ??
    Object.freeze({ query: result.queryGradientNorms[0], key: result.keyGradientNorms[0] });
  const next = {
    ...run,
    status: result.step >= totalSteps ? 'done' : run.status,
    step: result.step,
    recent: Object.freeze(recent),
    firstStep,
  };
  if (Number.isFinite(result.heldOutLoss)) {
    next.latest = measured(result);
    next.history = Object.freeze([...run.history, measured(result)]);
    next.weights = result.weights ?? run.weights;
  }
  return Object.freeze(next);
}

// The run after a trainingSample result: { step, text }.
export function sampled(run, result) {
  return Object.freeze({ ...run, sample: Object.freeze({ step: result.step, text: result.text }) });
}

// Why a run stopped when the worker that held it stopped (runner.js).
export const LOST_WITH_WORKER =
  'its worker stopped and this run was lost with it; the others go on. Reset to train again.';

export function failed(run, message) {
  return Object.freeze({ ...run, status: 'failed', error: message });
}

// The play button's words for a runner view.
export function playLabel({ runs, playing, finished }) {
  if (playing) return 'Pause';
  if (finished) return 'Finished: Reset to train again';
  return runs.length > 0 && !finished ? 'Resume' : 'Train the four models';
}

// How many steps a call should ask for: never past the total. The first calls are half as
// long (then the run lines up with multiples of perCall again), so that the first comparison
// comes sooner after the click.
export function nextCount(run, totalSteps, perCall) {
  const size = run.step < perCall ? Math.ceil(perCall / 2) : perCall;
  return Math.max(0, Math.min(size, perCall - (run.step % perCall), totalSteps - run.step));
}

// The progress line. Until a run has started (its worker loading the learning module, which a
// slow device takes seconds over), it says so rather than "Step 0", which reads as stuck.
export function progress(runs, totalSteps) {
  const done = runs.reduce((sum, run) => sum + Math.min(run.step, totalSteps), 0);
  const fraction = runs.length ? done / (runs.length * totalSteps) : 0;
  const slowest = Math.min(...runs.map((run) => run.step));
  if (done === 0 && runs.some((run) => run.status === 'starting'))
    return { fraction, text: 'Starting the four runs…' };
  return {
    fraction,
    text: `Step ${slowest} of ${totalSteps} (${Math.round(fraction * 100)}% of the four runs).`,
  };
}

// The chart's points: each run's held-out loss at every step it was measured.
export function chartPoints(run) {
  return run.history.map((m) => ({ x: m.step, y: m.heldOutLoss }));
}

// The chart's y range, fitted to the curves after their first steps (the start, about
// ln(vocabulary), would squash the rest into a thin band): the held-out points from a tenth of
// the way on (or every point after the start, or the starts, while there are no such points),
// padded and rounded out to a tenth of a nat.
export function lossAxisRange(runs, totalSteps) {
  const all = runs.flatMap((r) => r.history);
  const later = all.filter((m) => m.step >= totalSteps / 10);
  const trained = all.filter((m) => m.step > 0);
  const shown = (later.length ? later : trained.length ? trained : all).map((m) => m.heldOutLoss);
  const finite = shown.filter(Number.isFinite);
  if (finite.length === 0) return { min: 0, max: 5 };
  const min = Math.floor((Math.min(...finite) - 0.05) * 10) / 10;
  const max = Math.ceil((Math.max(...finite) + 0.05) * 10) / 10;
  return { min: Math.max(0, min), max };
}

// Where the lines start when that is above the fitted axis (which leaves the start out so the
// rest is not squashed): "start: 4.08 ↑", the largest held-out loss at step 0, or null when
// every start is on the chart.
export function startMark(runs, range) {
  const starts = runs.flatMap((r) =>
    r.history.filter((m) => m.step === 0).map((m) => m.heldOutLoss),
  );
  const highest = Math.max(...starts.filter(Number.isFinite));
  if (!Number.isFinite(highest) || highest <= range.max) return null;
  return `start: ${fixed(highest, 2)} ↑`;
}

// What the runs learn from, said once the core has read it: its length and its alphabet.
export function sourceNotice(settings, started) {
  const size = `${started.characters.toLocaleString('en')} characters (${started.vocabulary.length} distinct)`;
  if (settings.source === 'pasted')
    return (
      `Your text: ${size}. The model learns this alphabet of its own, so no character of ` +
      `your text is outside it (and Shakespeare's alphabet plays no part).`
    );
  return `The first ${started.characters.toLocaleString('en')} characters of Tiny Shakespeare (${started.vocabulary.length} distinct), shipped with this page; the last tenth is held out for the held-out loss (${started.heldOutPredictions.toLocaleString('en')} predictions, a small set for speed).`;
}

const percent = (x) => `${Math.round(x * 100)}%`;
const loss = (x) => fixed(x, 3);

export function tableRows(runs) {
  return RUNS.map(({ key, label, head }) => {
    const run = runs.find((r) => r.key === key);
    const recent = run?.recent ?? [];
    const training = recent.length ? recent.reduce((s, x) => s + x, 0) / recent.length : null;
    return {
      label,
      step: String(run?.step ?? 0),
      trainingLoss: training === null ? '–' : loss(training),
      heldOutLoss: run?.latest ? loss(run.latest.heldOutLoss) : '–',
      peak: head && run?.latest ? percent(run.latest.meanPeak) : '–',
      firstGradient: head && run?.firstStep ? fixed(run.firstStep.query, 3) : '–',
    };
  });
}

// Each run's latest sample: { key, label, step, text } for the runs that have written one.
export function samples(runs) {
  return RUNS.flatMap(({ key, label }) => {
    const sample = runs.find((r) => r.key === key)?.sample;
    return sample ? [{ key, label, step: sample.step, text: sample.text }] : [];
  });
}

export { findings, chartLabel, summary } from './findings.js';
