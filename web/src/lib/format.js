// Number formatting for the page. Never prints NaN or "undefined": a value that is not a
// finite number shows as an em dash, so a bug can't leak "NaN" into the text people read.
// Never prints a value that is not zero as zero ("0.00", "0.0000"): one too small for its
// decimals shows its first two significant digits (0.0039), or "< 0.0001" below that; a
// value that is exactly zero can be said so in words (exactly).

// Below this a value that is not zero reads "< 0.0001" in a sentence.
export const SMALLEST_SHOWN = 1e-4;

const minus = (text) => text.replace('-', '−');

// "0.0039", "0.00012": the first `digits` significant digits in plain decimals (for values
// from SMALLEST_SHOWN up; toPrecision writes smaller ones with an exponent).
export function significant(value, digits = 2) {
  if (!Number.isFinite(value)) return '—';
  return String(Number(value.toPrecision(digits)));
}

// Does `value` print as zero at `digits` decimals although it is not zero?
const vanishes = (value, digits) => value !== 0 && Math.abs(value) < 0.5 * 10 ** -digits;

// A small value that does not vanish in a sentence: "0.0039", or "< 0.0001".
function small(value) {
  if (Math.abs(value) >= SMALLEST_SHOWN) return significant(value);
  return value > 0 ? '< 0.0001' : '> -0.0001';
}

// `digits` decimals, as toFixed, except that a value that is not zero never prints as zero.
export function fixed(value, digits = 3) {
  if (!Number.isFinite(value)) return '—';
  if (vanishes(value, digits)) return small(value);
  return value.toFixed(digits);
}

export function scientific(value, digits = 2) {
  if (!Number.isFinite(value)) return '—';
  // "4.77e-07", like Python's %.2e: always a sign and two exponent digits.
  const [mantissa, exponent] = value.toExponential(digits).split('e');
  const power = Number(exponent);
  return `${mantissa}e${power < 0 ? '-' : '+'}${String(Math.abs(power)).padStart(2, '0')}`;
}

// A number in a table cell that tests and spreadsheets read back with Number(): `digits`
// decimals, or a value too small for them with two significant digits (0.00031, 3.1e-07).
export function cell(value, digits = 3) {
  if (!Number.isFinite(value)) return '—';
  if (!vanishes(value, digits)) return value.toFixed(digits);
  return Math.abs(value) >= SMALLEST_SHOWN
    ? String(Number(value.toPrecision(2)))
    : scientific(value, 1);
}

// "exactly 0" for zero, else the value as format(value) prints it.
export function exactly(value, format = fixed) {
  return value === 0 ? 'exactly 0' : format(value);
}

// Shortest readable form for a score or weight shown in a small cell.
export function compact(value) {
  if (value === -Infinity) return '−∞';
  if (!Number.isFinite(value)) return '—';
  const magnitude = Math.abs(value);
  if (magnitude !== 0 && (magnitude < SMALLEST_SHOWN || magnitude >= 10000)) {
    return scientific(value, 1);
  }
  if (vanishes(value, 2)) return minus(significant(value));
  return minus(value.toFixed(magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : 2));
}

// A chart axis's tick: at most four significant digits, thousands grouped with commas
// ("1,150", "2.25", "0.5"). Charts are given this so that they never build an
// Intl.NumberFormat (their default), whose first construction took 12-24 ms of the page.
export function axisTick(value) {
  if (!Number.isFinite(value)) return '—';
  const [whole, fraction] = String(Number(value.toPrecision(4))).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return minus(fraction ? `${grouped}.${fraction}` : grouped);
}

// A share or a chance in words a reader can trust: "all" only when it is exactly 1, never
// "100%" or "0%" for one that is not.
export function sharePhrase(share) {
  if (share === 1) return 'all';
  if (share >= 0.995) return 'nearly all';
  if (share < 0.005) return 'under 1%';
  return `${Math.round(share * 100)}%`;
}

// A token as shown on an axis: spaces and invisible characters made visible.
export function visibleToken(token) {
  if (token === ' ') return '␣';
  if (token === '\n') return '↵';
  if (token === '\t') return '⇥';
  return token.replace(/[\u200B-\u200F\u2028-\u202E\u2066-\u2069\uFEFF]/g, '·');
}
