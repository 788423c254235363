// The copying head's pure parts: the growth chart's model (web/src/figures/copying/model.js)
// against the recorded curve read here from the JSON, the live note (lib/copying-note.js) on
// hand-made counts, and the map's link form for the two layers (state.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  createGrower,
  emptyGrowth,
  growthRequest,
  STEPS_PER_CALL,
  started,
  statusText,
  stepped,
} from '../../src/figures/copying/grower.js';
import { createGrownHead, MAP_CHANNEL } from '../../src/figures/copying/grown-head.js';
import {
  checkGrowSettings,
  copyingLink,
  READING_DEFAULTS,
} from '../../src/figures/copying/link.js';
import { aboutDuration, growthModel } from '../../src/figures/copying/model.js';
import { copyingNoteText, guessLine } from '../../src/lib/copying-note.js';
import { COPYING_HEAD, copyingLayer } from '../../src/trained/copying-head.js';
import {
  createChecks,
  DEFAULT_STATE,
  parseHash,
  serializeHash,
  widthRests,
} from '../../src/state.js';
import { noteOverBudget } from '../../../scripts/prose.mjs';

const saved = JSON.parse(
  readFileSync(new URL('../../assets/copying-head.json', import.meta.url), 'utf8'),
);
const checks = createChecks({ maxMapWidth: 1024 });

test('the growth chart draws the recorded loss and layer 2 score, and marks the first 0.3', () => {
  const model = growthModel(COPYING_HEAD);
  const { step, trainLoss, induction } = saved.curve;
  // the recording's first point has no training loss yet (null): it is left out, not drawn as 0
  assert.equal(model.loss.length, trainLoss.filter((y) => y !== null).length);
  assert.deepEqual(model.induction.at(-1), { x: step.at(-1), y: induction[1].at(-1) });
  const first = step[induction[1].findIndex((score) => score >= 0.3)];
  assert.equal(model.formedAt, first);
  assert.equal(model.formedLabel, `head forms: step ${first}`);
  assert.match(model.ariaLabel, new RegExp(`at step ${first}\\.`));
  // the step where snippets of Shakespeare joined the random strings, marked and said
  assert.equal(model.mixAt, saved.training.laterStep);
  assert.match(model.ariaLabel, new RegExp(`steps down at ${saved.training.laterStep}\\b`));
  const oneMix = growthModel({ ...COPYING_HEAD, training: { ...saved.training, laterStep: -1 } });
  assert.equal(oneMix.mixAt, null);
  assert.doesNotMatch(oneMix.ariaLabel, /steps down/);
  const { repeatedWindows, laterRandomWindows } = saved.training;
  assert.ok(
    model.timing.includes(
      `${repeatedWindows - laterRandomWindows} of every ${repeatedWindows} repeated`,
    ),
    model.timing,
  );
  assert.doesNotMatch(oneMix.timing, /repeated strings are Shakespeare/);
  const seconds = (saved.training.msPerStep * saved.training.steps) / 1000;
  assert.match(model.timing, /^Recorded from the native run \(npm run grow\)/);
  assert.ok(model.timing.includes(`took ${aboutDuration(seconds)} of one core.`), model.timing);
  // A browser's time is only ever said where it was measured: nothing estimated here.
  assert.doesNotMatch(model.timing, /browser/);
  assert.doesNotMatch(model.timing, /about 0 /);
  assert.equal(model.table.length, step.length);
});

test('a duration reads in seconds up to a minute and a half, then in minutes', () => {
  assert.equal(aboutDuration(14.4), 'about 14 s');
  assert.equal(aboutDuration(89.4), 'about 89 s');
  assert.equal(aboutDuration(90), 'about 2 minutes');
  assert.equal(aboutDuration(112), 'about 2 minutes');
  assert.equal(aboutDuration(200), 'about 3 minutes');
});

test('the live note quotes the counts it is given, within the note budget', () => {
  const note = copyingNoteText({ layer: 2, rowsWithEarlier: 30, rowsIntoCopy: 16 });
  assert.ok(note.includes('Of the 30 rows whose character came earlier, 16 (53%)'), note);
  const none = copyingNoteText({ layer: 1, rowsWithEarlier: 0, rowsIntoCopy: 0 });
  assert.match(none, /^Layer 1/);
  assert.doesNotMatch(none, /NaN/);
  for (const text of [note, none]) assert.deepEqual(noteOverBudget(text), [], text);
});

test('vectors=copying-1 and copying-2 fix the model’s fields and round-trip; old links do not move', () => {
  for (const [vectors, layer] of [
    ['copying-1', 1],
    ['copying-2', 2],
  ]) {
    const { state, messages } = parseHash(`#vectors=${vectors}&d=7&causal=0&tokens=words`, checks);
    assert.deepEqual(messages, []);
    assert.equal(copyingLayer(state.vectors), layer);
    assert.deepEqual([state.tokens, state.d, state.causal], ['chars', saved.config.d, true]);
    assert.equal(state.scale.mode, saved.config.scale);
    assert.equal(widthRests({ ...state, init: 'standard' }), true);
    const hash = serializeHash(state);
    assert.equal(serializeHash(parseHash(hash, checks).state), hash);
  }
  assert.equal(copyingLayer('trained'), null);
  for (const old of ['#vectors=learned', '#vectors=token', '#pos=1', '#text=abc']) {
    const { state } = parseHash(old, checks);
    assert.equal(copyingLayer(state.vectors), null, old);
  }
  assert.equal(parseHash('', checks).state.vectors, DEFAULT_STATE.vectors);
  assert.match(parseHash('#vectors=copying-3', checks).messages[0], /copying-1, copying-2/);
});

test('the guess names the three likeliest next letters, spaces made visible, none rounded to 0%', () => {
  assert.equal(
    guessLine([
      { character: 'c', probability: 0.9 },
      { character: ' ', probability: 0.06 },
      { character: 'x', probability: 0.001 },
    ]),
    'Its guess for the next letter: “c” 90%, “␣” 6%, “x” under 1%.',
  );
});

// Section 9's "grow it yourself": the request from the recorded recipe, the run's record and its
// sentence, the loop on a fake worker, and the link's seed and steps.
test('the grow request is the recorded run’s recipe with the reader’s seed', () => {
  const request = growthRequest(7);
  const { training, config } = saved;
  assert.deepEqual(request, {
    seed: 7,
    shares: 4,
    d: config.d,
    context: config.context,
    batch: training.batch,
    repeated: training.repeatedWindows,
    random: training.randomWindows,
    shortest: 16,
    longest: 64,
    learningRate: training.learningRate,
    warmup: training.warmupSteps,
    laterStep: training.laterStep,
    laterRandom: training.laterRandomWindows,
  });
});

const answer = (step, losses, score) => ({
  step,
  losses: Float32Array.from(losses),
  measure: { step, induction: [0.1, score] },
});

test('a run records the mean loss and layer 2’s score, and says when the head formed', () => {
  let growth = started(emptyGrowth({ seed: 1, steps: 100 }), answer(0, [], 0.02));
  assert.deepEqual(growth.induction, [{ x: 0, y: 0.02 }]);
  growth = stepped(growth, answer(25, [4, 3], 0.1), 2.4);
  assert.deepEqual(growth.loss, [{ x: 25, y: 3.5 }]);
  assert.equal(
    statusText(growth),
    "Step 25 of 100, 2 s. Layer 2's induction score is 0.10; the head has not formed yet.",
  );
  growth = stepped(growth, answer(50, [2], 0.31), 6.6);
  growth = stepped(growth, answer(75, [2], 0.29), 9);
  assert.equal(growth.formedAt, 50); // the first crossing, kept when the score dips
  assert.equal(
    statusText(growth),
    "Step 75 of 100, 9 s. The head formed at step 50, 7 s after the click: layer 2's induction score passed 0.3.",
  );
  assert.equal(stepped(growth, answer(100, [2], 0.5), 12).status, 'done');
  const broken = stepped(growth, answer(100, [Number.NaN], 0.5), 12);
  assert.equal(broken.status, 'failed');
  assert.match(statusText(broken), /^The run stopped: the run diverged/);
  for (const text of [statusText(growth), statusText(broken)]) assert.doesNotMatch(text, /NaN/);
});

// A worker that answers at once: growthStart, then growthSteps of `count` each (score 0.4 from
// step 50 on); the second call of growthSteps is overtaken (stale: it never ran).
function fakeCompute() {
  const calls = [];
  let step = 0;
  let stepCalls = 0;
  return {
    calls,
    describe: () => ({ mode: 'worker' }),
    async run(channel, method, request) {
      calls.push({ channel, method, request });
      if (method === 'growthStart') return { value: { measure: { step: 0, induction: [0, 0] } } };
      if (method !== 'growthSteps') return { value: {} };
      stepCalls += 1;
      if (stepCalls === 2) return { stale: true };
      step += request.count;
      return { value: answer(step, [3], step >= 50 ? 0.4 : 0.1) };
    },
  };
}

test('the grower steps to the reader’s count in calls of at most STEPS_PER_CALL, asking again when overtaken', async () => {
  const compute = fakeCompute();
  const seen = [];
  let models = 0;
  let clock = 0;
  const grower = createGrower({
    compute,
    textFor: async () => 'some text',
    onChange: (growth) => seen.push(growth.status),
    onModel: () => {
      models += 1;
    },
    now: () => (clock += 100),
  });
  await grower.start({ seed: 3, steps: 60 });
  await new Promise((resolve) => setTimeout(resolve, 0));
  const growth = grower.growth();
  assert.equal(growth.status, 'done');
  assert.equal(growth.step, 60);
  assert.equal(growth.formedAt, 50);
  const counts = compute.calls
    .filter((c) => c.method === 'growthSteps')
    .map((c) => c.request.count);
  // the overtaken call is asked for again
  assert.deepEqual(counts, [
    STEPS_PER_CALL,
    STEPS_PER_CALL,
    STEPS_PER_CALL,
    60 - 2 * STEPS_PER_CALL,
  ]);
  assert.equal(compute.calls[0].request.seed, 3);
  assert.equal(compute.calls[0].request.text, 'some text');
  assert.equal(models, 4); // the start, and each call
  assert.deepEqual(grower.mapRequest({ text: 'ab' }), {
    channel: 'grow@0/read',
    request: { name: 'copying-growth', text: 'ab' },
  });
  grower.stopOrGoOn(); // a finished run neither stops nor goes on
  assert.equal(grower.growth().status, 'done');
  assert.equal(seen[0], 'starting');
});

test('the link reads and writes the seed and steps of the head to grow', () => {
  const { state, messages } = copyingLink.parse(new URLSearchParams('grow-seed=12&grow-steps=800'));
  assert.deepEqual([state.seed, state.steps, messages], [12, 800, []]);
  assert.deepEqual(copyingLink.serialize(state), [
    ['grow-seed', '12'],
    ['grow-steps', '800'],
  ]);
  assert.deepEqual(copyingLink.serialize(READING_DEFAULTS), []); // old links read the same
  const bad = copyingLink.parse(new URLSearchParams('grow-seed=-1&grow-steps=99999'));
  assert.deepEqual([bad.state.seed, bad.state.steps], [0, 2000]);
  assert.equal(bad.messages.length, 2);
  assert.match(bad.messages[0], /seed must be a whole number from 0 to 999,999/);
  assert.deepEqual(checkGrowSettings(' 5 ', '300'), { value: { seed: 5, steps: 300 } });
  assert.match(checkGrowSettings('1e3', '300').error, /^The seed must be a whole number/);
  assert.match(
    checkGrowSettings('1', '50').error,
    /^The steps must be a whole number from 100 to 5,000\.$/,
  );
});

test('a stopped run asks for nothing more, goes on where it stopped, and its seconds leave out the pause', async () => {
  const pending = []; // the growthSteps calls not yet answered
  let step = 0;
  const compute = {
    describe: () => ({ mode: 'worker' }),
    run: (channel, method, request) =>
      method === 'growthStart'
        ? Promise.resolve({ value: { measure: { step: 0, induction: [0, 0] } } })
        : new Promise((resolve) => pending.push({ request, resolve })),
  };
  let clock = 0;
  const grower = createGrower({
    compute,
    textFor: async () => 'text',
    onChange: () => {},
    onModel: () => {},
    now: () => clock,
  });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  const answerNext = async (seconds) => {
    clock += seconds * 1000;
    const call = pending.shift();
    step += call.request.count;
    call.resolve({ value: answer(step, [3], 0.1) });
    await settle();
  };
  await grower.start({ seed: 0, steps: 100 });
  await settle();
  await answerNext(1); // step 25 at 1 s
  grower.stopOrGoOn();
  assert.equal(grower.growth().status, 'stopped');
  await answerNext(1); // the call in flight at the stop still lands: step 50 at 2 s
  assert.equal(pending.length, 0, 'nothing more asked while stopped');
  assert.equal(grower.growth().step, 50);
  clock += 60_000; // a minute's pause
  grower.stopOrGoOn();
  grower.stopOrGoOn(); // stop and go on again at once: still one loop
  grower.stopOrGoOn();
  await settle();
  assert.equal(pending.length, 1);
  await answerNext(1);
  assert.equal(grower.growth().step, 75);
  assert.equal(grower.growth().seconds, 3);
});

test('the page’s grown head tells its listeners, and maps only the run the link names', async () => {
  const compute = fakeCompute();
  const learning = { compute, load: async () => ({ shakespeare: 'some text' }) };
  const grown = createGrownHead(learning);
  const heard = [];
  const unlisten = grown.listen((kind, growth) => heard.push(`${kind} ${growth.status}`));
  const fields = { text: 'ab', layer: 2, detail: 'first-rows' };
  assert.equal(grown.mapFor({ seed: 3, steps: 60 }, fields), null, 'nothing grown yet');
  await grown.grow({ seed: 3, steps: 60 });
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(grown.grower.growth().status, 'done');
  assert.equal(heard[0], 'change starting');
  assert.ok(heard.includes('model done'));
  const ask = grown.mapFor({ seed: 3, steps: 60 }, fields);
  assert.equal(ask.channel, MAP_CHANNEL);
  assert.equal(MAP_CHANNEL, 'grow@0/map', 'on the worker whose copy the maps read');
  assert.equal(ask.compute, compute);
  assert.deepEqual(ask.request, { name: 'copying-growth', ...fields });
  assert.equal(grown.mapFor({ seed: 4, steps: 60 }, fields), null, 'another seed');
  assert.equal(grown.mapFor({ seed: 3, steps: 2000 }, fields), null, 'another length');
  unlisten();
  const before = heard.length;
  grown.grower.stopOrGoOn();
  assert.equal(heard.length, before, 'a listener that left hears nothing');
});
