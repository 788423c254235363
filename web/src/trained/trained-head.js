// The head trained natively on the whole corpus (`npm run train`, web/assets/trained-head.json):
// its shape, its vocabulary and what attention-train measured about it travel in the bundle;
// its weights (only the five matrices a map reads: scripts/build-web.mjs) become float16 halves
// once, on first use (weights.js says where they come from).
import saved from '../../assets/trained-head.json' with { type: 'json' };
import { namedScale } from '../lib/scale.js';
import { halvesOf } from './float16.js';
import { loadWeights, savedWeights } from './weights.js';

// What the page says about the head: every number here was written by attention-train (the
// file names its scale by mode, "sqrt"; here it is a scale like any other, { mode, factor }).
export const TRAINED_HEAD = Object.freeze({
  d: saved.d,
  context: saved.context,
  scale: namedScale(saved.scale),
  steps: saved.steps,
  heldOutLoss: saved.heldOutLoss,
  vocabulary: Object.freeze([...saved.vocabulary]),
  census: Object.freeze({
    ...saved.peakCensus,
    counts: Object.freeze({ ...saved.peakCensus.counts }),
  }),
});

export const loadTrainedHead = (documentRef) =>
  loadWeights('trained', saved.parameters, documentRef);

let decoded = null;

// The head as the core's trainedHeadLoad takes it: { vocabulary, context, d, scale, parameters }.
// Throws until its weights have loaded.
export function trainedHead() {
  const parameters = savedWeights('trained', saved.parameters);
  if (!parameters) throw new Error("the trained head's weights have not loaded yet");
  decoded ??= Object.freeze({
    vocabulary: TRAINED_HEAD.vocabulary,
    context: TRAINED_HEAD.context,
    d: TRAINED_HEAD.d,
    scale: TRAINED_HEAD.scale,
    parameters: Object.fromEntries(
      Object.entries(parameters).map(([name, { float16 }]) => [name, halvesOf(float16)]),
    ),
  });
  return decoded;
}
