// The learning section's core (attention-learning.js, cpp/wasm/learning_bindings.cpp) as a small
// promise-free JavaScript API, in the manner of core.js: the head's backward pass and the training
// runs of section 6. The page loads it on first use (learning.js).
import { headRequest, startModule, unwrap, withDefaults } from './core.js';
import { STANDARD_SCALE } from './lib/scale.js';

export async function loadLearningCore(factory = globalThis.AttentionLearning) {
  return wrapLearning(await startModule(factory, 'learning.js'));
}

const TRAINING_DEFAULTS = Object.freeze({
  config: 'head',
  d: 64,
  scale: STANDARD_SCALE,
  optimizer: 'adam',
  learningRate: 1e-2,
  seed: 0,
  batch: 16,
  context: 64,
});

// The backward pass and the training runs (section 6). Each takes one request object, read by
// name in C++, and throws as core.js's methods do (an Error with the core's message and .field).
function learningMethods(module) {
  return {
    // The head's backward pass: gradOutput (T, dV) is dLoss/dOutput; returns dLoss/dq, /dk,
    // /dv as Float32Arrays of q's, k's and v's shapes. scale: { mode, factor }, as in core.js.
    attentionBackward(request) {
      const { dq, dk, dv } = unwrap(module.attentionBackward(headRequest(request)));
      return { dq, dk, dv };
    },

    // Training runs live in the core, keyed by name (starting a name again replaces its run):
    // { name, text, config, d, scale, optimizer, learningRate, seed, batch, context }.
    // config: 'head' (the default: the one-head model, scaled by `scale`) or 'nohead' (the same
    // model with the attention path removed, h = x: the baseline; its scale is not used).
    // Returns { name, vocabulary, probe, characters, heldOutPredictions, step: 0, heldOutLoss,
    // meanEntropy, meanPeak, weights }: the probe is the text's first characters, weights their
    // (T, T) attention; heldOutPredictions, how many next characters the held-out loss averages. A 'nohead' run has no attention: its meanEntropy, meanPeak and weights are
    // null, and its queryGradientNorms and keyGradientNorms (trainingSteps) are 0. A pasted
    // text trains with a vocabulary of its own characters. The learning rate that suits each
    // width is learningRates[d] in web/assets/learning-results.json.
    trainingStart: (request) =>
      unwrap(module.trainingStart(withDefaults(TRAINING_DEFAULTS, request))),

    // `count` more steps: { step, losses, queryGradientNorms, keyGradientNorms } (one per step)
    // and, when measure is true, the measurements after them, as trainingStart returns. A
    // diverged run is removed and throws.
    trainingSteps: (request) =>
      unwrap(module.trainingSteps(withDefaults({ count: 10, measure: true }, request))),

    // { step, text }: `length` characters the run's model writes after its text's first
    // character (included in text), drawn with `seed`: the same seed at every step, so the
    // text changes only where the model has.
    trainingSample: (request) =>
      unwrap(module.trainingSample(withDefaults({ length: 80, seed: 0 }, request))),

    // Frees the run; { stopped } says whether there was one.
    trainingStop: (request) => unwrap(module.trainingStop(request)),

    ...growthMethods(module),
  };
}

// Section 9's growth runs (cpp/wasm/growth_bindings.cpp), keyed by name as the training runs are.
// growthStart({ name, text, seed, shares, ...recipe }): recipe is copying-head.json's (GROWTH_RECIPE
// of figures/copying/grower.js); returns { name, vocabulary, parameters, shares, measure }.
// growthSteps({ name, count, measure }): { step, losses, measure? }. measure: { step,
// heldOutLoss, induction: [layer 1, layer 2], previousToken, firstCopyLoss, secondCopyLoss,
// heldOutShare (null until the score reaches 0.3), formed }. growthShare({ name, first, count })
// and growthApply({ name, blocks, measure }) take one step on several workers (growth.hpp).
// growthMap({ name, text, layer, detail, guesses }): copyingHeadMap's result for the model as it
// is now, plus its step. A diverged run is removed and throws.
function growthMethods(module) {
  return {
    growthStart: (request) => unwrap(module.growthStart(request)),
    growthSteps: (request) =>
      unwrap(module.growthSteps(withDefaults({ count: 10, measure: true }, request))),
    growthShare: (request) => unwrap(module.growthShare(request)),
    growthApply: (request) => unwrap(module.growthApply(withDefaults({ measure: true }, request))),
    growthMap: (request) =>
      unwrap(module.growthMap(withDefaults({ detail: 'weights', guesses: 3 }, request))),
    growthStop: (request) => unwrap(module.growthStop(request)),
  };
}

export function wrapLearning(module) {
  return {
    ...learningMethods(module),
    // Which matrix products the trainer runs: 'relaxed-simd' (fused multiply-adds, where the
    // engine validates relaxed SIMD) or 'simd128' (cpp/attention/kernel/product_job.hpp).
    simdKernel: module.simdKernel ?? 'simd128',
    // Bytes allocated in this module and not yet freed (core.js's heapInUse, for this one).
    heapInUse: () => module.heapInUse(),
  };
}
