// The compute worker: loads the same core the page loads and answers one call at a time.
// Bundled on its own and started from a Blob URL (scripts/build-web.mjs), so it works from
// file:// too; the page prepends the Emscripten factory, which defines AttentionCore here.
import { loadCore } from '../core.js';
import { isFatal, transferables } from './protocol.js';

const ready = loadCore(self.AttentionCore).then(
  (core) => {
    self.postMessage({ type: 'ready' });
    return core;
  },
  (error) => {
    self.postMessage({ type: 'failed', message: error.message });
    return null;
  },
);

self.onmessage = async ({ data: { id, method, args } }) => {
  const core = await ready;
  if (!core) return;
  try {
    const started = performance.now();
    const value = core[method](...args);
    const ms = performance.now() - started; // the core's own time, without the trip here
    self.postMessage({ id, value, ms }, transferables(value));
  } catch (error) {
    self.postMessage({ id, error: error.message, fatal: isFatal(error) });
  }
};
