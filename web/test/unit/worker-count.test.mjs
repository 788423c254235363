// How many workers section 6's runs get (web/src/compute/worker-count.js): one per run up to two
// per core the device reports, and two where it reports nothing usable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { growthWorkers, workerCount } from '../../src/compute/worker-count.js';

test('one worker per run, up to two per reported core', () => {
  const cases = [
    [4, 8, 4],
    [4, 2, 4],
    [4, 1, 2],
    [3, 1, 2],
    [1, 4, 1],
    [4, 0, 2],
    [4, undefined, 2],
    [4, 2.5, 2],
  ];
  for (const [runs, cores, expected] of cases)
    assert.equal(workerCount(runs, cores), expected, `${runs} runs, ${cores} cores`);
});

test('the page starts as many training workers as section 6 has runs', async () => {
  const { TRAINING_RUNS } = await import('../../src/compute/worker-count.js');
  const { RUNS } = await import('../../src/figures/training/model.js');
  assert.equal(TRAINING_RUNS, RUNS.length);
});

test('growing takes one worker under four cores, then a power of two dividing the shares', () => {
  const cases = [
    [4, 2, 1],
    [4, 3, 1],
    [4, undefined, 1],
    [4, 4, 2], // two workers and the page's own thread
    [4, 5, 4],
    [4, 16, 4],
    [2, 16, 2],
    [6, 8, 2], // 4 does not divide 6
  ];
  for (const [shares, cores, expected] of cases)
    assert.equal(growthWorkers(shares, cores), expected, `${shares} shares, ${cores} cores`);
});
