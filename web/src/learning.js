// The learning section, loaded only when a reader needs it: dist/learning.js holds the learning
// module (attention-learning.js: the head's backward pass and the training runs;
// cpp/wasm/learning_bindings.cpp) and its data (the slice of Shakespeare that section 6 trains
// on and the native runs' results). scripts/build-web.mjs writes it; it defines the globals
// AttentionLearning (the module's factory) and AttentionLearningData ({ shakespeare, results });
// lib/load-script.js loads it.
// In Node (the tests) there is no script to load: they start attention-learning.js themselves.
import { createCompute } from './compute/client.js';
import { startComputeWorker } from './compute/start-worker.js';
import { loadLearningCore } from './learning-core.js';
import { loadScript } from './lib/load-script.js';

const FILE = 'learning.js';
const WHAT = 'the training code and text';

// Each worker starts in a task of its own: a new Worker costs the page about 7 ms and the first
// also 12 ms to make its script's Blob (a 128 KB factory), so four in one task were one task of
// about 40 ms here, 250 ms on a device six times slower.
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

// The state of several compute clients as one: starting while any starts, in workers once all
// are, else on the page.
function describeAll(clients) {
  const modes = clients.map((client) => client.describe());
  const starting = modes.find((mode) => mode.mode === 'starting');
  if (starting) return starting;
  return modes.find((mode) => mode.mode !== 'worker') ?? modes[0];
}

// load() resolves { core, shakespeare, results } or rejects with a sentence, and may be asked
// again; core is the learning module on the page (where a run falls back when its worker cannot
// start); results: the native runs' table (web/assets/learning-results.json), or null when the
// build had none. compute runs the learning module's calls in workers of their own (`workers`
// of them, compute/client.js each): a channel keeps the worker it was first given (round
// robin), so each training run keeps its state in one place; 'run/part' goes where 'run' does,
// and 'run@k' to worker k. It loads the section on its first call; until then describe() says
// 'starting'. options: what createCompute takes besides the core and the worker (onNotice,
// onMode).
export function createLearning({
  documentRef = globalThis.document,
  workers = 1,
  ...options
} = {}) {
  let loaded = null;
  let clients = [];
  let core = null;
  const channels = new Map(); // channel -> index into clients

  function load() {
    loaded ??= loadScript(FILE, 'AttentionLearningData', WHAT, documentRef)
      .then(() => loadLearningCore(globalThis.AttentionLearning))
      .then((started) => {
        core = started;
        let turn = Promise.resolve();
        clients = Array.from({ length: workers }, () => {
          turn = turn.then(nextTask);
          return createCompute({
            ...options,
            core,
            startAfter: turn,
            startWorker: () =>
              startComputeWorker(globalThis.AttentionLearning, 'AttentionLearning'),
          });
        });
        const { shakespeare, results = null } = globalThis.AttentionLearningData;
        return { core, shakespeare, results };
      });
    loaded.catch(() => {
      loaded = null;
    });
    return loaded;
  }

  // A channel named 'run/part' shares the worker of 'run' (where that run keeps its state), and
  // 'run@k' is pinned to worker k (of `workers`), for a run that spans several.
  function clientFor(channel) {
    const run = channel.split('/')[0];
    const pinned = /@(\d+)$/.exec(run);
    if (pinned) return clients[Number(pinned[1]) % clients.length];
    if (!channels.has(run)) channels.set(run, channels.size % clients.length);
    return clients[channels.get(run)];
  }

  const compute = {
    async run(channel, method, ...args) {
      try {
        await load();
      } catch (error) {
        return { error: error.message };
      }
      return clientFor(channel).run(channel, method, ...args);
    },
    // The client a channel runs on, or all of them together when no channel is named.
    describe(channel) {
      if (clients.length === 0) return { mode: 'starting', reason: '', restarts: 0 };
      return channel ? clientFor(channel).describe() : describeAll(clients);
    },
  };

  return { load, compute, workers };
}
