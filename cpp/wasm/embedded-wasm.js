// embedded-wasm.js: an Emscripten --pre-js (CMakeLists.txt). It hands the module its own wasm,
// which scripts/embed-wasm.mjs writes into the module's .js after the link in place of
// 'WASM_DEFLATED', so that one .js file starts from file://, any static host, a worker's Blob
// URL and Node, none of which then fetches a .wasm file.
// The wasm rides deflated, then base64-encoded: gzip over the script finds nothing more to
// squeeze from deflated bytes, and base64's 64 symbols cost it 6 bits each, so the script
// gzips to about what the bare .wasm would, and stays small read without compression (from
// disk, or from a host that does not gzip). The relaxed-SIMD kernel comes the same way
// (cpp/attention/kernel/relaxed-library.js).

// base64 of zlib-deflated bytes -> a promise of the bytes. DecompressionStream: Chromium 80,
// Firefox 113, Safari 16.4 (which is also when Safari got the SIMD this module needs), Node 18.
function inflateBase64(base64) {
  if (typeof DecompressionStream !== 'function')
    return Promise.reject(
      new Error('this browser cannot unpack the WebAssembly module (it lacks DecompressionStream)'),
    );
  const packed =
    typeof Uint8Array.fromBase64 === 'function'
      ? Uint8Array.fromBase64(base64)
      : Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  // Not Blob.stream(): WebKit refuses to read a Blob in a worker of a page opened from disk.
  const stream = new Response(packed).body.pipeThrough(new DecompressionStream('deflate'));
  return new Response(stream).arrayBuffer();
}

// Emscripten's hook for instantiating the module itself: the factory's promise settles when
// receiveInstance runs, or is rejected with the reason it could not.
Module.instantiateWasm = (imports, receiveInstance) => {
  inflateBase64('WASM_DEFLATED')
    .then((bytes) => WebAssembly.instantiate(bytes, imports))
    .then((result) => receiveInstance(result.instance, result.module))
    .catch(readyPromiseReject);
  return {};
};
