// The saved models' weights as the native tools write them (cpp/trained/float16.hpp): IEEE
// binary16, little-endian, base64. Here they only become the halves themselves (a Uint16Array);
// the core turns them into floats (from_float16, cpp/wasm/trained_bindings.cpp), one home for
// the format, and faster there than a loop in JavaScript.

// Base64 of little-endian float16 values → their halves.
export function halvesOf(base64) {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  // Every engine the page runs on is little-endian, as the file is: the bytes are the halves.
  return new Uint16Array(bytes.buffer);
}
