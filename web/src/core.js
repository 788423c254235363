// The C++ core, compiled to WebAssembly, as a small promise-free JavaScript API.
//
// loadCore() starts the page's Emscripten module (attention-core.js, a classic script that
// defines the global AttentionCore factory, so it loads from file:// too). Every method here
// fills in the defaults of one request object, hands it to one embind function, which reads
// its fields by name (cpp/wasm/bindings.hpp), and turns its { error: { message, field } } result
// into a thrown Error carrying the core's own message and .field, the request field at fault
// ('text', 'scale', 'd', …, or null), so callers handle bad input with try/catch like any
// other JS error and can show it beside that field's control. The learning section's module
// has its own wrapper (learning-core.js).
import { STANDARD_SCALE } from './lib/scale.js';
import { copyingHead, copyingLayer } from './trained/copying-head.js';
import { trainedHead } from './trained/trained-head.js';

export async function loadCore(factory = globalThis.AttentionCore) {
  return wrap(await startModule(factory, 'attention-core.js'));
}

// Starts an Emscripten factory, or says in a sentence why it cannot.
export function startModule(factory, file) {
  if (typeof factory !== 'function')
    throw new Error(`the WebAssembly module (${file}) did not load`);
  if (typeof WebAssembly !== 'object')
    throw new Error('this browser has WebAssembly turned off or unsupported');
  return factory();
}

// An Error for the core's { message, field }: .field names the request field at fault, or is
// null when no one field is.
export function coreError({ message, field = null }) {
  return Object.assign(new Error(message), { field });
}

export function unwrap(result) {
  if (result?.error) throw coreError(result.error);
  return result;
}

// The request with `defaults` for every field it leaves out or leaves undefined.
export function withDefaults(defaults, request) {
  const filled = { ...defaults };
  for (const [key, value] of Object.entries(request)) if (value !== undefined) filled[key] = value;
  return filled;
}

// A saved model's maps (cpp/wasm/trained_bindings.cpp). The module is handed the model once, on
// its first map; model() throws until the model's weights have loaded (trained/weights.js).
function savedModelMapper(load, model) {
  let loaded = false;
  return (map, request) => {
    if (!loaded) unwrap(load(model()));
    loaded = true;
    return unwrap(map(request));
  };
}

// A head's request ({ q, k, v, T, d, dV, scale, causal }: q, k (T, d) and v (T, dV) row-major
// Float32Arrays) with its defaults filled in: dV = d, the 1/√d scale, causal. The learning
// module's backward pass takes the same request.
export function headRequest(request) {
  return withDefaults({ dV: request.d, scale: STANDARD_SCALE, causal: true }, request);
}

// The formula, the fused kernel and one cell's score; scale: { mode, factor } (lib/scale.js).
function headMethods(module) {
  return {
    // Every intermediate, and the factor applied (scaleFactor).
    formula: (request) => unwrap(module.formula(headRequest(request))),
    // The fused kernel: output only, no T×T matrix.
    fused: (request) => unwrap(module.fused(headRequest(request))).output,
    // One cell's q·k and its scaled score, by the formula's float32 operations: query and key
    // are two rows of length d (Float32Array); returns { raw, scaled }.
    scoreOf: (request) => unwrap(module.scoreOf(withDefaults({ scale: STANDARD_SCALE }, request))),
  };
}

export const MAP_DEFAULTS = Object.freeze({
  tokens: 'chars',
  d: 24,
  seed: 1,
  vectors: 'position',
  init: 'tutorial',
  pos: 'none',
  scale: STANDARD_SCALE,
  causal: true,
  detail: 'all',
});

// The map and what it costs.
function mapMethods(module) {
  const trained = savedModelMapper(module.trainedHeadLoad, trainedHead);
  const copying = savedModelMapper(module.copyingHeadLoad, copyingHead);
  return {
    // The map recipe for any text (init: 'tutorial' | 'standard'; pos: 'none' | 'sinusoidal' |
    // 'rope'), then the head. Always returns tokens, T, d, init, pos, q, k, v, weights, rowMax,
    // rowSum, peakWeight, entropy, effectiveTokens, scaleFactor (the factor applied) and
    // workingRows: the queries whose working it kept, rawScores, scaledScores and maskedScores
    // (workingRows, T) and output (workingRows, d), which is T with detail 'all', the first 16
    // ('first-rows', the page's map) or 0 ('weights'). vectors 'trained' is the head trained on
    // Shakespeare (trained/trained-head.js): one token per character, its own d, positions and
    // 1/√d, causal, whatever the other fields say; its result also says where each row peaks
    // (peakTargets). vectors 'copying-1' and 'copying-2' are the two layers of the copying
    // head (trained/copying-head.js), likewise fixed; see copyingHeadMap for what they add.
    // A saved model's weights must have loaded first (trained/weights.js).
    attentionMap(request) {
      const filled = withDefaults(MAP_DEFAULTS, request);
      const { text, detail } = filled;
      if (filled.vectors === 'trained') return trained(module.trainedHeadMap, { text, detail });
      const layer = copyingLayer(filled.vectors);
      if (layer) return copying(module.copyingHeadMap, { text, layer, detail, guesses: 0 });
      return unwrap(module.attentionMap(filled));
    },

    // One layer of the copying head on text ({ text, layer, detail, guesses }): the fields of
    // attentionMap, plus layer, rowsWithEarlier (rows whose character came earlier),
    // rowsIntoCopy (of those, rows whose largest weight lands right after an earlier occurrence
    // of their character: cpp/trained/copying_head.hpp) and next: the model's `guesses`
    // likeliest next characters after the text, [{ character, probability }].
    copyingHeadMap: (request) =>
      copying(
        module.copyingHeadMap,
        withDefaults({ layer: 2, detail: 'all', guesses: 3 }, request),
      ),

    // How many tokens attentionMap({ text, tokens }) would have (possibly more than it accepts).
    tokenCount: (request) =>
      unwrap(module.tokenCount(withDefaults({ tokens: MAP_DEFAULTS.tokens }, request))).T,

    // What a map of T tokens at width d costs in multiply-adds (draws and softmax counted by
    // their time), to choose between computing it at once and in the background.
    mapMultiplyAdds: ({ T, d }) => unwrap(module.mapMultiplyAdds({ T, d })).multiplyAdds,
  };
}

const STUDY_DEFAULTS = Object.freeze({ T: 64, draws: 1, causal: false, seed: 0 });

// The √d study.
function studyMethods(module) {
  return {
    // Σ T²·d·draws over the widths: what the scale study would cost, to compare with
    // limits.maxStudyMultiplyAdds before asking for it.
    studyMultiplyAdds: (request) =>
      unwrap(module.studyMultiplyAdds(withDefaults(STUDY_DEFAULTS, request))).multiplyAdds,
    // Peak weight and entropy against head width, for none, 1/√d and 1/d ({ widths, T,
    // draws, causal, seed }).
    scaleStudy: (request) => unwrap(module.scaleStudy(withDefaults(STUDY_DEFAULTS, request))),
  };
}

export function wrap(module) {
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

    ...headMethods(module),
    ...mapMethods(module),
    ...studyMethods(module),

    // What torch.manual_seed(seed); torch.randn(count) gives ({ seed, count }).
    randn: ({ seed, count }) => unwrap(module.randn({ seed, counts: [count] })).draws[0],

    // torch.manual_seed(seed), then one torch.randn per count: the stream continues
    // ({ seed, counts }).
    randnSequence: (request) => unwrap(module.randn(request)).draws,

    // The tutorial's equivalence check ({ causal, torchOutput }); torchOutput is PyTorch's
    // (2, 16, 32) output.
    equivalence: (request) => unwrap(module.equivalence(request)),
  };
}
