// The messages between the page and the compute worker, in one place.
//
//   page → worker  { id, method, args, pictures? }  call core[method](...args); pictures: the
//                                                 map pictures to paint (pictures.js)
//   worker → page  { type: 'alive' }              the worker runs; its core starts loading
//                  { type: 'ready' }              the core has loaded
//                  { type: 'failed', message }    the core could not load
//                  { id, value, ms } | { id, error, field? }  one answer per call (ms: the core's
//                                                 time; field: the request field the core blamed)
//                  { id, error, fatal: true }     the core aborted: this worker is finished

// Every typed array at the top level of a result and every picture's image, so postMessage
// moves them instead of copying.
export function transferables(value) {
  if (!value || typeof value !== 'object') return [];
  const moved = new Set();
  for (const field of Object.values(value)) {
    if (ArrayBuffer.isView(field)) moved.add(field.buffer);
  }
  for (const { image } of value.pictures ?? [])
    moved.add(ArrayBuffer.isView(image) ? image.buffer : image);
  return [...moved];
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
