// The learning section, loaded only when a reader needs it: dist/learning.js holds the learning
// module (attention-learning.js: the head's backward pass, the training runs, the trained head's
// map; cpp/learning_bindings.cpp) and its data (the trained head's weights and the slice of
// Shakespeare that section 6 trains on). scripts/build-web.mjs writes it; it defines the
// globals AttentionLearning (the module's factory) and AttentionLearningData
// ({ parameters, shakespeare }). A script tag loads from file:// and under the page's CSP
// (script-src 'self'), where fetch() of a file would not.
// In Node (the tests) there is no script to load: they start attention-learning.js themselves.
import { createCompute } from './compute/client.js';
import { startComputeWorker } from './compute/start-worker.js';
import { learnedHead } from './learned-head.js';
import { loadLearningCore } from './learning-core.js';

const FILE = 'learning.js';

let loading = null;

// Resolves once the script has run; rejects with a sentence when it cannot load (then the next
// call tries again).
function loadScript(documentRef) {
  if (globalThis.AttentionLearningData) return Promise.resolve();
  loading ??= new Promise((resolve, reject) => {
    const script = documentRef.createElement('script');
    script.src = FILE;
    script.onload = () =>
      globalThis.AttentionLearningData
        ? resolve()
        : reject(new Error(`${FILE} loaded but held no data`));
    script.onerror = () => {
      loading = null;
      script.remove();
      reject(new Error(`the trained head and the training text (${FILE}) could not load`));
    };
    documentRef.head.append(script);
  });
  return loading;
}

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
    loaded ??= loadScript(documentRef)
      .then(() => loadLearningCore(globalThis.AttentionLearning, { learnedHead }))
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
