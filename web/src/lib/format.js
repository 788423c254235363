// Number formatting for the page. Never prints NaN or "undefined": a value that is not a
// finite number shows as an em dash, so a bug can't leak "NaN" into the text people read.

export function fixed(value, digits = 3) {
  return Number.isFinite(value) ? value.toFixed(digits) : '—';
}

export function scientific(value, digits = 2) {
  if (!Number.isFinite(value)) return '—';
  // "4.77e-07", like Python's %.2e: always a sign and two exponent digits.
  const [mantissa, exponent] = value.toExponential(digits).split('e');
  const power = Number(exponent);
  return `${mantissa}e${power < 0 ? '-' : '+'}${String(Math.abs(power)).padStart(2, '0')}`;
}

// Shortest readable form for a score or weight shown in a small cell.
export function compact(value) {
  if (value === -Infinity) return '−∞';
  if (!Number.isFinite(value)) return '—';
  const magnitude = Math.abs(value);
  if (magnitude !== 0 && (magnitude < 0.001 || magnitude >= 10000)) return scientific(value, 1);
  return value.toFixed(magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : 2).replace('-', '−');
}

// A token as shown on an axis: spaces and invisible characters made visible.
export function visibleToken(token) {
  if (token === ' ') return '␣';
  if (token === '\n') return '↵';
  if (token === '\t') return '⇥';
  return token.replace(/[\u200B-\u200F\u2028-\u202E\u2066-\u2069\uFEFF]/g, '·');
}
