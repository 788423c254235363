// The compute worker: loads a core the page loads and answers one call at a time. Bundled on
// its own and started from a Blob URL (scripts/build-web.mjs), so it works from file:// too;
// the page prepends an Emscripten factory, which defines AttentionCore (the page's core) or
// AttentionLearning (the learning section's) here.
import { loadCore } from '../core.js';
import { loadLearningCore } from '../learning-core.js';
import { paintPictures } from './pictures.js';
import { errorOutcome, isFatal, transferables } from './protocol.js';

// First, before the core loads (which a slow device takes seconds over): the page then knows
// this worker runs, and waits for it as long as loading takes (client.js).
self.postMessage({ type: 'alive' });

const loaded = self.AttentionLearning
  ? loadLearningCore(self.AttentionLearning)
  : loadCore(self.AttentionCore);
const ready = loaded.then(
  (core) => {
    self.postMessage({ type: 'ready' });
    return core;
  },
  (error) => {
    self.postMessage({ type: 'failed', message: error.message });
    return null;
  },
);

self.onmessage = async ({ data: { id, method, args, pictures } }) => {
  const core = await ready;
  if (!core) return;
  try {
    const started = performance.now();
    const value = core[method](...args);
    const ms = performance.now() - started; // the core's own time, without the trip here
    if (pictures) value.pictures = await paintPictures(value, pictures);
    self.postMessage({ id, value, ms }, transferables(value));
  } catch (error) {
    self.postMessage({ id, ...errorOutcome(error), fatal: isFatal(error) });
  }
};
