// The messages between the page and the compute worker, in one place.
//
//   page → worker  { id, method, args }          call core[method](...args)
//   worker → page  { type: 'ready' }              the core has loaded
//                  { type: 'failed', message }    the core could not load
//                  { id, value, ms } | { id, error, field? }  one answer per call (ms: the core's
//                                                 time; field: the request field the core blamed)
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

// A thrown core error as an answer: its message, and the request field it blames where it names
// one (core.js), so the page can show it beside that field's control.
export function errorOutcome(error) {
  return error.field ? { error: error.message, field: error.field } : { error: error.message };
}
