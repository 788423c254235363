// The saved models' weights as the native tools write them (cpp/trained/float16.hpp): IEEE
// binary16, little-endian, base64. Decoded here once per model; every half is exact in float32.

// binary16 → number, from the format: sign, 5 exponent bits (bias 15), 10 mantissa bits.
export function halfToNumber(half) {
  const exponent = (half >> 10) & 31;
  const mantissa = half & 1023;
  const magnitude =
    exponent === 0
      ? mantissa * 2 ** -24
      : exponent === 31
        ? NaN
        : (1024 + mantissa) * 2 ** (exponent - 25);
  return half & 0x8000 ? -magnitude : magnitude;
}

// Base64 of little-endian float16 values → Float32Array.
export function decodeFloat16Base64(text) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const view = new DataView(bytes.buffer);
  const values = new Float32Array(bytes.length / 2);
  for (let i = 0; i < values.length; i++) values[i] = halfToNumber(view.getUint16(2 * i, true));
  return values;
}
