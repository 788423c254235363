// bench-page.mjs: the browser half of the benchmark. Exposes window.benchmark(options), which
// run.mjs calls through Playwright: for each length and mask it runs our wasm fast path, then
// compares each peer's output with ours and times every implementation, all in this one tab.
import { attentionModel } from '/bench/onnx-model.mjs';
import { flopCount, makeInputs, maxAbsDifference, medianMsPerCall } from '/bench/inputs.mjs';
import { plainAttention } from '/bench/plain-attention.mjs';

/* global AttentionCore, WasmPeak, ort, tf */

async function ours() {
  const core = await AttentionCore();
  return {
    name: 'ours (wasm fast path)',
    run(q, k, v, T, d, causal) {
      const result = core.fused({
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
    },
  };
}

async function onnxRuntimeWeb(d) {
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.wasmPaths = '/bench/node_modules/onnxruntime-web/dist/';
  const options = { executionProviders: ['wasm'], graphOptimizationLevel: 'all' };
  const sessions = {};
  for (const causal of [false, true])
    sessions[causal] = await ort.InferenceSession.create(
      attentionModel({ d, causal, scale: 1 / Math.sqrt(d) }),
      options,
    );
  return {
    name: 'onnxruntime-web (wasm)',
    async run(q, k, v, T, dIn, causal) {
      const shape = [1, 1, T, dIn];
      const feeds = {
        Q: new ort.Tensor('float32', q, shape),
        K: new ort.Tensor('float32', k, shape),
        V: new ort.Tensor('float32', v, shape),
      };
      const { Y } = await sessions[causal].run(feeds);
      return Y.data;
    },
  };
}

async function tensorflowWasm() {
  tf.wasm.setWasmPaths('/bench/node_modules/@tensorflow/tfjs-backend-wasm/dist/');
  await tf.setBackend('wasm');
  await tf.ready();
  const masks = new Map(); // T -> (T, T) tensor: 0 where visible, -inf above the diagonal; freed per T
  const causalMask = (T) => {
    if (!masks.has(T)) {
      const mask = new Float32Array(T * T);
      for (let i = 0; i < T; i++) mask.fill(-Infinity, i * T + i + 1, (i + 1) * T);
      masks.set(T, tf.tensor2d(mask, [T, T]));
    }
    return masks.get(T);
  };
  return {
    name: 'tfjs (wasm)',
    run(q, k, v, T, d, causal) {
      const mask = causal ? causalMask(T) : null; // built once per T, outside the timing
      const output = tf.tidy(() => {
        // The explicit transpose: matMul(q, k, false, true) is several times slower here.
        let scores = tf.mul(
          tf.matMul(tf.tensor2d(q, [T, d]), tf.transpose(tf.tensor2d(k, [T, d]))),
          1 / Math.sqrt(d),
        );
        if (mask) scores = tf.add(scores, mask);
        return tf.matMul(tf.softmax(scores), tf.tensor2d(v, [T, d]));
      });
      const values = output.dataSync();
      output.dispose();
      return values;
    },
    dispose() {
      for (const mask of masks.values()) mask.dispose();
      masks.clear();
    },
  };
}

function plainJavaScript() {
  return {
    name: 'plain JavaScript',
    run: (q, k, v, T, d, causal) => plainAttention(q, k, v, T, d, d, 1 / Math.sqrt(d), causal),
  };
}

async function wasmPeakGflops() {
  const module = await WasmPeak();
  // V8 runs a wasm function's first calls in its baseline compiler: the best of a few calls is
  // the optimised code's rate.
  let best = 0;
  for (let i = 0; i < 4; i++) best = Math.max(best, module._peak_gflops(i + 1));
  return best;
}

// V8 runs new wasm code in its baseline compiler and optimises hot functions in the background;
// a second of small calls lets every module reach its optimised code before anything is timed.
async function warmUp(implementations, d) {
  const T = 64;
  const { q, k, v } = makeInputs(T, d);
  for (const implementation of implementations) {
    const start = performance.now();
    while (performance.now() - start < 250)
      for (const causal of [false, true]) await implementation.run(q, k, v, T, d, causal);
  }
}

// options: { lengths, d, budgetMs }. Returns { peakGflops, userAgent, results }.
window.benchmark = async ({ lengths, d, budgetMs }) => {
  const peakGflops = await wasmPeakGflops();
  const implementations = [
    await ours(),
    await onnxRuntimeWeb(d),
    await tensorflowWasm(),
    plainJavaScript(),
  ];
  await warmUp(implementations, d);
  const results = [];
  for (const T of lengths) {
    const { q, k, v } = makeInputs(T, d);
    for (const causal of [false, true]) {
      const reference = implementations[0].run(q, k, v, T, d, causal);
      for (const implementation of implementations) {
        const row = { T, causal, name: implementation.name, flops: flopCount(T, d, causal) };
        try {
          row.maxDiff = maxAbsDifference(
            await implementation.run(q, k, v, T, d, causal),
            reference,
          );
          row.ms = await medianMsPerCall(() => implementation.run(q, k, v, T, d, causal), {
            budgetMs,
          });
        } catch (error) {
          row.failed = String(error.message ?? error).split('\n')[0];
        }
        results.push(row);
      }
    }
    for (const implementation of implementations) implementation.dispose?.();
  }
  return { peakGflops, userAgent: navigator.userAgent, results };
};

window.benchmarkReady = true;
