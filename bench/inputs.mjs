// inputs.mjs: what every side of the benchmark shares: the inputs, the operation counts and the
// timing rule. Used by Node (run.mjs) and by the page (page/bench-page.mjs).

export const WIDTH = 64; // d = d_v
export const LENGTHS = [64, 256, 1024, 4096];

// mulberry32, bit for bit the generator in native_bench.cpp, so every side gets the same numbers.
function mulberry32(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// q, k, v of shape (T, d): uniform on [-√3, √3) (variance 1), drawn in that order from seed T.
export function makeInputs(T, d = WIDTH) {
  const next = mulberry32(T);
  const draw = () => Float32Array.from({ length: T * d }, () => (next() * 2 - 1) * Math.sqrt(3));
  const q = draw();
  const k = draw();
  const v = draw();
  return { q, k, v };
}

// Multiply-adds count 2. Without the mask: Q·Kᵀ and P·V, 2·T²·d each. With it, only the
// T·(T+1)/2 visible pairs are real work; an implementation that computes the rest and masks it
// is charged for the real work only, so its rate looks as low as its waste makes it.
export function flopCount(T, d, causal) {
  return causal ? 2 * T * (T + 1) * d : 4 * T * T * d;
}

export function maxAbsDifference(a, b) {
  if (a.length !== b.length) return Infinity;
  let largest = 0;
  for (let i = 0; i < a.length; i++) largest = Math.max(largest, Math.abs(a[i] - b[i]));
  return largest;
}

function median(values) {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

// Median milliseconds per call over batches of at least minBatchMs (the page's clock ticks in
// 0.1 ms steps): at least 5 batches (3 when one call takes over half a second), more while the
// whole measurement is under budgetMs, up to 15. `call` may be async.
export async function medianMsPerCall(
  call,
  { now = () => performance.now(), minBatchMs = 25, budgetMs = 1500 } = {},
) {
  let start = now();
  await call(); // warm-up, and a first estimate of the cost
  const first = Math.max(now() - start, 1e-3);
  const callsPerBatch = Math.max(1, Math.ceil(minBatchMs / first));
  const minBatches = first > 500 ? 3 : 5;
  const perCall = [];
  start = now();
  while (perCall.length < minBatches || (perCall.length < 15 && now() - start < budgetMs)) {
    const batchStart = now();
    for (let i = 0; i < callsPerBatch; i++) await call();
    perCall.push((now() - batchStart) / callsPerBatch);
  }
  return median(perCall);
}
