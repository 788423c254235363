// The two-layer model grown natively (`npm run grow`, web/assets/copying-head.json): its shape,
// vocabulary, census and recorded curve travel in the bundle; its weights (one float16 base64
// string) become halves once, on first use (weights.js says where they come from). The first
// screen shows its second layer on the reader's words. It is not the one-layer trained head
// (trained-head.js).
import saved from '../../assets/copying-head.json' with { type: 'json' };
import { namedScale } from '../lib/scale.js';
import { halvesOf } from './float16.js';
import { loadWeights, savedWeights } from './weights.js';

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
  census: saved.census,
});

// The map's "One vector per" choice for each layer ('copying-1', 'copying-2' in links), and the
// layer a choice shows (null for every other choice).
export const COPYING_CHOICES = Object.freeze({ 'copying-1': 1, 'copying-2': 2 });
export const copyingLayer = (vectors) => COPYING_CHOICES[vectors] ?? null;

// The map's choice for layer 2 of the head the reader grows in section 9 ('grown-2' in links): the
// same shape as the saved head's, grown live with the seed and steps of the link's grow-seed and
// grow-steps (figures/copying/grown-head.js).
export const GROWN_CHOICE = 'grown-2';

export const loadCopyingHead = (documentRef) => loadWeights('copying', saved.float16, documentRef);

let decoded = null;

// The model as the core's copyingHeadLoad takes it. Throws until its weights have loaded.
export function copyingHead() {
  const halves = savedWeights('copying', saved.float16);
  if (!halves) throw new Error("the copying head's weights have not loaded yet");
  decoded ??= Object.freeze({
    vocabulary: COPYING_HEAD.vocabulary,
    context: COPYING_HEAD.context,
    d: COPYING_HEAD.d,
    layers: COPYING_HEAD.layers,
    layerNorm: COPYING_HEAD.layerNorm,
    scale: COPYING_HEAD.scale,
    float16: halvesOf(halves),
  });
  return decoded;
}
