// The compute client's promises: latest request wins per channel, every call resolves,
// refused or dying workers fall back to the page, with a fake worker and fake timers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createCompute } from '../../src/compute/client.js';

// A worker that answers only when the test says so, and can be refused or killed.
class FakeWorker {
  constructor() {
    this.sent = [];
    this.terminated = false;
  }
  postMessage(message) {
    this.sent.push(message);
  }
  terminate() {
    this.terminated = true;
  }
  ready() {
    this.onmessage({ data: { type: 'ready' } });
  }
  // As the real worker does, with the core's own time for the call.
  answer(index, value) {
    this.onmessage({ data: { id: this.sent[index].id, value, ms: 1.5 } });
  }
  crash(message) {
    this.onerror({ message, preventDefault() {} });
  }
}

function fakeTimers() {
  const queue = [];
  const delays = [];
  return {
    delays,
    setTimeout(fn, ms) {
      queue.push(fn);
      delays.push(ms);
      return queue.length;
    },
    clearTimeout() {},
    runAll() {
      while (queue.length) queue.shift()();
    },
    pending: () => queue.length,
  };
}

// A core whose methods echo their arguments, so a test can tell which call ran where.
const echoCore = {
  square: (x) => x * x,
  fail: () => {
    throw new Error('bad input');
  },
  // As core.js throws a refusal the core pinned on one request field.
  refuse: () => {
    throw Object.assign(new Error('scale factor 0 must be greater than 0'), { field: 'scale' });
  },
};

// An answer without its time, after checking it carries one (where the core ran on the page the
// client times the call itself).
function untimed(outcome) {
  if (!('value' in outcome)) return outcome;
  const { ms, ...rest } = outcome;
  assert.equal(typeof ms, 'number', "a value comes with the core's time for it");
  return rest;
}

function setup({ refuse = false, startAfter = null, startTimeoutMs } = {}) {
  const workers = [];
  const notices = [];
  const timers = fakeTimers();
  const compute = createCompute({
    core: echoCore,
    startWorker() {
      if (refuse) throw new Error('SecurityError');
      workers.push(new FakeWorker());
      return workers.at(-1);
    },
    onNotice: (message) => notices.push(message),
    timers,
    startAfter,
    ...(startTimeoutMs ? { startTimeoutMs } : {}),
  });
  return { compute, workers, notices, timers };
}

test('a call made while the worker starts runs on the page and resolves its value', async () => {
  const { compute, timers } = setup();
  const answer = compute.run('map', 'square', 3);
  timers.runAll();
  assert.deepEqual(untimed(await answer), { value: 9 });
});

test('startAfter holds the worker back: calls run on the page until it resolves', async () => {
  let release;
  const { compute, workers, timers } = setup({
    startAfter: new Promise((resolve) => {
      release = resolve;
    }),
  });
  const answer = compute.run('map', 'square', 5);
  timers.runAll();
  assert.deepEqual(untimed(await answer), { value: 25 });
  assert.equal(workers.length, 0, 'no worker before the promise resolves');
  release();
  await Promise.resolve();
  assert.equal(workers.length, 1, 'the worker starts once it resolves');
  workers[0].ready();
  assert.equal(compute.describe().mode, 'worker');
});

test('once ready, calls go to the worker and its answer resolves them', async () => {
  const { compute, workers } = setup();
  workers[0].ready();
  const answer = compute.run('map', 'square', 4);
  assert.deepEqual(workers[0].sent[0].args, [4]);
  workers[0].answer(0, 16);
  assert.deepEqual(untimed(await answer), { value: 16 });
  assert.equal(compute.describe().mode, 'worker');
});

test('only the latest waiting request is computed; the ones it overtook resolve stale', async () => {
  const { compute, workers } = setup();
  workers[0].ready();
  const first = compute.run('map', 'square', 1);
  const second = compute.run('map', 'square', 2);
  const third = compute.run('map', 'square', 3);
  assert.equal(workers[0].sent.length, 1, 'nothing is sent while one call runs');
  assert.deepEqual(untimed(await second), { stale: true });
  workers[0].answer(0, 1);
  assert.deepEqual(
    untimed(await first),
    { stale: true },
    'a newer request makes the running one stale',
  );
  assert.deepEqual(workers[0].sent[1].args, [3], 'the latest request is sent next');
  workers[0].answer(1, 9);
  assert.deepEqual(untimed(await third), { value: 9 });
});

test('channels are independent: a study does not overtake the map', async () => {
  const { compute, workers } = setup();
  workers[0].ready();
  const map = compute.run('map', 'square', 5);
  const study = compute.run('study', 'square', 6);
  assert.equal(workers[0].sent.length, 2);
  workers[0].answer(1, 36);
  workers[0].answer(0, 25);
  assert.deepEqual(untimed(await map), { value: 25 });
  assert.deepEqual(untimed(await study), { value: 36 });
});

test('an error from the core resolves { error } with its message', async () => {
  const { compute, timers } = setup();
  const answer = compute.run('map', 'fail');
  timers.runAll();
  assert.deepEqual(untimed(await answer), { error: 'bad input' });
});

test('a refusal keeps the request field the core blamed, on the page and from the worker', async () => {
  const blamed = { error: 'scale factor 0 must be greater than 0', field: 'scale' };
  const page = setup({ refuse: true });
  const here = page.compute.run('map', 'refuse');
  page.timers.runAll();
  assert.deepEqual(untimed(await here), blamed);
  const { compute, workers } = setup();
  workers[0].ready();
  const there = compute.run('map', 'refuse');
  workers[0].onmessage({ data: { id: workers[0].sent[0].id, ...blamed } });
  assert.deepEqual(untimed(await there), blamed);
});

test('a browser that refuses workers runs every call on the page and says why', async () => {
  const { compute, timers } = setup({ refuse: true });
  const answer = compute.run('map', 'square', 7);
  timers.runAll();
  assert.deepEqual(untimed(await answer), { value: 49 });
  assert.equal(compute.describe().mode, 'main-thread');
  assert.match(compute.describe().reason, /refused a worker: SecurityError/);
});

test('a worker that dies is restarted with a notice and the call it owed is answered', async () => {
  const { compute, workers, notices, timers } = setup();
  workers[0].ready();
  const answer = compute.run('map', 'square', 8);
  workers[0].crash('out of memory');
  assert.equal(workers[0].terminated, true);
  assert.equal(workers.length, 2, 'a second worker was started');
  assert.match(notices[0], /stopped \(out of memory\) and was restarted/);
  timers.runAll();
  assert.deepEqual(untimed(await answer), { value: 64 });
});

test('a worker that keeps dying gives way to the page after maxRestarts', async () => {
  const { compute, workers, notices, timers } = setup();
  for (let i = 0; i < 4; i += 1) {
    workers.at(-1).ready();
    workers.at(-1).crash('boom');
  }
  assert.equal(compute.describe().mode, 'main-thread');
  assert.match(notices.at(-1), /now runs on the page/);
  const answer = compute.run('map', 'square', 2);
  timers.runAll();
  assert.deepEqual(untimed(await answer), { value: 4 });
});

test('a worker gets 5 s to start unless the caller gives it longer', () => {
  assert.deepEqual(setup().timers.delays, [5000]);
  assert.deepEqual(setup({ startTimeoutMs: 20000 }).timers.delays, [20000]);
});
