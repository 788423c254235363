// The C++ core, compiled to WebAssembly, as a small promise-free JavaScript API.
//
// loadCore() starts the page's Emscripten module (attention-core.js, a classic script that
// defines the global AttentionCore factory, so it loads from file:// too). Every method here
// calls one embind function and turns its { error } result into a thrown Error carrying the
// core's own message, so callers handle bad input with try/catch like any other JS error.
// The learning section's module has its own wrapper (learning-core.js).

// options.learning: () => the learning module's core (learning-core.js) once it has loaded,
// else null: the trained head's maps (vectors 'learned') are computed there.
export async function loadCore(factory = globalThis.AttentionCore, options = {}) {
  return wrap(await startModule(factory, 'attention-core.js'), options);
}

// Starts an Emscripten factory, or says in a sentence why it cannot.
export function startModule(factory, file) {
  if (typeof factory !== 'function')
    throw new Error(`the WebAssembly module (${file}) did not load`);
  if (typeof WebAssembly !== 'object')
    throw new Error('this browser has WebAssembly turned off or unsupported');
  return factory();
}

export function unwrap(result) {
  if (result && typeof result.error === 'string') throw new Error(result.error);
  return result;
}

// scale: { mode: 'sqrt' | 'd' | 'none' | 'custom', factor } (factor only for 'custom'); the
// one shape the scale has everywhere in JavaScript, as Scale is in C++.
export function scaleArguments(scale) {
  if (typeof scale !== 'object' || scale === null || typeof scale.mode !== 'string')
    throw new Error("scale must be an object { mode: 'sqrt' | 'd' | 'none' | 'custom', factor }");
  return scale.mode === 'custom' ? ['custom', Number(scale.factor)] : [scale.mode, 1];
}

export const SQRT = Object.freeze({ mode: 'sqrt' });

// The trained head's map, on the learning module's core.
function trainedHeadMap(learning, text, detail) {
  const core = learning();
  if (!core) throw new Error('the trained head is not loaded here (it comes with learning.js)');
  return core.learnedHeadMap({ text, detail });
}

export function wrap(module, { learning = () => null } = {}) {
  return {
    // Every limit the core enforces (map tokens and width, formula T, study limits and work
    // budget, scale factors, seeds, the equivalence tolerance), from the core's limits().
    limits: module.limits(),

    // Which fused kernel this engine runs: 'relaxed-simd' or 'simd128' (cpp/attention/kernel/).
    simdKernel: module.simdKernel ?? 'simd128',

    // Bytes of wasm memory this instance holds (it grows, never shrinks): the soak's leak bound.
    heapBytes: () => module.HEAP8.length,
    // Bytes allocated in the core and not yet freed; steady between calls unless one leaks.
    heapInUse: () => module.heapInUse(),

    // q, k: (T, d) and v: (T, dV) row-major Float32Arrays. Returns every intermediate.
    formula({ q, k, v, T, d, dV = d, scale = SQRT, causal = true }) {
      return unwrap(module.formula(q, k, v, T, d, dV, ...scaleArguments(scale), causal));
    },

    // The fused kernel: output only, no T×T matrix.
    fused({ q, k, v, T, d, dV = d, scale = SQRT, causal = true }) {
      return unwrap(module.fused(q, k, v, T, d, dV, ...scaleArguments(scale), causal)).output;
    },

    // What torch.manual_seed(seed); torch.randn(count) gives.
    randn(seed, count) {
      return unwrap(module.randn(seed, [count])).draws[0];
    },

    // torch.manual_seed(seed), then one torch.randn per count: the stream continues.
    randnSequence(seed, counts) {
      return unwrap(module.randn(seed, counts)).draws;
    },

    // One cell's q·k and its scaled score, by the formula's float32 operations: query and key
    // are two rows of length d (Float32Array); returns { raw, scaled }.
    scoreOf({ query, key, scale = SQRT }) {
      return unwrap(module.scoreOf(query, key, ...scaleArguments(scale)));
    },

    // The map recipe for any text (init: 'tutorial' | 'standard'; pos: 'none' | 'sinusoidal' |
    // 'rope'), then the head. Always returns tokens, T, d, init, pos, q, k, v, weights, rowMax,
    // rowSum, peakWeight, entropy, effectiveTokens, scale (the factor applied) and workingRows:
    // the queries whose working it kept, rawScores, scaledScores and maskedScores (workingRows,
    // T) and output (workingRows, d), which is T with detail 'all', the first 16
    // ('first-rows', the page's map) or 0 ('weights'). vectors 'learned' is the head trained on Shakespeare (options.learning):
    // one token per character, its own d, positions and 1/√d, causal, whatever the other
    // fields say; its result also says where each row peaks (peakTargets).
    attentionMap({
      text,
      tokens = 'chars',
      d = 24,
      seed = 1,
      vectors = 'position',
      init = 'tutorial',
      pos = 'none',
      scale = SQRT,
      causal = true,
      detail = 'all',
    }) {
      if (vectors === 'learned') return trainedHeadMap(learning, text, detail);
      return unwrap(
        module.attentionMap(
          text,
          tokens,
          d,
          seed,
          vectors,
          init,
          pos,
          ...scaleArguments(scale),
          causal,
          detail,
        ),
      );
    },

    // What attentionMap({ text, tokens, d }) costs in multiply-adds (draws and softmax counted
    // by their time), to choose between computing it at once and in the background.
    mapMultiplyAdds({ text, tokens = 'chars', d = 24 }) {
      return unwrap(module.mapMultiplyAdds(text, tokens, d)).multiplyAdds;
    },

    // Σ T²·d·draws over the widths: what the scale study would cost, to compare with
    // limits.maxStudyMultiplyAdds before asking for it.
    studyMultiplyAdds({ widths, T = 64, draws = 1 }) {
      return unwrap(module.studyMultiplyAdds(widths, T, draws)).multiplyAdds;
    },

    // Peak weight and entropy against head width, for none, 1/√d and 1/d.
    scaleStudy({ widths, T = 64, draws = 1, causal = false, seed = 0 }) {
      return unwrap(module.scaleStudy(widths, T, draws, causal, seed));
    },

    // The tutorial's equivalence check; torchOutput is PyTorch's (2, 16, 32) output.
    equivalence(causal, torchOutput) {
      return unwrap(module.equivalence(causal, torchOutput));
    },
  };
}
