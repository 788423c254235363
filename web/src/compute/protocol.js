// The messages between the page and the compute worker, in one place.
//
//   page → worker  { id, method, args }          call core[method](...args)
//   worker → page  { type: 'ready' }              the core has loaded
//                  { type: 'failed', message }    the core could not load
//                  { id, value, ms } | { id, error }  one answer per call (ms: the core's time)
//                  { id, error, fatal: true }     the core aborted: this worker is finished

// Every typed array at the top level of a result, so postMessage moves it instead of copying.
export function transferables(value) {
  if (!value || typeof value !== 'object') return [];
  const buffers = new Set();
  for (const field of Object.values(value)) {
    if (ArrayBuffer.isView(field)) buffers.add(field.buffer);
  }
  return [...buffers];
}

// An Emscripten abort or a wasm trap leaves the module unusable; anything else is an answer.
export function isFatal(error) {
  return (
    (typeof WebAssembly === 'object' && error instanceof WebAssembly.RuntimeError) ||
    /^Aborted\(/.test(String(error?.message))
  );
}
