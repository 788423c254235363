// The "magma" colour map (matplotlib's, via d3-scale-chromatic), as a 256-entry lookup
// table of [r, g, b] so a heatmap can colour thousands of cells without string parsing.
import { interpolateMagma } from 'd3-scale-chromatic';

const TABLE = Array.from({ length: 256 }, (_, i) => {
  const hex = interpolateMagma(i / 255);  // "#rrggbb"
  return [1, 3, 5].map((start) => parseInt(hex.slice(start, start + 2), 16));
});

// t in [0, 1] (clamped) -> [r, g, b]
export function magma(t) {
  const clamped = Number.isFinite(t) ? Math.min(1, Math.max(0, t)) : 0;
  return TABLE[Math.round(clamped * 255)];
}

export function magmaCss(t) {
  const [r, g, b] = magma(t);
  return `rgb(${r}, ${g}, ${b})`;
}
