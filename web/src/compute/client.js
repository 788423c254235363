// Runs core calls off the main thread, so a large map, the averaged √d study or training
// never freezes the page.
//
// Calls go on named channels ('map', 'study', …) and resolve with the core's own time for the
// call (ms) beside its value. Each channel computes only its latest
// request: a request that arrives while another is running waits, and replaces any request
// already waiting; a call overtaken this way resolves { stale: true } and the figure keeps
// its last good drawing. Every call resolves (never rejects) with { value }, { error } or
// { stale: true }, so no rejection can escape to the console.
//
// Where a browser refuses workers, the same calls run on the main thread (mode
// 'main-thread', with the reason). While the worker starts, calls also run on the main
// thread, so the first figure does not wait for a second copy of the core to load. A worker
// that dies is restarted (with a notice) up to maxRestarts times, then the page falls back.
// onMode(mode, reason) hears every change of path, so the page can say which one it took.
// startAfter (a promise) holds the worker back until it resolves: the page starts it once its
// first map is drawn, so that a second copy of the core does not load on the same cores as
// the first.
const START_TIMEOUT_MS = 5000;

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
    return { error: error.message };
  }
}

export function createCompute({
  core,
  startWorker,
  onNotice = () => {},
  onMode = () => {},
  maxRestarts = 3,
  timers = globalThis,
  startAfter = null,
}) {
  const posted = new Map(); // id -> call, sent to the current worker
  const lanes = createLanes((call) => (mode === 'worker' ? post(call) : runHere(call)));
  let nextId = 1;
  let worker = null;
  let mode = 'starting';
  let reason = '';
  let restarts = 0;
  let startTimer = 0;

  function runHere(call) {
    timers.setTimeout(() => lanes.finish(call, runOnPage(core, call)), 0);
  }

  function post(call) {
    posted.set(call.id, call);
    worker.postMessage({ id: call.id, method: call.method, args: call.args });
  }

  function receive(data) {
    if (data.type === 'ready') {
      timers.clearTimeout(startTimer);
      mode = 'worker';
      onMode(mode, '');
      return;
    }
    if (data.type === 'failed') {
      fallBack(`the core did not start in a worker: ${data.message}`);
      return;
    }
    const call = posted.get(data.id);
    if (!call) return;
    posted.delete(data.id);
    lanes.finish(
      call,
      'error' in data ? { error: data.error } : { value: data.value, ms: data.ms },
    );
    if (data.fatal) died(data.error);
  }

  function stopWorker() {
    timers.clearTimeout(startTimer);
    if (worker) worker.terminate();
    worker = null;
  }

  // Calls the dead worker still owed are run again: on the next worker, or here.
  function rerunOwed() {
    const owed = [...posted.values()];
    posted.clear();
    for (const call of owed) lanes.start(call);
  }

  function fallBack(why) {
    stopWorker();
    mode = 'main-thread';
    reason = why;
    onMode(mode, why);
    rerunOwed();
  }

  function died(message) {
    stopWorker();
    restarts += 1;
    if (restarts > maxRestarts) {
      onNotice(`The background computation kept stopping (${message}); it now runs on the page.`);
      fallBack(`the worker stopped ${restarts} times`);
      return;
    }
    onNotice(`The background computation stopped (${message}) and was restarted.`);
    boot();
    rerunOwed();
  }

  function boot() {
    mode = 'starting';
    try {
      worker = startWorker();
    } catch (error) {
      // WebKit throws at once where the CSP or the origin refuses the worker.
      fallBack(`this browser refused a worker: ${error.message}`);
      return;
    }
    worker.onmessage = (event) => receive(event.data);
    // Other engines report a refused or crashed worker as an error event.
    worker.onerror = (event) => {
      event.preventDefault?.();
      if (mode === 'starting') fallBack(`this browser refused a worker: ${event.message || ''}`);
      else died(event.message || 'an error in the worker');
    };
    startTimer = timers.setTimeout(() => {
      if (mode === 'starting') fallBack('the worker did not start in time');
    }, START_TIMEOUT_MS);
  }

  if (startAfter) startAfter.then(() => mode === 'starting' && boot());
  else boot();

  return {
    // Resolves { value } | { error } | { stale: true }.
    run(channel, method, ...args) {
      return new Promise((resolve) => {
        lanes.enqueue({ id: nextId, channel, method, args, resolve });
        nextId += 1;
      });
    },

    // Which path computes, and why: the browser tests report it.
    describe: () => ({ mode, reason, restarts }),

    destroy() {
      stopWorker();
      mode = 'main-thread';
    },
  };
}
