// Runs core calls off the main thread, so a large map, the averaged √d study or training
// never freezes the page.
//
// Calls go on named channels ('map', 'study', …) and resolve with the core's own time for the
// call (ms) beside its value. Each channel computes only its latest
// request: a request that arrives while another is running waits, and replaces any request
// already waiting; a call overtaken this way resolves { stale: true } and the figure keeps
// its last good drawing. Every call resolves (never rejects) with { value }, { error } (and
// field, the request field the core blamed, where it named one) or { stale: true }, so no
// rejection can escape to the console.
//
// Where a browser refuses workers, the same calls run on the main thread (mode
// 'main-thread', with the reason). While the worker starts, calls also run on the main
// thread, so the first figure does not wait for a second copy of the core to load. A worker
// has ALIVE_WITHIN_MS to show it runs at all (start-clock.js counts them as the page could
// have heard it); once it has, it takes as long as its device needs to load its core (onMode
// says 'starting', LOADING), since it then either says it is ready or says why it failed. A
// worker that dies is restarted (with a notice) up to maxRestarts times, then the page falls
// back.
// onMode(mode, reason) hears every change of path, so the page can say which one it took.
// startAfter (a promise) holds the worker back until it resolves: the page starts it once its
// first map is drawn, so that a second copy of the core does not load on the same cores as
// the first.
import { errorOutcome } from './protocol.js';
import { startClock } from './start-clock.js';

// How long a worker has to send its first message, 'alive', which it sends before it loads
// anything: a worker that has not by then never ran (a browser that drops it without an error).
// Loading the core comes after and has no limit: on a slow device a fixed one gave up on
// workers that were loading, and the page then computed everything on its own thread.
const ALIVE_WITHIN_MS = 5000;
export const LOADING = 'the worker is loading its core';

// Per channel, the call running and the one latest request waiting behind it.
function createLanes(dispatch) {
  const lanes = new Map(); // channel -> { running, waiting }
  const lane = (channel) => {
    if (!lanes.has(channel)) lanes.set(channel, { running: null, waiting: null });
    return lanes.get(channel);
  };
  const start = (call) => {
    lane(call.channel).running = call;
    dispatch(call);
  };
  return {
    start,
    enqueue(call) {
      const channel = lane(call.channel);
      if (channel.waiting) channel.waiting.resolve({ stale: true });
      if (channel.running) channel.waiting = call;
      else start(call);
    },
    finish(call, outcome) {
      const channel = lane(call.channel);
      if (channel.running !== call) return; // answered after a restart already re-ran it
      channel.running = null;
      call.resolve(channel.waiting ? { stale: true } : outcome);
      const next = channel.waiting;
      channel.waiting = null;
      if (next) start(next);
    },
  };
}

// One call on the page's own core, timed like the worker times it.
function runOnPage(core, call) {
  try {
    const started = performance.now();
    const value = core[call.method](...call.args);
    return { value, ms: performance.now() - started };
  } catch (error) {
    return errorOutcome(error);
  }
}

// ---- the worker's life, over one record (`host`) ------------------------------------------
// host: the options createCompute was given, and mode ('starting' | 'worker' | 'main-thread'),
// reason, restarts, worker, stopClock (start-clock.js), posted (id -> call sent to the current worker), lanes.

function runHere(host, call) {
  host.timers.setTimeout(() => host.lanes.finish(call, runOnPage(host.core, call)), 0);
}

function post(host, call) {
  host.posted.set(call.id, call);
  const { id, method, args, pictures } = call;
  host.worker.postMessage(pictures ? { id, method, args, pictures } : { id, method, args });
}

function stopWorker(host) {
  host.stopClock();
  if (host.worker) host.worker.terminate();
  host.worker = null;
}

// Calls the dead worker still owed are run again: on the next worker, or here.
function rerunOwed(host) {
  const owed = [...host.posted.values()];
  host.posted.clear();
  for (const call of owed) host.lanes.start(call);
}

function fallBack(host, why) {
  stopWorker(host);
  host.mode = 'main-thread';
  host.reason = why;
  host.onMode(host.mode, why);
  rerunOwed(host);
}

function died(host, message) {
  stopWorker(host);
  host.restarts += 1;
  if (host.restarts > host.maxRestarts) {
    host.onNotice(
      `The background computation kept stopping (${message}); it now runs on the page.`,
    );
    fallBack(host, `the worker stopped ${host.restarts} times`);
    return;
  }
  host.onNotice(`The background computation stopped (${message}) and was restarted.`);
  boot(host);
  rerunOwed(host);
}

// A message from the worker: it runs, it is ready, it failed to start, or it answers a call.
function receive(host, data) {
  if (data.type === 'alive') {
    host.stopClock();
    host.onMode(host.mode, LOADING);
    return;
  }
  if (data.type === 'ready') {
    host.stopClock();
    host.mode = 'worker';
    host.onMode(host.mode, '');
    return;
  }
  if (data.type === 'failed') {
    fallBack(host, `the core did not start in a worker: ${data.message}`);
    return;
  }
  const call = host.posted.get(data.id);
  if (!call) return;
  host.posted.delete(data.id);
  const { error, field, value, ms } = data;
  host.lanes.finish(
    call,
    'error' in data ? errorOutcome({ message: error, field }) : { value, ms },
  );
  if (data.fatal) died(host, error);
}

function boot(host) {
  host.mode = 'starting';
  try {
    host.worker = host.startWorker();
  } catch (error) {
    // WebKit throws at once where the CSP or the origin refuses the worker.
    fallBack(host, `this browser refused a worker: ${error.message}`);
    return;
  }
  host.worker.onmessage = (event) => receive(host, event.data);
  // Other engines report a refused or crashed worker as an error event.
  host.worker.onerror = (event) => {
    event.preventDefault?.();
    if (host.mode === 'starting')
      fallBack(host, `this browser refused a worker: ${event.message || ''}`);
    else died(host, event.message || 'an error in the worker');
  };
  host.stopClock = startClock(
    host.aliveWithinMs,
    () => host.mode === 'starting' && fallBack(host, 'the worker did not start in time'),
    host.timers,
  );
}

export function createCompute({
  core,
  startWorker,
  onNotice = () => {},
  onMode = () => {},
  maxRestarts = 3,
  timers = globalThis,
  startAfter = null,
  aliveWithinMs = ALIVE_WITHIN_MS,
}) {
  const host = { core, startWorker, onNotice, onMode, maxRestarts, timers, aliveWithinMs };
  Object.assign(host, { mode: 'starting', reason: '', restarts: 0, worker: null });
  host.stopClock = () => {};
  host.posted = new Map();
  host.lanes = createLanes((call) =>
    host.mode === 'worker' ? post(host, call) : runHere(host, call),
  );
  if (startAfter) startAfter.then(() => host.mode === 'starting' && boot(host));
  else boot(host);
  let nextId = 1;
  const runPainted = (channel, method, args, pictures) =>
    new Promise((resolve) => {
      host.lanes.enqueue({ id: nextId, channel, method, args, pictures, resolve });
      nextId += 1;
    });

  return {
    // Resolves { value } | { error, field? } | { stale: true }.
    run: (channel, method, ...args) => runPainted(channel, method, args, null),

    // The same, and a worker also paints these map pictures (pictures.js) into the value;
    // on the page, none are painted (the figures paint their own).
    runPainted,

    // Which path computes, and why: the browser tests report it.
    describe: () => ({ mode: host.mode, reason: host.reason, restarts: host.restarts }),

    destroy() {
      stopWorker(host);
      host.mode = 'main-thread';
    },
  };
}
