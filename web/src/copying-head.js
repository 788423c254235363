// The two-layer model grown natively (`npm run grow`, web/assets/copying-head.json): its shape,
// vocabulary, census and recorded curve travel in the bundle; its weights (one float16 base64
// string, less the tensors no map reads) come with learning.js on the page (the bundle's copy of the JSON has none:
// scripts/build-web.mjs) and from the JSON itself in Node. It is not the trained one-layer head
// (learned-head.js).
import saved from '../assets/copying-head.json' with { type: 'json' };
import { decodeFloat16Base64 } from './learned-head.js';
import { namedScale } from './lib/scale.js';

// What the page says about the model and its growth: every number here was written by
// attention-grow.
export const COPYING_HEAD = Object.freeze({
  d: saved.config.d,
  context: saved.config.context,
  layers: saved.config.layers,
  layerNorm: saved.config.layerNorm,
  scale: namedScale(saved.config.scale),
  vocabulary: Object.freeze([...saved.vocabulary]),
  curve: saved.curve,
  training: saved.training,
});

// The map's "One vector per" choice for each layer ('copying-1', 'copying-2' in links), and the
// layer a choice shows (null for every other choice).
export const COPYING_CHOICES = Object.freeze({ 'copying-1': 1, 'copying-2': 2 });
export const copyingLayer = (vectors) => COPYING_CHOICES[vectors] ?? null;

let decoded = null;

function savedHalves() {
  const halves = saved.float16 ?? globalThis.AttentionLearningData?.copyingHead;
  if (!halves) throw new Error("the copying head's weights have not loaded yet");
  return halves;
}

// Floats in the model's flat buffer (cpp/learning/layered/layered_model.hpp parameter_layout).
const TOTAL = saved.tensors.reduce((sum, { rows, cols }) => sum + rows * cols, 0);

// The weights, zero-padded to the whole layout: the page's copy leaves out the tensors that
// come last and no map reads (scripts/build-web.mjs), Node's has them all.
function flatParameters() {
  const parameters = new Float32Array(TOTAL);
  parameters.set(decodeFloat16Base64(savedHalves()));
  return parameters;
}

// The model as the learning core's copyingHeadLoad takes it.
export function copyingHead() {
  decoded ??= Object.freeze({
    vocabulary: COPYING_HEAD.vocabulary,
    context: COPYING_HEAD.context,
    d: COPYING_HEAD.d,
    layers: COPYING_HEAD.layers,
    layerNorm: COPYING_HEAD.layerNorm,
    scale: COPYING_HEAD.scale,
    parameters: flatParameters(),
  });
  return decoded;
}
