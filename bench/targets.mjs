// targets.mjs: how `npm run bench` judges and prints its targets. Every target's value is taken
// within one run (a ratio from timings seconds apart, a page measure from one page), and the
// median over the runs is held to it: MET or MISSED. A target without a value prints
// "not measured" and why (a peer is not installed, an option left it out, or the measurement
// failed, with its error: a page that lacks what a row needs fails there), never a number.

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export const times =
  (digits = 2) =>
  (x) =>
    `${x.toFixed(digits)}×`;
export const percent = (x) => `${(100 * x).toFixed(0)}%`;
export const unit =
  (name, digits = 0) =>
  (x) =>
    `${x.toFixed(digits)} ${name}`;

// The values of `measure` over the runs, skipping runs where it returned null or undefined.
export function perRun(runs, measure) {
  return runs.map(measure).filter((x) => x !== null && x !== undefined && Number.isFinite(x));
}

// One target: { what, wanted, atMost (true: the value must not exceed `wanted`), show,
// values (one per run), missing (why there is no value), beside (printed after the runs) }.
export function targetLine({ what, wanted, atMost = false, show, values, missing, beside }) {
  const head = `target: ${what} ${atMost ? '<=' : '>='} ${show(wanted)}`;
  if (!values || values.length === 0) return `${head}: ${missing ?? 'not measured'}`;
  const got = median(values);
  const runs = values.length > 1 ? ` (runs: ${values.map(show).join(', ')})` : '';
  const met = atMost ? got <= wanted : got >= wanted;
  return `${head}: ${show(got)}${runs}${beside ? `; ${beside}` : ''} ${met ? 'MET' : 'MISSED'}`;
}

// The reason a measurement is missing in most runs, if any run said one.
export function missingReason(runs, reason) {
  const reasons = runs.map(reason).filter(Boolean);
  return reasons.length ? reasons[0] : undefined;
}
