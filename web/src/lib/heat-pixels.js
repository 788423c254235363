// A heat map's pixels, with no DOM: the magma colour of every cell of a T×T matrix, or of
// every pixel of a plot with fewer pixels across than the matrix has cells (each showing the
// largest value it covers). The page paints small maps with them (grid.js); the compute
// worker paints large ones (compute/pictures.js), so the page only draws a finished bitmap.
import { MAGMA_RGB } from './magma.js';

// The 256 magma colours as RGBA pixels, one 32-bit word each, in the platform's byte order
// (written as bytes, read as words), so painting a cell is one lookup and one store.
const MAGMA_PIXELS = (() => {
  const bytes = new Uint8Array(256 * 4);
  for (let colour = 0; colour < 256; colour++) {
    bytes.set(MAGMA_RGB.subarray(colour * 3, colour * 3 + 3), colour * 4);
    bytes[colour * 4 + 3] = 255;
  }
  return new Uint32Array(bytes.buffer);
})();

// The RGBA pixels of a T×T heat map: values[i] / top through magma, so a map of a million
// cells paints in a few milliseconds. Written into `pixels` when given (T·T·4 bytes).
export function heatPixels(values, T, top, pixels = new Uint8ClampedArray(T * T * 4)) {
  const words = new Uint32Array(pixels.buffer, pixels.byteOffset, T * T);
  const toIndex = top > 0 ? 255 / top : 0;
  const cells = T * T;
  for (let i = 0; i < cells; i++) {
    // Clamped to 0…255 (NaN fails both tests and paints colour 0); `| 0` then rounds down.
    let index = values[i] * toIndex + 0.5;
    index = index > 0 ? Math.min(index, 255) : 0;
    words[i] = MAGMA_PIXELS[index | 0];
  }
  return pixels;
}

// The largest of a T×T matrix's values in each of side × side pixels (side < T). Cell (row,
// col) falls in pixel (⌊row·side/T⌋, ⌊col·side/T⌋), so every cell counts once. A map with more
// cells than the screen has pixels across keeps every peak this way; scaled down without
// smoothing it would drop whole rows and columns of cells, and with smoothing dim every
// lone bright cell toward its dark neighbours.
export function maxPool(values, T, side) {
  const pooled = new Float32Array(side * side).fill(Number.NEGATIVE_INFINITY);
  const pixelOf = Int32Array.from({ length: T }, (_, index) => Math.floor((index * side) / T));
  for (let row = 0; row < T; row++) {
    const pixelRow = pixelOf[row] * side;
    for (let col = 0; col < T; col++) {
      const value = values[row * T + col];
      const at = pixelRow + pixelOf[col];
      if (value > pooled[at]) pooled[at] = value;
    }
  }
  return pooled;
}

// The pixels of a T×T matrix's heat map for a plot `side` pixels across: T×T, or side × side
// max-pooled when side < T. Returns the RGBA bytes (width² · 4, written into `into` when given).
export function heatPicture(values, T, top, side, into) {
  const width = Math.min(side, T);
  const pixels = into ?? new Uint8ClampedArray(width * width * 4);
  return heatPixels(side < T ? maxPool(values, T, side) : values, width, top, pixels);
}
