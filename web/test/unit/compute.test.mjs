// The compute client's promises: latest request wins per channel, every call resolves,
// refused, silent or dying workers fall back to the page, a slow one does not, with a fake
// worker and fake timers.
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
  alive() {
    this.onmessage({ data: { type: 'alive' } });
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

// Timers on a clock the test moves: runAll() runs what is due now (the calls the client runs on
// the page, at 0 ms), advance(ms) moves the clock in steps of `step` ms and runs what falls due;
// busy(ms) moves it at once, as a page whose main thread was held that long.
function fakeTimers() {
  let time = 0;
  let queue = [];
  const runDue = () => {
    for (;;) {
      const due = queue.find((timer) => timer.at <= time);
      if (!due) return;
      queue = queue.filter((timer) => timer !== due);
      due.fn();
    }
  };
  return {
    now: () => time,
    setTimeout(fn, ms) {
      const timer = { fn, at: time + ms };
      queue.push(timer);
      return timer;
    },
    clearTimeout(timer) {
      queue = queue.filter((queued) => queued !== timer);
    },
    runAll: runDue,
    advance(ms, step = 50) {
      for (let moved = 0; moved < ms; moved += step) {
        time += Math.min(step, ms - moved);
        runDue();
      }
    },
    busy(ms) {
      time += ms;
    },
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

function setup({ refuse = false, startAfter = null } = {}) {
  const workers = [];
  const notices = [];
  const modes = [];
  const timers = fakeTimers();
  const compute = createCompute({
    core: echoCore,
    startWorker() {
      if (refuse) throw new Error('SecurityError');
      workers.push(new FakeWorker());
      return workers.at(-1);
    },
    onNotice: (message) => notices.push(message),
    onMode: (mode, reason) => modes.push({ mode, reason }),
    timers,
    startAfter,
  });
  return { compute, workers, notices, modes, timers };
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

test('a worker that never says it runs gives way to the page after 5 s', () => {
  const { compute, workers, timers } = setup();
  timers.advance(4900);
  assert.equal(compute.describe().mode, 'starting', 'still waiting at 4.9 s');
  timers.advance(200);
  assert.equal(compute.describe().mode, 'main-thread');
  assert.match(compute.describe().reason, /did not start in time/);
  assert.equal(workers[0].terminated, true);
});

test('a worker that runs may take as long as it needs to load its core, and says so', () => {
  const { compute, workers, modes, timers } = setup();
  timers.advance(1000);
  workers[0].alive();
  assert.deepEqual(modes.at(-1), { mode: 'starting', reason: 'the worker is loading its core' });
  timers.advance(120_000);
  assert.equal(compute.describe().mode, 'starting', 'no limit once it runs');
  workers[0].ready();
  assert.equal(compute.describe().mode, 'worker');
});

test('time the page spends busy is not counted against a starting worker', () => {
  const { compute, workers, timers } = setup();
  // The page's own first tasks hold its thread for 8 s, then it reads the waiting message.
  timers.busy(8000);
  timers.advance(250);
  assert.equal(compute.describe().mode, 'starting', 'a late tick counts 0.5 s, not 8 s');
  workers[0].alive();
  workers[0].ready();
  assert.equal(compute.describe().mode, 'worker');
  // A page busy again and again still runs the clock out: a late tick counts up to 0.5 s.
  const slow = setup();
  for (let i = 0; i < 10; i += 1) {
    slow.timers.busy(10_000);
    slow.timers.advance(250);
  }
  assert.equal(slow.compute.describe().mode, 'main-thread');
});
