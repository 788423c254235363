// embedded-wasm.js: an Emscripten --pre-js (CMakeLists.txt). It hands the module its own wasm,
// which scripts/embed-wasm.mjs writes into attention-core.js after the link in place of
// 'WASM_BINARY_HEX', so that one .js file starts from file://, any static host, a worker's
// Blob URL and Node, none of which then fetches a .wasm file.
// Hex rather than -sSINGLE_FILE's base64: gzip finds the wasm's repeated byte patterns in hex
// digit pairs but not across base64's 6-bit groups (about 110 against 129 KB gzipped), and it
// stays plain ASCII, so no text encoding can misread it. The relaxed-SIMD kernel module comes
// the same way (cpp/kernel/relaxed-library.js).

// Uint8Array.fromHex where the engine has it (Chromium 140, Firefox 133, Safari 18.2): about
// 15 ms sooner than this loop, which runs once and so is never optimised. In the loop, '0'-'9'
// are 0x30-0x39 and 'a'-'f' 0x61-0x66: the low four bits, plus 9 for a letter.
function bytesFromHex(hex) {
  if (typeof Uint8Array.fromHex === 'function') return Uint8Array.fromHex(hex);
  const bytes = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < bytes.length; i++) {
    const high = hex.charCodeAt(2 * i);
    const low = hex.charCodeAt(2 * i + 1);
    bytes[i] = (((high & 15) + (high >> 6) * 9) << 4) | ((low & 15) + (low >> 6) * 9);
  }
  return bytes;
}

if (!Module.wasmBinary) Module.wasmBinary = bytesFromHex('WASM_BINARY_HEX');
