// The training figure's model in Node: settings checks, how core results become runs, the
// chart's points and range, and the sentences, each checked against hand-made numbers on both
// sides of its wording. The seed spread comes from a hand-written table in the format of
// web/assets/learning-results.json (web/test/fixtures/learning-results.json).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as model from '../../src/figures/training/model.js';
import { compareLosses, learningRateFor, spreadOf } from '../../src/figures/training/spread.js';

const results = JSON.parse(
  readFileSync(new URL('../fixtures/learning-results.json', import.meta.url), 'utf8'),
);
const settings = Object.freeze({
  d: 64,
  steps: 300,
  learningRate: null,
  source: 'shakespeare',
  text: '',
});
const context = { results, settings };

const startResult = (peak, loss = 4.6) => ({
  step: 0,
  heldOutLoss: loss,
  meanPeak: peak,
  meanEntropy: 1,
  weights: new Float32Array(4),
  probe: ['a', 'b'],
  vocabulary: ['a', 'b', 'c'],
  characters: 1000,
});
const stepResult = (step, loss, peak, queryNorm, measure = true) => ({
  step,
  losses: Float32Array.from({ length: 10 }, () => loss + 0.1),
  queryGradientNorms: Float32Array.from({ length: 10 }, () => queryNorm),
  keyGradientNorms: Float32Array.from({ length: 10 }, () => queryNorm),
  ...(measure
    ? { heldOutLoss: loss, meanPeak: peak, meanEntropy: 1, weights: new Float32Array(4) }
    : {}),
});

// Four runs: start peaks, then one call of 10 steps with these losses, peaks and norms.
function runsWith({ sqrt, none, d, nohead = [1, 2.7, 1, 0] }) {
  return [
    ['sqrt', sqrt],
    ['none', none],
    ['d', d],
    ['nohead', nohead],
  ].map(([key, [startPeak, loss, peak, norm]]) =>
    model.stepped(
      model.started(model.emptyRun(key), startResult(startPeak)),
      stepResult(10, loss, peak, norm),
      300,
    ),
  );
}
const usual = () =>
  runsWith({ sqrt: [0.2, 2.5, 0.3, 0.1], none: [0.8, 2.7, 0.95, 0.5], d: [0.1, 2.6, 0.2, 0.01] });

test('settings: a bad width, step count, learning rate or short pasted text is refused by field', () => {
  const good = { d: '64', steps: '300', learningRate: '0.01', source: 'shakespeare', text: '' };
  assert.equal(model.checkSettings(good).value.d, 64);
  assert.equal(model.checkSettings(good).value.learningRate, 0.01);
  assert.equal(model.checkSettings({ ...good, learningRate: ' ' }).value.learningRate, null);
  const bad = model.checkSettings({
    d: '63',
    steps: '5',
    learningRate: 'NaN',
    source: 'pasted',
    text: 'short',
  });
  assert.deepEqual(Object.keys(bad.errors).sort(), ['d', 'learningRate', 'steps', 'text']);
  assert.match(bad.errors.text, /at least 65 characters \(this has 5\)/);
});

test('an empty pasted text is not called short until something is typed or Train pressed', () => {
  const { errors } = model.checkSettings({ d: '64', steps: '300', source: 'pasted', text: '' });
  assert.deepEqual(model.visibleErrors(errors, { text: '', tried: false }), {});
  assert.match(model.visibleErrors(errors, { text: '', tried: true }).text, /this has 0/);
  const typed = model.checkSettings({ d: '64', steps: '3', source: 'pasted', text: 'ab' }).errors;
  assert.deepEqual(Object.keys(model.visibleErrors(typed, { text: 'ab', tried: false })).sort(), [
    'steps',
    'text',
  ]);
});

test('a run keeps its first-step gradient, a held-out point per measuring call, and is done at the total', () => {
  const run = model.started(model.emptyRun('sqrt'), startResult(0.2));
  const once = model.stepped(run, stepResult(10, 3, 0.3, 0.12), 20);
  assert.deepEqual(model.chartPoints(once), [
    { x: 0, y: 4.6 },
    { x: 10, y: 3 },
  ]);
  assert.equal(once.firstStep.query, Math.fround(0.12));
  assert.equal(once.status, 'running');
  const unmeasured = model.stepped(once, stepResult(15, 2.5, 0.3, 0.5, false), 20);
  assert.equal(unmeasured.step, 15);
  assert.equal(
    unmeasured.latest.step,
    10,
    'a call that did not measure keeps the last measurement',
  );
  assert.equal(model.chartPoints(unmeasured).length, 2);
  const twice = model.stepped(unmeasured, stepResult(20, 2, 0.3, 0.5), 20);
  assert.equal(twice.firstStep.query, Math.fround(0.12), 'the first step is kept');
  assert.equal(twice.status, 'done');
  assert.equal(model.nextCount(once, 25, 10), 10);
  assert.equal(model.nextCount(twice, 25, 10), 5);
  assert.deepEqual(model.tableRows([twice])[0].trainingLoss, '2.100');
});

test('the progress line says the runs are starting until one has, then counts steps', () => {
  const empty = ['sqrt', 'none', 'd', 'nohead'].map((key) => model.emptyRun(key));
  assert.deepEqual(model.progress(empty, 300), { fraction: 0, text: 'Starting the four runs…' });
  const oneStarted = [model.started(empty[0], startResult(0.2)), ...empty.slice(1)];
  assert.equal(model.progress(oneStarted, 300).text, 'Starting the four runs…');
  const stepped = usual();
  assert.deepEqual(model.progress(stepped, 300), {
    fraction: 40 / 1200,
    text: 'Step 10 of 300 (3% of the four runs).',
  });
});

// The steps a run reaches, call by call, with nextCount.
function callEnds(totalSteps, perCall) {
  const ends = [];
  let run = { step: 0 };
  while (model.nextCount(run, totalSteps, perCall) > 0) {
    run = { step: run.step + model.nextCount(run, totalSteps, perCall) };
    ends.push(run.step);
  }
  return ends;
}

test('the first calls are half as long, then the calls line up with whole multiples', () => {
  assert.deepEqual(callEnds(45, 10), [5, 10, 20, 30, 40, 45]);
  assert.deepEqual(callEnds(30, 5), [3, 5, 10, 15, 20, 25, 30]);
  assert.deepEqual(callEnds(4, 10), [4]);
});

test('the held-out windows are measured early, every third call after, and at the end', () => {
  const measured = callEnds(300, 10).filter((step) => model.shouldMeasure(step, 300, 10));
  assert.deepEqual(measured, [5, 10, 20, 30, 60, 90, 120, 150, 180, 210, 240, 270, 300]);
  const wide = callEnds(300, 5).filter((step) => model.shouldMeasure(step, 300, 5));
  assert.deepEqual(wide.slice(0, 6), [3, 5, 10, 15, 30, 45]);
  assert.equal(model.shouldMeasure(35, 35, 10), true, 'the last step, off the grid');
  assert.deepEqual(
    [0, 40, 50, 100, 299, 300].map((step) => model.shouldSample(step, 300)),
    [true, false, true, true, false, true],
  );
});

test('the y range fits the points from a tenth of the way on, not the start', () => {
  const runs = usual().map((run) => model.stepped(run, stepResult(40, 2.31, 0.3, 0.1), 300));
  // Points at step ≥ 30: 2.31 only; padded by 0.05 and rounded out to tenths: 2.2 … 2.4.
  assert.deepEqual(model.lossAxisRange(runs, 300), { min: 2.2, max: 2.4 });
  // Before any such point: every point after the start (2.5 … 2.7 at step 10).
  assert.deepEqual(model.lossAxisRange(usual(), 300), { min: 2.4, max: 2.8 });
  const starts = [model.started(model.emptyRun('sqrt'), startResult(0.2, 4.17))];
  assert.deepEqual(model.lossAxisRange(starts, 300), { min: 4.1, max: 4.3 });
});

test('the rule: a difference is claimed only above twice the larger seed spread', () => {
  assert.deepEqual(compareLosses(1, 1.5, 0.125, 0.125), {
    verdict: 'lower',
    gap: 0.5,
    threshold: 0.25,
  });
  assert.deepEqual(compareLosses(1.5, 1, 0.125, 0.0625), {
    verdict: 'higher',
    gap: -0.5,
    threshold: 0.25,
  });
  // Exactly twice the spread is not more than it: about the same.
  assert.deepEqual(compareLosses(1, 1.5, 0.25, 0.125), {
    verdict: 'same',
    gap: 0.5,
    threshold: 0.5,
  });
  assert.equal(compareLosses(1, 1.5, null, 0.1).verdict, 'unknown');
  assert.equal(spreadOf(results, 64, 'none'), 0.05);
  assert.equal(spreadOf(results, 16, 'none'), null, 'no row for that width');
  assert.equal(spreadOf(null, 64, 'none'), null);
  assert.equal(learningRateFor(results, 256), 0.003);
  assert.equal(learningRateFor(null, 256), null);
});

test('a larger unscaled gradient is called larger, with its ratio, and a smaller one smaller', () => {
  const larger = model.findings(usual(), 65, context);
  assert.match(
    larger[1],
    /not smaller but 5\.0× larger than the 1\/√d head's \(0\.500 against 0\.100\)/,
  );
  assert.match(larger[1], /The 1\/d head's is the smallest, 0\.010, 0\.10 of the 1\/√d head's/);
  const smaller = model.findings(
    runsWith({ sqrt: [0.2, 2.5, 0.3, 0.4], none: [0.8, 2.7, 0.95, 0.1], d: [0.1, 2.6, 0.2, 0.2] }),
    65,
    context,
  );
  assert.match(smaller[1], /is 4\.0× smaller than the 1\/√d head's \(0\.100 against 0\.400\)/);
  assert.match(smaller[1], /The 1\/d head's is 0\.200\./);
});

// The scale multiplies the query's gradient on its way back, so 1/d alone makes the 1/d head's
// 1/√d as large as the 1/√d head's: 1/8 at d = 64. Only a ratio within a quarter of that is put
// down to the factor.
test("the 1/d head's small gradient is put down to the 1/d factor only when its ratio is near 1/√d", () => {
  const withD = (norm) =>
    model.findings(
      runsWith({
        sqrt: [0.2, 2.5, 0.3, 0.1],
        none: [0.8, 2.7, 0.95, 0.5],
        d: [0.1, 2.6, 0.2, norm],
      }),
      65,
      context,
    )[1];
  const near = withD(0.012); // 0.12 of 0.1, against 1/√64 = 0.125
  assert.match(near, /the smallest, 0\.012, 0\.12 of the 1\/√d head's, close to 1\/√64 = 0\.125\./);
  assert.match(
    near,
    /flows back through the same scale, and 1\/d is √64 = 8 times smaller than 1\/√d: that factor, more than its flat attention/,
  );
  const far = withD(0.05); // 0.5: four times the factor
  assert.match(
    far,
    /the smallest, 0\.050, 0\.50 of the 1\/√d head's; the factor 1\/d against 1\/√d alone would make it 0\.125\./,
  );
  assert.doesNotMatch(far, /that factor/);
  assert.doesNotMatch(withD(0.0078), /that factor/, '0.078 is below 0.8 × 0.125 = 0.1');
});

test('the loss sentence quotes every held-out loss, no head included, and uniform guessing', () => {
  const sentences = model.findings(usual(), 65, context);
  assert.match(
    sentences[0],
    /80% of its attention in the unscaled head, 20% with 1\/√d and 10% with 1\/d/,
  );
  assert.match(
    sentences[2],
    /After 10 steps .* is 2\.500 with 1\/√d, 2\.700 unscaled, 2\.600 with 1\/d and 2\.700 with no head at all;/,
  );
  assert.match(sentences[2], /65 characters would score 4\.174/); // ln 65 = 4.1744
});

// Spreads at d = 64 in the fixture: no head 0.01, 1/√d 0.02, 1/d 0.03, unscaled 0.05.
test('behind, ahead or about the same follow the gap against twice the seed spread', () => {
  const behind = model.findings(usual(), 65, context);
  assert.equal(
    behind[3],
    'The unscaled head is behind the 1/√d head by 0.200 nats, more than twice the seed spread (2 × 0.0500 = 0.100).',
  );
  const ahead = model.findings(
    runsWith({ sqrt: [0.2, 2.7, 0.6, 0.1], none: [0.8, 2.55, 0.7, 0.5], d: [0.1, 2.6, 0.2, 0.01] }),
    65,
    context,
  );
  assert.match(ahead[3], /is ahead of the 1\/√d head by 0\.150 nats/);
  const same = model.findings(
    runsWith({ sqrt: [0.2, 2.5, 0.6, 0.1], none: [0.8, 2.59, 0.5, 0.5], d: [0.1, 2.6, 0.2, 0.01] }),
    65,
    context,
  );
  assert.match(
    same[3],
    /The unscaled head is about the same as the 1\/√d head \(the gap, 0\.090 nats, is not more than twice the seed spread: 2 × 0\.0500 = 0\.100\)/,
  );
});

test('each head is held against no head at all with the same rule', () => {
  const sentences = model.findings(
    runsWith({
      sqrt: [0.2, 2.5, 0.3, 0.1],
      none: [0.8, 2.75, 0.95, 0.5],
      d: [0.1, 2.65, 0.2, 0.01],
    }),
    65,
    context,
  );
  // 1/√d: 0.2 below 2.7, threshold 2 × max(0.02, 0.01) = 0.04; unscaled 0.05 above, threshold
  // 0.1; 1/d 0.05 below, threshold 0.06.
  assert.equal(
    sentences[4],
    'Against no head at all: the 1/√d head is ahead of no head by 0.200 nats, more than twice ' +
      'the seed spread (2 × 0.0200 = 0.040); the unscaled head is about the same as no head (the ' +
      'gap, 0.050 nats, is not more than twice the seed spread: 2 × 0.0500 = 0.100); the 1/d head ' +
      'is about the same as no head (the gap, 0.050 nats, is not more than twice the seed spread: ' +
      '2 × 0.0300 = 0.060).',
  );
});

test('collapsed, sharper or no sharper follow the peaks', () => {
  assert.match(
    model.findings(usual(), 65, context)[5],
    /takes 95% .* 30% with 1\/√d: its attention has collapsed/,
  );
  const sharper = model.findings(
    runsWith({ sqrt: [0.2, 2.7, 0.6, 0.1], none: [0.8, 2.5, 0.7, 0.5], d: [0.1, 2.6, 0.2, 0.01] }),
    65,
    context,
  );
  assert.match(sharper[5], /70% .* 60% with 1\/√d: sharper, but not collapsed/);
});

// Runs that all reached `step`, measured there.
const runsAt = (step) =>
  usual().map((run) => model.stepped(run, stepResult(step, 2.5, 0.3, 0.1), 300));

test('without the spread table no difference is claimed, and other settings are flagged', () => {
  const unknown = model.findings(usual(), 65, { results: null, settings });
  assert.match(unknown[3], /has a loss 0\.200 nats above the 1\/√d head's .*did not load/);
  assert.doesNotMatch(unknown.join(' '), /behind|ahead of|about the same/);
  const done = model.findings(runsAt(300), 65, context).at(-1);
  assert.equal(
    done,
    'The seed spread says how much the loss at step 300 moves when only the seed changes. It ' +
      "is the standard deviation of 3 runs made outside the browser, on the page's Shakespeare " +
      "at each width's own rate. A gap between two models is held to the larger of their two " +
      'spreads.',
  );
  const other = model.findings(runsAt(100), 65, {
    results,
    settings: { ...settings, steps: 100 },
  });
  assert.match(
    other.at(-1),
    /Your settings differ from those runs, so here it is only a rough guide\.$/,
  );
  const pasted = { ...settings, source: 'pasted', text: 'x'.repeat(100) };
  assert.match(model.findings(runsAt(300), 65, { results, settings: pasted }).at(-1), /differ/);
  const ownRate = { ...settings, learningRate: 0.01 }; // the width's own, typed in
  assert.doesNotMatch(
    model.findings(runsAt(300), 65, { results, settings: ownRate }).at(-1),
    /rough/,
  );
  const otherRate = { ...settings, learningRate: 0.03 };
  assert.match(model.findings(runsAt(300), 65, { results, settings: otherRate }).at(-1), /differ/);
});

test('before the step the spread was measured at, it is called a rough guide', () => {
  assert.match(
    model.findings(usual(), 65, context).at(-1),
    /Until step 300 it is only a rough guide\.$/,
  );
  assert.match(model.findings(runsAt(290), 65, context).at(-1), /Until step 300/);
  assert.doesNotMatch(model.findings(runsAt(300), 65, context).at(-1), /rough guide/);
});

test('sentences compare the runs at the last step all four were measured at', () => {
  const runs = usual();
  runs[0] = model.stepped(runs[0], stepResult(20, 2.0, 0.3, 0.1), 300);
  const sentences = model.findings(runs, 65, context);
  assert.match(sentences[2], /After 10 steps .* is 2\.500 with 1\/√d/);
});

test('a failed run is said, and nothing compares it', () => {
  const runs = usual();
  runs[3] = model.failed(runs[3], 'the run diverged at step 3');
  assert.deepEqual(model.findings(runs, 65, context), [
    'The model with no head stopped: the run diverged at step 3',
  ]);
});

test('the source notice quotes the size of the held-out set the core measured', () => {
  const started = { characters: 59804, vocabulary: ['a', 'b', 'c'], heldOutPredictions: 2048 };
  assert.match(
    model.sourceNotice(settings, started),
    /^The first 59,804 characters of Tiny Shakespeare \(3 distinct\).*\(2,048 predictions, a small set for speed\)\.$/,
  );
  const smaller = model.sourceNotice(settings, { ...started, heldOutPredictions: 640 });
  assert.match(smaller, /\(640 predictions,/);
});

test('samples are listed in the runs’ order, with the step each was written at', () => {
  const runs = usual();
  runs[2] = model.sampled(runs[2], { step: 50, text: 'Fa' });
  runs[0] = model.sampled(runs[0], { step: 0, text: 'Fb' });
  assert.deepEqual(model.samples(runs), [
    { key: 'sqrt', label: '1/√d', step: 0, text: 'Fb' },
    { key: 'd', label: '1/d', step: 50, text: 'Fa' },
  ]);
});

test('with the committed table, the page reads each width’s rate and its spreads by name', () => {
  const committed = JSON.parse(
    readFileSync(new URL('../../assets/learning-results.json', import.meta.url), 'utf8'),
  );
  for (const d of model.WIDTHS) {
    assert.ok(learningRateFor(committed, d) > 0, `a rate for d = ${d}`);
    for (const { key } of model.RUNS)
      assert.ok(spreadOf(committed, d, key) > 0, `${key}, d = ${d}`);
  }
  // At d = 64 the unscaled head is held to 2 × max(sd of none, sd of sqrt) of the page rows.
  const threshold = 2 * Math.max(spreadOf(committed, 64, 'none'), spreadOf(committed, 64, 'sqrt'));
  const gapOf = (gap) =>
    model.findings(
      runsWith({
        sqrt: [0.2, 2.5, 0.3, 0.1],
        none: [0.8, 2.5 + gap, 0.95, 0.5],
        d: [0.1, 2.6, 0.2, 0.01],
      }),
      65,
      { results: committed, settings },
    )[3];
  assert.match(gapOf(threshold * 0.9), /about the same as the 1\/√d head/);
  assert.match(gapOf(threshold * 1.1), /is behind the 1\/√d head by/);
});

test('the live note is two sentences within the note budget, by the spread rule', async () => {
  const { sentences } = await import('../../../scripts/prose/measure.mjs');
  const { noteOverBudget } = await import('../../../scripts/prose.mjs');
  const note = model.summary(usual(), context);
  assert.equal(note.length, 2);
  const text = note.join(' ');
  assert.deepEqual(noteOverBudget(text), [], text);
  assert.equal(sentences(text), 2);
  assert.match(note[0], /^After 10 steps, held-out loss: 2\.500 with 1\/√d, 2\.600 with 1\/d/);
  // Against no head (2.7): each verdict is the spread rule's, quoted with its gap.
  for (const key of ['sqrt', 'd', 'none']) {
    const run = usual().find((r) => r.key === key);
    const gap = 2.7 - run.latest.heldOutLoss;
    const { verdict } = compareLosses(
      run.latest.heldOutLoss,
      2.7,
      spreadOf(results, 64, key),
      spreadOf(results, 64, 'nohead'),
    );
    const label = { sqrt: '1/√d is', d: '1/d', none: 'unscaled' }[key];
    const said = verdict === 'same' ? 'about the same' : `better by ${gap.toFixed(3)}`;
    assert.ok(note[1].includes(`${label} ${said}`), `${key}: ${note[1]}`);
  }
  assert.deepEqual(model.summary([], context), []);
});

test('the printout says the run’s settings in one sentence, the rate and the text as chosen', () => {
  assert.equal(
    model.settingsSentence(model.DEFAULT_SETTINGS),
    'Settings: head width d = 64, 300 steps, the width’s own learning rate, learning from Shakespeare.',
  );
  assert.equal(
    model.settingsSentence({
      d: 16,
      steps: 120,
      learningRate: 0.03,
      source: 'pasted',
      text: 'x'.repeat(70),
    }),
    'Settings: head width d = 16, 120 steps, learning rate 0.03, learning from a pasted text of 70 characters.',
  );
});

test('the chart marks where the lines start when its fitted axis leaves the start out', () => {
  const run = (start, later) => ({
    history: [
      { step: 0, heldOutLoss: start },
      { step: 100, heldOutLoss: later },
    ],
  });
  const runs = [run(4.081, 2.5), run(4.079, 2.4)];
  assert.equal(model.startMark(runs, { min: 2.3, max: 2.6 }), 'start: 4.08 ↑');
  assert.equal(model.startMark(runs, { min: 2.3, max: 4.2 }), null);
  assert.equal(model.startMark([], { min: 0, max: 5 }), null);
});
