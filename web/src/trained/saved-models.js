// The saved models by the name a map's `vectors` field gives them: 'trained' (the one-layer
// trained head) and 'copying-1', 'copying-2' (the copying head's layers). 'grown-2', the head the
// reader grows, has the copying head's shape, and the saved head stands in for it on the map
// while the page has not grown the one its link names.
import {
  COPYING_CHOICES,
  COPYING_HEAD,
  copyingHead,
  GROWN_CHOICE,
  loadCopyingHead,
} from './copying-head.js';
import { loadTrainedHead, TRAINED_HEAD, trainedHead } from './trained-head.js';

// The saved model `vectors` names (its d and scale), or null for the page's own recipes.
export function savedModelNamed(vectors) {
  if (vectors === 'trained') return TRAINED_HEAD;
  return vectors in COPYING_CHOICES || vectors === GROWN_CHOICE ? COPYING_HEAD : null;
}

// Resolves once the model's weights have loaded and are decoded, ready for the core.
export async function loadSavedModel(vectors) {
  if (vectors === 'trained') {
    await loadTrainedHead();
    trainedHead();
  } else {
    await loadCopyingHead();
    copyingHead();
  }
}
