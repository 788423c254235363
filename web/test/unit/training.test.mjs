// The training figure's model in Node: settings checks, how core results become runs, and the
// sentences, each checked against hand-made numbers on both sides of its wording.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as model from '../../src/figures/training/model.js';

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
const stepResult = (step, loss, peak, queryNorm) => ({
  step,
  heldOutLoss: loss,
  meanPeak: peak,
  meanEntropy: 1,
  weights: new Float32Array(4),
  losses: Float32Array.from({ length: 10 }, () => loss + 0.1),
  queryGradientNorms: Float32Array.from({ length: 10 }, () => queryNorm),
  keyGradientNorms: Float32Array.from({ length: 10 }, () => queryNorm),
});

// Three runs: start peaks, then one call of 10 steps with these losses, peaks and norms.
function runsWith({ sqrt, none, d }) {
  return [
    ['sqrt', sqrt],
    ['none', none],
    ['d', d],
  ].map(([key, [startPeak, loss, peak, norm]]) =>
    model.stepped(
      model.started(model.emptyRun(key), startResult(startPeak)),
      stepResult(10, loss, peak, norm),
      300,
    ),
  );
}

test('settings: a bad width, step count, learning rate or short pasted text is refused by field', () => {
  const good = { d: '64', steps: '300', learningRate: '0.01', source: 'shakespeare', text: '' };
  assert.equal(model.checkSettings(good).value.d, 64);
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

test('a run after steps has one smoothed chart point, its first-step gradient, and is done at the total', () => {
  const run = model.started(model.emptyRun('sqrt'), startResult(0.2));
  const once = model.stepped(run, stepResult(10, 3, 0.3, 0.12), 20);
  assert.deepEqual(once.points, [{ x: 10, y: Math.fround(3.1) }]);
  assert.equal(once.firstStep.query, Math.fround(0.12));
  assert.equal(once.status, 'running');
  const twice = model.stepped(once, stepResult(20, 2, 0.3, 0.5), 20);
  assert.equal(twice.firstStep.query, Math.fround(0.12), 'the first step is kept');
  assert.equal(twice.status, 'done');
  assert.equal(model.nextCount(once, 25, 10), 10);
  assert.equal(model.nextCount(twice, 25, 10), 5);
});

test('a larger unscaled gradient is called larger, with its ratio, and a smaller one smaller', () => {
  const larger = model.findings(
    runsWith({ sqrt: [0.2, 2.5, 0.3, 0.1], none: [0.8, 2.7, 0.95, 0.5], d: [0.1, 2.6, 0.2, 0.01] }),
    65,
  );
  assert.match(
    larger[1],
    /not smaller but 5\.0× larger than the 1\/√d head's \(0\.500 against 0\.100\)/,
  );
  assert.match(larger[1], /The 1\/d head's is the smallest, 0\.010/);
  const smaller = model.findings(
    runsWith({ sqrt: [0.2, 2.5, 0.3, 0.4], none: [0.8, 2.7, 0.95, 0.1], d: [0.1, 2.6, 0.2, 0.2] }),
    65,
  );
  assert.match(smaller[1], /is 4\.0× smaller than the 1\/√d head's \(0\.100 against 0\.400\)/);
  assert.match(smaller[1], /The 1\/d head's is 0\.200\./);
});

test('the loss sentence quotes every held-out loss and uniform guessing, ln of the vocabulary', () => {
  const sentences = model.findings(
    runsWith({ sqrt: [0.2, 2.5, 0.3, 0.1], none: [0.8, 2.7, 0.95, 0.5], d: [0.1, 2.6, 0.2, 0.01] }),
    65,
  );
  assert.match(
    sentences[0],
    /80% of its attention in the unscaled head, 20% with 1\/√d and 10% with 1\/d/,
  );
  assert.match(
    sentences[2],
    /After 10 steps .* is 2\.500 with 1\/√d, 2\.700 unscaled and 2\.600 with 1\/d;/,
  );
  assert.match(sentences[2], /65 characters would score 4\.174/); // ln 65 = 4.1744
});

test('behind, ahead or level, and collapsed or not, follow the numbers', () => {
  const behind = model.findings(
    runsWith({ sqrt: [0.2, 2.5, 0.3, 0.1], none: [0.8, 2.7, 0.95, 0.5], d: [0.1, 2.6, 0.2, 0.01] }),
    65,
  );
  assert.equal(behind[3], 'The unscaled head is behind the 1/√d head by 0.200 nats.');
  assert.match(behind[4], /takes 95% .* against 30% with 1\/√d: its attention has collapsed/);
  const ahead = model.findings(
    runsWith({ sqrt: [0.2, 2.7, 0.6, 0.1], none: [0.8, 2.5, 0.7, 0.5], d: [0.1, 2.6, 0.2, 0.01] }),
    65,
  );
  assert.match(
    ahead[3],
    /ahead of the 1\/√d head by 0\.200 nats: at this width and step, dividing by √d has not helped/,
  );
  assert.match(ahead[4], /70% .* 60% with 1\/√d: sharper, but not collapsed/);
  const level = model.findings(
    runsWith({ sqrt: [0.2, 2.5, 0.6, 0.1], none: [0.8, 2.51, 0.5, 0.5], d: [0.1, 2.6, 0.2, 0.01] }),
    65,
  );
  assert.match(level[3], /level so far/);
  assert.match(level[4], /no sharper/);
});

test('sentences compare the runs at the last step all three reached', () => {
  const runs = runsWith({
    sqrt: [0.2, 2.5, 0.3, 0.1],
    none: [0.8, 2.7, 0.95, 0.5],
    d: [0.1, 2.6, 0.2, 0.01],
  });
  runs[0] = model.stepped(runs[0], stepResult(20, 2.0, 0.3, 0.1), 300);
  const sentences = model.findings(runs, 65);
  assert.match(sentences[2], /After 10 steps .* is 2\.500 with 1\/√d/);
});

test('a failed run is said, and nothing compares it', () => {
  const runs = runsWith({
    sqrt: [0.2, 2.5, 0.3, 0.1],
    none: [0.8, 2.7, 0.95, 0.5],
    d: [0.1, 2.6, 0.2, 0.01],
  });
  runs[1] = model.failed(runs[1], 'the run diverged at step 3');
  assert.deepEqual(model.findings(runs, 65), [
    'The unscaled head stopped: the run diverged at step 3',
  ]);
});
