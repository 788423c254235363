// The learning section, loaded only when a reader needs it: dist/learning.js holds the learning
// module (attention-learning.js: the head's backward pass, the training runs, the trained head's
// map; cpp/wasm/learning_bindings.cpp) and its data (the trained head's weights and the slice of
// Shakespeare that section 6 trains on). scripts/build-web.mjs writes it; it defines the
// globals AttentionLearning (the module's factory) and AttentionLearningData
// ({ parameters, shakespeare }); lib/load-script.js loads it.
// In Node (the tests) there is no script to load: they start attention-learning.js themselves.
import { createCompute } from './compute/client.js';
import { startComputeWorker } from './compute/start-worker.js';
import { copyingHead } from './copying-head.js';
import { learnedHead } from './learned-head.js';
import { loadLearningCore } from './learning-core.js';
import { loadScript } from './lib/load-script.js';

const FILE = 'learning.js';
const WHAT = 'the trained head and the training text';

// load() resolves { core, shakespeare } or rejects with a sentence, and may be asked again;
// core is the learning module on the page, which computes the trained head's maps (core()
// returns it once loaded, else null). compute runs the learning module's calls in a worker of
// its own, as the page's compute client does (compute/client.js): it loads the section on its
// first call, and until then describe() says 'starting'. options: what createCompute takes
// besides the core and the worker (onNotice, onMode).
export function createLearning({ documentRef = globalThis.document, ...options } = {}) {
  let loaded = null;
  let client = null;
  let core = null;

  function load() {
    loaded ??= loadScript(FILE, 'AttentionLearningData', WHAT, documentRef)
      .then(() => loadLearningCore(globalThis.AttentionLearning, { learnedHead, copyingHead }))
      .then((started) => {
        core = started;
        client = createCompute({
          ...options,
          core,
          startWorker: () => startComputeWorker(globalThis.AttentionLearning, 'AttentionLearning'),
        });
        return { core, shakespeare: globalThis.AttentionLearningData.shakespeare };
      });
    loaded.catch(() => {
      loaded = null;
    });
    return loaded;
  }

  const compute = {
    async run(channel, method, ...args) {
      try {
        await load();
      } catch (error) {
        return { error: error.message };
      }
      return client.run(channel, method, ...args);
    },
    describe: () => client?.describe() ?? { mode: 'starting', reason: '', restarts: 0 },
  };

  return { load, compute, core: () => core };
}
