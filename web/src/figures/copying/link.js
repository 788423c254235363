// Section 9's part of the page's link (web/src/link.js): the text the reader gives the copying
// head there (`copy-text`), which of its two layers is shown (`copy-layer`), and the seed and
// number of steps of the head the reader grows (`grow-seed`, `grow-steps`: the link names the
// run; opening it fills them in, and growing waits for the click). Pure; only values that
// differ from the section's first view are written.
import { readKeys, writeKeys } from '../../link.js';
import { checkText } from '../../state.js';

export const READING_DEFAULTS = Object.freeze({
  text: 'what shall I do? say what; what shall I do?',
  layer: 2,
  seed: 0,
  steps: 2000,
});

export const MAX_SEED = 999999;
export const GROW_STEPS = Object.freeze({ min: 100, max: 5000 });

function checkLayer(raw) {
  return raw === '1' || raw === '2'
    ? { value: Number(raw) }
    : { error: 'copy-layer must be 1 or 2.' };
}

// A whole number from `least` to `most`, written in digits.
function wholeIn(raw, least, most, what) {
  const text = String(raw).trim();
  const value = Number(text);
  return /^\d+$/.test(text) && value >= least && value <= most
    ? { value }
    : { error: `${what} must be a whole number from ${least} to ${most.toLocaleString('en-US')}.` };
}

const checkSeed = (raw) => wholeIn(raw, 0, MAX_SEED, 'The seed');
const checkSteps = (raw) => wholeIn(raw, GROW_STEPS.min, GROW_STEPS.max, 'The steps');

// The grow panel's two fields as typed: { value: { seed, steps } } or { error }.
export function checkGrowSettings(seedText, stepsText) {
  const seed = checkSeed(seedText);
  const steps = checkSteps(stepsText);
  const error = [seed.error, steps.error].filter(Boolean).join(' ');
  return error ? { error } : { value: { seed: seed.value, steps: steps.value } };
}

const KEYS = {
  'copy-text': { field: 'text', check: checkText, format: String },
  'copy-layer': { field: 'layer', check: checkLayer, format: String },
  'grow-seed': { field: 'seed', check: checkSeed, format: String },
  'grow-steps': { field: 'steps', check: checkSteps, format: String },
};

function parse(params) {
  const { state, messages } = readKeys(params, KEYS, READING_DEFAULTS);
  return { state: Object.freeze(state), messages };
}

const serialize = (state) => writeKeys(state, KEYS, READING_DEFAULTS);

export const copyingLink = Object.freeze({ name: 'copying', parse, serialize });
