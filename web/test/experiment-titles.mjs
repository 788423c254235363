// The page's experiments, by the title on each button, in their order: the browser tests that
// run every experiment (map.test.mjs, teaching.test.mjs) walk this one list.
export const EXPERIMENT_TITLES = Object.freeze([
  'Remove the causal mask',
  'The same token at two positions',
  '…with sinusoidal positions',
  '…with RoPE',
  'RoPE: distance, not place',
  'Widen the head under 1/√d: d = 16 → 256',
  'Scale by 1/d instead of 1/√d',
  'No scaling at d = 512',
  'A head trained on Shakespeare',
  'Say it twice',
  "Back to the tutorial's figure",
]);
