// Where each saved model's weights come from on the page. scripts/build-web.mjs writes them into
// classic scripts of their own, each defining one global: dist/copying-head.js, which index.html
// loads with the page (the first screen shows the copying head), and dist/trained-head.js,
// loaded when a reader first picks the trained head. In Node (the tests) the JSON itself carries
// them. The bundles hold each model's JSON without its weights.
import { loadScript } from '../lib/load-script.js';

export const WEIGHT_FILES = Object.freeze({
  copying: {
    file: 'copying-head.js',
    global: 'AttentionCopyingHead',
    what: "the copying head's weights",
  },
  trained: {
    file: 'trained-head.js',
    global: 'AttentionTrainedHead',
    what: "the trained head's weights",
  },
});

// The weights as saved, or null until they have loaded: the JSON's own field (Node), else the
// global its script defines.
export function savedWeights(model, inJson) {
  return inJson ?? globalThis[WEIGHT_FILES[model].global] ?? null;
}

// Resolves once the model's weights are here (at once when they are), or rejects with a sentence.
export function loadWeights(model, inJson, documentRef = globalThis.document) {
  if (savedWeights(model, inJson)) return Promise.resolve();
  const { file, global, what } = WEIGHT_FILES[model];
  return loadScript(file, global, what, documentRef).then(() => undefined);
}
