// The two wasm modules from build/wasm, wrapped as the page wraps them once the learning section
// has loaded: the page's core (attention-core.js), whose trained-head maps go to the learning
// module's (attention-learning.js, with the trained head's and the copying head's weights from
// their JSON).
import { createRequire } from 'node:module';
import { wrap } from '../src/core.js';
import { copyingHead } from '../src/copying-head.js';
import { learnedHead } from '../src/learned-head.js';
import { wrapLearning } from '../src/learning-core.js';

const require = createRequire(import.meta.url);

export async function loadLearning() {
  return wrapLearning(await require('../../build/wasm/attention-learning.js')(), {
    learnedHead,
    copyingHead,
  });
}

export async function loadCores() {
  const learning = await loadLearning();
  const core = wrap(await require('../../build/wasm/attention-core.js')(), {
    learning: () => learning,
  });
  return { core, learning };
}
