// The copying head's forward pass in float64, written here from its definition
// (cpp/learning/layered/layered_model.hpp: token embedding + learned positions;
// per layer h = LN(x) with gain and bias, eps 1e-5, biased variance; q, k, v = h·Wq, h·Wk, h·Wv;
// causal softmax(q·kᵀ/√d)·v·Wo added to x; logits = x·U), from the saved JSON's float16 weights
// decoded by the format's definition. Independent of the C++ core and of web/src: the tests hold
// the core's maps and next-character chances to it.

function halfToNumber(half) {
  const exponent = (half >> 10) & 31;
  const mantissa = half & 1023;
  const magnitude = exponent === 0 ? mantissa * 2 ** -24 : (1024 + mantissa) * 2 ** (exponent - 25);
  return half & 0x8000 ? -magnitude : magnitude;
}

// { name: rows × cols array of rows } from the JSON's tensors and its one base64 string.
function tensorsOf(saved) {
  const bytes = Buffer.from(saved.float16, 'base64');
  const tensors = {};
  let at = 0;
  for (const { name, rows, cols } of saved.tensors) {
    tensors[name] = Array.from({ length: rows }, (_, r) =>
      Array.from({ length: cols }, (_, c) =>
        halfToNumber(bytes.readUInt16LE(2 * (at + r * cols + c))),
      ),
    );
    at += rows * cols;
  }
  return tensors;
}

const times = (rows, matrix) =>
  rows.map((row) => matrix[0].map((_, c) => row.reduce((sum, x, i) => sum + x * matrix[i][c], 0)));

function layerNorm(rows, gain, bias) {
  return rows.map((row) => {
    const mean = row.reduce((a, b) => a + b) / row.length;
    const variance = row.reduce((a, b) => a + (b - mean) ** 2, 0) / row.length;
    const rstd = 1 / Math.sqrt(variance + 1e-5);
    return row.map((x, i) => (x - mean) * rstd * gain[0][i] + bias[0][i]);
  });
}

function softmax(row) {
  const max = Math.max(...row);
  const exps = row.map((x) => Math.exp(x - max));
  const total = exps.reduce((a, b) => a + b);
  return exps.map((e) => e / total);
}

// Causal attention weights (T, T) of q, k at scale 1/√d.
function causalWeights(q, k) {
  const scale = 1 / Math.sqrt(q[0].length);
  return q.map((qi, i) => {
    const row = softmax(
      k.slice(0, i + 1).map((kj) => qi.reduce((s, x, c) => s + x * kj[c], 0) * scale),
    );
    return [...row, ...new Array(q.length - i - 1).fill(0)];
  });
}

// The forward pass on the text's characters: { weights: [layer 1's, layer 2's], next } where
// next is the softmax of the last position's logits (V).
export function copyingHeadFloat64(saved, text) {
  const W = tensorsOf(saved);
  const ids = [...text].map((ch) => saved.vocabulary.indexOf(ch));
  let x = ids.map((id, t) => W.embedding[id].map((e, c) => e + W.position[t][c]));
  const weights = [];
  for (let l = 1; l <= saved.config.layers; l++) {
    const h = saved.config.layerNorm
      ? layerNorm(x, W[`layer${l}.norm_gain`], W[`layer${l}.norm_bias`])
      : x;
    const [q, k, v] = ['query', 'key', 'value'].map((name) => times(h, W[`layer${l}.${name}`]));
    const att = causalWeights(q, k);
    weights.push(att);
    const mixed = times(times(att, v), W[`layer${l}.output`]);
    x = x.map((row, t) => row.map((value, c) => value + mixed[t][c]));
  }
  const logits = times([x[x.length - 1]], W.unembedding)[0];
  return { weights, next: softmax(logits) };
}
