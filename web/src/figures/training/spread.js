// How far apart two runs must end before section 6 calls them different: the seed spread that
// `npm run train -- --save-results` measured natively for the page's own protocol
// (web/assets/learning-results.json, its "page" rows). A difference is claimed only when it is
// larger than twice the larger of the two configurations' standard deviations over seeds;
// otherwise the two are "about the same". Pure: runs in Node.

// The standard deviation over seeds of one configuration's final held-out loss at one width,
// or null when the table has no such row (or there is no table).
export function spreadOf(results, width, config) {
  const row = results?.page?.rows?.find((r) => r.width === width && r.config === config);
  return Number.isFinite(row?.sd) ? row.sd : null;
}

// The learning rate the native sweep chose for a width, or null.
export function learningRateFor(results, width) {
  const rate = results?.learningRates?.[String(width)];
  return Number.isFinite(rate) && rate > 0 ? rate : null;
}

// Two losses a and b (lower is better) with their configurations' spreads: { verdict, gap,
// threshold }, verdict 'lower' (a is lower than b by more than the threshold), 'higher', or
// 'same'; 'unknown' when a spread is missing (no claim either way). gap = b − a.
export function compareLosses(a, b, spreadA, spreadB) {
  const gap = b - a;
  if (!Number.isFinite(spreadA) || !Number.isFinite(spreadB))
    return { verdict: 'unknown', gap, threshold: null };
  const threshold = 2 * Math.max(spreadA, spreadB);
  if (Math.abs(gap) <= threshold) return { verdict: 'same', gap, threshold };
  return { verdict: gap > 0 ? 'lower' : 'higher', gap, threshold };
}
