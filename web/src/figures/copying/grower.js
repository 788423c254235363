// Section 9's "grow it yourself": the copying head grown from scratch in the learning module's
// worker (cpp/wasm/growth_bindings.cpp), with the recipe of the recorded run
// (web/assets/copying-head.json) and the reader's seed. The loop asks the worker (or workers, a
// share of each step each) for a few steps with their measurements, records them, and asks again
// until stopped or done; the main thread
// only records and draws, so it never waits on a step. A restart bumps a generation number, so
// answers to an older run are dropped. It draws nothing: every change goes through onChange().
import { COPYING_HEAD } from '../../trained/copying-head.js';
import { FORMS_AT } from './model.js';

const NAME = 'copying-growth';
export const STEPS_PER_CALL = 25; // about a quarter of a second of the worker's time a call
export const SHARES = 4; // growth.hpp's step in shares: the native --losses run takes them the same way

// A run spans `workers` workers (learning.js pins 'grow@w' to worker w), each holding a copy
// under a name of its own (so copies never meet, even on one module where workers cannot start).
// Worker 0's copy is the one the maps read, on a channel of their own beside the steps', so a
// map never overtakes a step.
export const stepChannel = (worker) => `grow@${worker}`;
const runName = (worker) => (worker === 0 ? NAME : `${NAME}-${worker}`);
const READ_CHANNEL = `${stepChannel(0)}/read`;
const range = (n) => Array.from({ length: n }, (_, index) => index);

// The recorded run's recipe (attention-grow's defaults for the string lengths, which the JSON
// does not repeat) with the reader's seed, as growthStart takes it.
export function growthRequest(seed) {
  const { training } = COPYING_HEAD;
  return {
    seed,
    shares: SHARES,
    d: COPYING_HEAD.d,
    context: COPYING_HEAD.context,
    batch: training.batch,
    repeated: training.repeatedWindows,
    random: training.randomWindows,
    shortest: 16,
    longest: 64,
    learningRate: training.learningRate,
    warmup: training.warmupSteps,
    laterStep: training.laterStep ?? -1,
    laterRandom: training.laterRandomWindows ?? 0,
  };
}

export function emptyGrowth(settings) {
  return {
    settings, // { seed, steps }
    status: 'starting', // 'starting' | 'growing' | 'stopped' | 'done' | 'failed'
    step: 0,
    loss: [], // { x: step, y: mean training loss of the call's steps }
    induction: [], // { x: step, y: layer 2's score on the probe }
    formedAt: null,
    formedSeconds: null,
    seconds: 0,
    error: '',
  };
}

// The growth once its run has started: the measurements at step 0 are its first point.
export function started(growth, { measure }) {
  return {
    ...growth,
    status: 'growing',
    induction: [{ x: measure.step, y: measure.induction.at(-1) }],
  };
}

const mean = (values) => values.reduce((sum, v) => sum + v, 0) / values.length;

// The growth after one call's answer { step, losses, measure }, `seconds` after the click.
export function stepped(growth, { step, losses, measure }, seconds) {
  const loss = mean(Array.from(losses));
  const score = measure.induction.at(-1);
  if (!Number.isFinite(loss) || !Number.isFinite(score))
    return failed(growth, 'the run diverged (a loss that is not a number)');
  const formed = growth.formedAt === null && score >= FORMS_AT;
  return {
    ...growth,
    step,
    seconds,
    loss: [...growth.loss, { x: step, y: loss }],
    induction: [...growth.induction, { x: step, y: score }],
    formedAt: formed ? step : growth.formedAt,
    formedSeconds: formed ? seconds : growth.formedSeconds,
    status: step >= growth.settings.steps ? 'done' : growth.status,
  };
}

export const failed = (growth, error) => ({ ...growth, status: 'failed', error });

const thousands = (n) => n.toLocaleString('en-US');

// The sentence under the button: where the run is, and the moment the head formed, in words.
export function statusText(growth) {
  if (growth === null) return '';
  if (growth.status === 'failed') return `The run stopped: ${growth.error}.`;
  if (growth.status === 'starting') return `Starting seed ${growth.settings.seed}…`;
  const where = `Step ${thousands(growth.step)} of ${thousands(growth.settings.steps)}, ${Math.round(growth.seconds)} s.`;
  const score = growth.induction.at(-1)?.y;
  if (growth.formedAt !== null)
    return (
      `${where} The head formed at step ${thousands(growth.formedAt)}, ` +
      `${Math.round(growth.formedSeconds)} s after the click: layer 2's induction score passed ${FORMS_AT}.`
    );
  return `${where} Layer 2's induction score is ${score.toFixed(2)}; the head has not formed yet.`;
}

// A run lives in the worker that started it, and the compute client runs calls on the page while
// its worker is still starting: wait until the channel has settled on one place.
async function settled(compute, channel) {
  while (compute.describe(channel).mode === 'starting')
    await new Promise((resolve) => setTimeout(resolve, 20));
}

// One call of `method` on every worker of the run: { values } in worker order, or { error } if
// any was refused. A call overtaken on a run's own channel counts as refused: the copies might
// no longer agree.
async function onEveryWorker(compute, workers, method, requestOf) {
  const outcomes = await Promise.all(
    range(workers).map((w) => compute.run(stepChannel(w), method, requestOf(w))),
  );
  const refused = outcomes.find((outcome) => !('value' in outcome));
  if (refused) return { error: refused.error ?? `a ${method} call was overtaken` };
  return { values: outcomes.map((outcome) => outcome.value) };
}

// `count` steps taken together: each worker computes its aligned block of every step's shares
// (growthShare), then every worker applies all the blocks in share order (growthApply), which adds
// them in growth.hpp's fixed tree order, so each copy is, bit for bit, the model one worker's
// growthSteps would have made. Worker 0 measures after the last. live(): the run is still on.
async function stepsTogether(compute, workers, count, live) {
  const per = SHARES / workers;
  const losses = [];
  let applied = null;
  for (let s = 0; s < count; s++) {
    const blocks = await onEveryWorker(compute, workers, 'growthShare', (w) => ({
      name: runName(w),
      first: w * per,
      count: per,
    }));
    if (blocks.error || !live()) return blocks.error ? blocks : { stale: true };
    const measure = s === count - 1;
    const done = await onEveryWorker(compute, workers, 'growthApply', (w) => ({
      name: runName(w),
      blocks: blocks.values,
      measure: measure && w === 0,
    }));
    if (done.error || !live()) return done.error ? done : { stale: true };
    applied = done.values[0];
    losses.push(applied.loss);
  }
  return { value: { step: applied.step, losses, measure: applied.measure } };
}

// `count` steps on the run's one worker, or on all of them together.
function takeSteps({ state, compute, workers }, generation, count) {
  if (workers > 1)
    return stepsTogether(compute, workers, count, () => generation === state.generation);
  return compute.run(stepChannel(0), 'growthSteps', { name: NAME, count, measure: true });
}

// A run's steps, asked for a few at a time until it is stopped, restarted or done.
// run: { state, compute, workers, update, onModel, now } (createGrower's).
async function steps(run, generation) {
  const { state, update, onModel, now } = run;
  while (generation === state.generation && state.playing && state.growth.status === 'growing') {
    const left = state.growth.settings.steps - state.growth.step;
    const count = Math.min(STEPS_PER_CALL, left);
    const outcome = await takeSteps(run, generation, count);
    if (generation !== state.generation) return;
    // Overtaken before it ran (a restart of the worker): asked for again.
    if (outcome.stale) continue;
    if (outcome.error) return update(failed(state.growth, outcome.error));
    update(stepped(state.growth, outcome.value, (now() - state.started) / 1000));
    // A call in flight at a stop still lands: the pause starts once it has.
    if (!state.playing) state.stoppedAt = now();
    onModel();
  }
}

// One loop per run: a Go on while the loop still waits for its last answer lets that one go on.
async function loop(run, generation) {
  const { state } = run;
  if (state.looping === generation) return;
  state.looping = generation;
  try {
    await steps(run, generation);
  } finally {
    if (state.looping === generation) state.looping = null;
  }
}

// Starts a run of `settings` in the worker (after the text and the worker are ready), then its
// loop. The seconds count from the click.
async function begin(run, settings, textFor) {
  const { state, compute, workers, update, onModel, now } = run;
  state.generation += 1;
  const generation = state.generation;
  const live = () => generation === state.generation;
  const clicked = now();
  state.playing = true;
  update(emptyGrowth(settings));
  let text;
  try {
    text = await textFor();
    for (const w of range(workers)) await settled(compute, stepChannel(w));
  } catch (error) {
    return live() && update(failed(state.growth, error.message));
  }
  const request = { text, ...growthRequest(settings.seed) };
  const outcome = await onEveryWorker(compute, workers, 'growthStart', (w) => ({
    ...request,
    name: runName(w),
  }));
  if (!live()) return;
  if (outcome.error) return update(failed(state.growth, outcome.error));
  state.started = clicked;
  update(started(state.growth, outcome.values[0]));
  onModel();
  loop(run, generation);
}

// One run at a time. compute: the learning section's (learning.js); textFor(): the text to grow
// on; onChange(growth); onModel(): called after each call, when the model has changed (the
// reading then asks for its map on this run, mapRequest()); workers: how many take each step
// (1, or a power of two dividing SHARES: compute/worker-count.js growthWorkers).
export function createGrower({
  compute,
  textFor,
  onChange,
  onModel,
  workers = 1,
  now = () => performance.now(),
}) {
  const state = {
    generation: 0,
    growth: null,
    started: 0, // when the reader clicked, moved on by each stop's pause
    stoppedAt: 0,
    playing: false,
    looping: null, // the generation whose loop runs
  };
  const update = (growth) => {
    state.growth = growth;
    onChange(growth);
  };
  const run = { state, compute, workers, update, onModel, now };

  function stopOrGoOn() {
    const growth = state.growth;
    if (growth === null || !['growing', 'stopped'].includes(growth.status)) return;
    state.playing = growth.status === 'stopped';
    // The seconds the sentence gives are the run's own: a stop's pause is left out.
    if (state.playing) state.started += now() - state.stoppedAt;
    else state.stoppedAt = now();
    update({ ...growth, status: state.playing ? 'growing' : 'stopped' });
    if (state.playing) loop(run, state.generation);
  }

  return {
    workers,
    start: (settings) => begin(run, settings, textFor),
    stopOrGoOn,
    growth: () => state.growth,
    // The growthMap request for the run as it is now, or null before it has started.
    mapRequest: (fields) =>
      state.growth && !['starting', 'failed'].includes(state.growth.status)
        ? { channel: READ_CHANNEL, request: { name: NAME, ...fields } }
        : null,
    destroy() {
      state.generation += 1;
      for (const w of range(workers))
        compute.run(stepChannel(w), 'growthStop', { name: runName(w) });
    },
  };
}
