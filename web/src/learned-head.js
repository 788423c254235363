// The head trained natively on the whole corpus (`npm run train`, web/assets/learned-head.json):
// its shape, its vocabulary and what attention-train measured about it travel in the bundle;
// its weights, decoded from float16 once on first use, come with learning.js on the page
// (the bundle's copy of the JSON has no parameters: scripts/build-web.mjs) and from the JSON
// itself in Node.
import saved from '../assets/learned-head.json' with { type: 'json' };
import { namedScale } from './lib/scale.js';

// What the page says about the head: every number here was written by attention-train (the
// file names its scale by mode, "sqrt"; here it is a scale like any other, { mode, factor }).
export const LEARNED_HEAD = Object.freeze({
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

// binary16 → number, from the format: sign, 5 exponent bits (bias 15), 10 mantissa bits.
export function halfToNumber(half) {
  const exponent = (half >> 10) & 31;
  const mantissa = half & 1023;
  const magnitude =
    exponent === 0
      ? mantissa * 2 ** -24
      : exponent === 31
        ? NaN
        : (1024 + mantissa) * 2 ** (exponent - 25);
  return half & 0x8000 ? -magnitude : magnitude;
}

// Base64 of little-endian float16 values → Float32Array (every half is exact in float32).
export function decodeFloat16Base64(text) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const view = new DataView(bytes.buffer);
  const values = new Float32Array(bytes.length / 2);
  for (let i = 0; i < values.length; i++) values[i] = halfToNumber(view.getUint16(2 * i, true));
  return values;
}

let decoded = null;

// The float16 weights: the JSON's own in Node, else what learning.js brought.
function savedParameters() {
  const parameters = saved.parameters ?? globalThis.AttentionLearningData?.parameters;
  if (!parameters) throw new Error("the trained head's weights have not loaded yet");
  return parameters;
}

// The head as core.learnedHeadMap takes it: { vocabulary, context, d, scale, parameters }.
export function learnedHead() {
  decoded ??= Object.freeze({
    vocabulary: LEARNED_HEAD.vocabulary,
    context: LEARNED_HEAD.context,
    d: LEARNED_HEAD.d,
    scale: LEARNED_HEAD.scale,
    parameters: Object.fromEntries(
      Object.entries(savedParameters()).map(([name, { float16 }]) => [
        name,
        decodeFloat16Base64(float16),
      ]),
    ),
  });
  return decoded;
}
