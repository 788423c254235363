// The two wasm modules from build/wasm, wrapped as the page wraps them: the page's core
// (attention-core.js, with the saved models, whose weights come from their JSON in Node) and the
// learning section's (attention-learning.js).
import { createRequire } from 'node:module';
import { wrap } from '../src/core.js';
import { wrapLearning } from '../src/learning-core.js';

const require = createRequire(import.meta.url);

export async function loadLearning() {
  return wrapLearning(await require('../../build/wasm/attention-learning.js')());
}

export async function loadCores() {
  const core = wrap(await require('../../build/wasm/attention-core.js')());
  return { core, learning: await loadLearning() };
}
