// plain-attention.mjs: attention as a careful JavaScript programmer would write it, no library:
// one query row at a time, scores only for the keys it may see, max-subtracted softmax, weighted
// sum. Float32Array storage, double arithmetic (what JavaScript numbers are).

// q, k: (T, d), v: (T, dV), row-major Float32Array; returns (T, dV).
export function plainAttention(q, k, v, T, d, dV, scale, causal) {
  const out = new Float32Array(T * dV);
  const scores = new Float64Array(T);
  const row = new Float64Array(dV);
  for (let i = 0; i < T; i++) {
    const visible = causal ? i + 1 : T;
    let max = -Infinity;
    for (let j = 0; j < visible; j++) {
      let dot = 0;
      for (let c = 0; c < d; c++) dot += q[i * d + c] * k[j * d + c];
      scores[j] = dot * scale;
      if (scores[j] > max) max = scores[j];
    }
    let sum = 0;
    row.fill(0);
    for (let j = 0; j < visible; j++) {
      const weight = Math.exp(scores[j] - max);
      sum += weight;
      for (let c = 0; c < dV; c++) row[c] += weight * v[j * dV + c];
    }
    for (let c = 0; c < dV; c++) out[i * dV + c] = row[c] / sum;
  }
  return out;
}
