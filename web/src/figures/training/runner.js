// The four training loops, on the learning compute (one channel per run, each channel kept in
// one worker; main.js asks learning.js for a worker per run, up to two per core): ask for a
// few steps, record them, ask again, until paused, reset or done. The held-out windows are
// measured every few calls and a sample written every few dozen steps (model.js says when),
// not on every call. The runs live in the core under their names; a reset bumps a generation
// number so that answers to an older training are dropped. It draws nothing: every change is
// reported through onChange().
import * as model from './model.js';

// A run lives in the core instance that started it, and the compute client runs calls on the
// page while its worker is still starting: wait until its channel has settled on one place.
async function settled(compute, channel) {
  while (compute.describe(channel).mode === 'starting')
    await new Promise((resolve) => setTimeout(resolve, 20));
}

// One sample from a run's model at its current step, recorded when it arrives.
async function sample(trainer, key, generation) {
  const { state, compute, nameOf, update } = trainer;
  const outcome = await compute.run(`train-${key}`, 'trainingSample', {
    name: nameOf(key),
    length: model.SAMPLE_LENGTH,
  });
  if (generation !== state.generation || outcome.stale || outcome.error) return;
  update(key, (r) => model.sampled(r, outcome.value));
}

// A run lives in one worker: if that worker stopped (and was restarted, with a notice), the
// run's model went with it, and the restarted worker answers that it knows no such run. Said
// so in words; the other runs, in workers of their own, go on.
function lostOrError(compute, channel, restartsBefore, error) {
  return compute.describe(channel).restarts > restartsBefore ? model.LOST_WITH_WORKER : error;
}

// One run's steps, asked for a few at a time until it is paused, reset, done or failed.
// trainer: { state, compute, nameOf, textFor, update } (createRunner's).
async function loop(trainer, key, generation) {
  const { state, compute, nameOf, update } = trainer;
  const channel = `train-${key}`;
  const { mode, restarts } = compute.describe(channel);
  const perCall = model.stepsPerCall(mode, state.settings.d);
  const total = state.settings.steps;
  while (generation === state.generation && state.playing) {
    const run = state.runs.find((r) => r.key === key);
    const count = model.nextCount(run, total, perCall);
    if (count === 0 || run.status === 'failed') return;
    const measure = model.shouldMeasure(run.step + count, total, perCall);
    const outcome = await compute.run(channel, 'trainingSteps', {
      name: nameOf(key),
      count,
      measure,
    });
    if (generation !== state.generation || outcome.stale) return;
    if (outcome.error) {
      const error = lostOrError(compute, channel, restarts, outcome.error);
      return update(key, (r) => model.failed(r, error));
    }
    update(key, (r) => model.stepped(r, outcome.value, total));
    if (model.shouldSample(outcome.value.step, total)) await sample(trainer, key, generation);
  }
}

// Starts one run in the core, then its loop.
async function begin(trainer, key, generation) {
  const { state, compute, nameOf, textFor, update } = trainer;
  const { d, learningRate } = state.settings;
  await settled(compute, `train-${key}`);
  if (generation !== state.generation) return;
  const { scale, head } = model.RUNS.find((run) => run.key === key);
  const outcome = await compute.run(`train-${key}`, 'trainingStart', {
    name: nameOf(key),
    text: textFor(state.settings),
    d,
    learningRate,
    scale,
    config: head ? 'head' : 'nohead',
    ...model.FIXED,
  });
  if (generation !== state.generation) return;
  if (outcome.error) return update(key, (r) => model.failed(r, outcome.error));
  state.notice = model.sourceNotice(state.settings, outcome.value);
  update(key, (r) => model.started(r, outcome.value));
  await sample(trainer, key, generation);
  loop(trainer, key, generation);
}

export function createRunner({ compute, nameOf, textFor, onChange }) {
  const state = { generation: 0, playing: false, settings: null, runs: [], notice: '' };
  const update = (key, change) => {
    state.runs = state.runs.map((run) => (run.key === key ? change(run) : run));
    onChange();
  };
  const trainer = { state, compute, nameOf, textFor, update };

  // settings: checked ones, with the learning rate resolved (never null here).
  function start(settings) {
    state.settings = settings;
    state.playing = true;
    state.runs = model.RUNS.map(({ key }) => model.emptyRun(key));
    for (const { key } of model.RUNS) begin(trainer, key, state.generation);
    onChange();
  }

  function reset() {
    state.generation += 1;
    state.playing = false;
    for (const { key } of model.RUNS)
      compute.run(`train-${key}`, 'trainingStop', { name: nameOf(key) });
    state.runs = [];
    state.notice = '';
    onChange();
  }

  function pauseOrResume() {
    state.playing = !state.playing;
    if (state.playing) for (const { key } of model.RUNS) loop(trainer, key, state.generation);
    onChange();
  }

  return {
    start,
    reset,
    pauseOrResume,
    // What the figure draws: { runs, settings, playing, finished, notice }.
    view() {
      const { runs } = state;
      const finished =
        runs.length > 0 && runs.every((r) => r.status === 'done' || r.status === 'failed');
      if (finished) state.playing = false;
      return {
        runs,
        settings: state.settings,
        playing: state.playing,
        finished,
        notice: state.notice,
      };
    },
  };
}
