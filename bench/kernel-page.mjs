// kernel-page.mjs: the browser half of the kernel rows, imported by run.mjs into the benchmark
// page after window.benchmark has run (so the page's own script stays as it is). It says which
// kernel attention-core.js chose (Module.simdKernel), measures the relaxed-SIMD peak that the
// relaxed kernel is held to, and times the simd128 fallback beside it: the same module started
// with { relaxedSimd: false }, on the same inputs as the page's "ours" rows.
import { flopCount, makeInputs, maxAbsDifference, medianMsPerCall } from '/bench/inputs.mjs';

/* global AttentionCore */

const RELAXED_PEAK = '/build/bench/relaxed-peak.wasm';
const CHAINS = [8, 12, 14]; // as bench/multiply_add_peak.hpp's peak_gflops(), on 4 lanes

// Best GFLOP/s over the chain counts, each the best of 4 runs of about 0.1 s (the first run of
// a new wasm function is V8's baseline code). null where relaxed SIMD does not validate.
async function relaxedPeakGflops() {
  const bytes = new Uint8Array(await (await fetch(RELAXED_PEAK)).arrayBuffer());
  if (!WebAssembly.validate(bytes)) return null;
  const { instance } = await WebAssembly.instantiate(bytes);
  let best = 0;
  for (const chains of CHAINS) {
    const iterations = Math.round((20_000_000 / chains) * 4);
    for (let repeat = 0; repeat < 4; repeat++) {
      const start = performance.now();
      instance.exports[`chains${chains}`](iterations, repeat + 1);
      const seconds = (performance.now() - start) / 1000;
      best = Math.max(best, (2 * 4 * chains * iterations) / seconds / 1e9);
    }
  }
  return best;
}

// The simd128 kernel on every length and mask, compared with the chosen kernel's output.
async function simd128Rows({ lengths, d, budgetMs }) {
  const chosen = await AttentionCore();
  const fallback = await AttentionCore({ relaxedSimd: false });
  const run = (module, { q, k, v }, T, causal) => {
    const result = module.fused({
      q,
      k,
      v,
      T,
      d,
      dV: d,
      scale: { mode: 'sqrt', factor: 1 },
      causal,
    });
    if (result.error) throw new Error(result.error.message);
    return result.output;
  };
  const warmUp = makeInputs(64, d);
  const start = performance.now();
  while (performance.now() - start < 250) run(fallback, warmUp, 64, false);
  const rows = [];
  for (const T of lengths) {
    const inputs = makeInputs(T, d);
    for (const causal of [false, true]) {
      rows.push({
        T,
        causal,
        name: 'ours (wasm, simd128 fallback)',
        flops: flopCount(T, d, causal),
        maxDiff: maxAbsDifference(run(fallback, inputs, T, causal), run(chosen, inputs, T, causal)),
        ms: await medianMsPerCall(() => run(fallback, inputs, T, causal), { budgetMs }),
      });
    }
  }
  return { kernel: chosen.simdKernel, rows };
}

// options: { lengths, d, budgetMs }. Returns { kernel, relaxedPeakGflops, rows }.
export async function kernelRows(options) {
  const relaxedPeak = await relaxedPeakGflops();
  const { kernel, rows } = await simd128Rows(options);
  return { kernel, relaxedPeakGflops: relaxedPeak, rows };
}
