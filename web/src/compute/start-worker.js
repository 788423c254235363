// Starts the compute worker from a Blob URL: a page opened from disk may not load a worker
// from a file, but it may from a blob (with `worker-src blob:` in the CSP). The worker's
// script is the Emscripten factory the page already loaded (its source text, so the wasm is
// not shipped twice) followed by the worker's own bundle (scripts/build-web.mjs).
import workerSource from 'virtual:worker-source';

const scriptUrls = new Map(); // global name -> Blob URL

// name: the global the factory defines, AttentionCore or AttentionLearning (worker-main.js).
export function startComputeWorker(factory = globalThis.AttentionCore, name = 'AttentionCore') {
  if (!scriptUrls.has(name)) {
    // The factory reads _scriptDir from the closure it was defined in; a worker has none.
    const script = `var _scriptDir;\nvar ${name} = ${factory.toString()};\n${workerSource}`;
    scriptUrls.set(name, URL.createObjectURL(new Blob([script], { type: 'text/javascript' })));
  }
  return new Worker(scriptUrls.get(name));
}
