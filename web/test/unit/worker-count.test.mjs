// How many workers section 6's runs get (web/src/compute/worker-count.js): one per run where
// the device reports the cores, fewer (the runs then sharing) where it reports fewer, and one
// where it reports nothing usable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { workerCount } from '../../src/compute/worker-count.js';

test('one worker per run up to the cores the device reports, at least one', () => {
  const cases = [
    [4, 8, 4],
    [4, 4, 4],
    [4, 3, 3],
    [4, 2, 2],
    [4, 1, 1],
    [4, 0, 1],
    [4, undefined, 1],
    [4, 2.5, 1],
  ];
  for (const [runs, cores, expected] of cases)
    assert.equal(workerCount(runs, cores), expected, `${runs} runs, ${cores} cores`);
});
