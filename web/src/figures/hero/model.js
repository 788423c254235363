// The first screen's map, as data: the same result the attention map draws (one store), told
// in one line. Pure: snapshot in, what to print out. It never draws (render.js does).
import { visibleToken } from '../../lib/format.js';

export const LABEL_LIMIT = 32; // beyond this many tokens the axes show no letters

// The row a first-time reader looks at: the last token, which may look at every other one.
export function lastRowLine(result) {
  const row = result.T - 1;
  let best = 0;
  for (let col = 1; col <= row; col++)
    if (result.weights[row * result.T + col] > result.weights[row * result.T + best]) best = col;
  const share = result.weights[row * result.T + best];
  const from = visibleToken(result.tokens[row]);
  const to = visibleToken(result.tokens[best]);
  const where = best === row ? 'itself' : `“${to}” (token ${best + 1})`;
  return `The last token, “${from}”, gives ${sharePhrase(share)} of its attention to ${where}.`;
}

// A share in words a reader can trust: "all" only when it is exactly 1, never "100%" or "0%"
// for a share that is not.
export function sharePhrase(share) {
  if (share === 1) return 'all';
  if (share >= 0.995) return 'nearly all';
  if (share < 0.005) return 'under 1%';
  return `${Math.round(share * 100)}%`;
}

export function heroModel(snapshot) {
  const { result } = snapshot;
  if (!result) return null;
  return {
    T: result.T,
    weights: result.weights,
    result,
    causal: snapshot.state.causal,
    labels: result.T <= LABEL_LIMIT ? result.tokens.map(visibleToken) : null,
    line: lastRowLine(result),
    text: snapshot.requested.text,
    error: snapshot.errors.text ?? null,
  };
}
