// Section 9's part of the page's link (web/src/link.js): the text the reader gives the copying
// head there (`copy-text`) and which of its two layers is shown (`copy-layer`). Pure; only
// values that differ from the section's first view are written.
import { readKeys, writeKeys } from '../../link.js';
import { checkText } from '../../state.js';

export const READING_DEFAULTS = Object.freeze({
  text: 'what shall I do? say what; what shall I do?',
  layer: 2,
});

function checkLayer(raw) {
  return raw === '1' || raw === '2'
    ? { value: Number(raw) }
    : { error: 'copy-layer must be 1 or 2.' };
}

const KEYS = {
  'copy-text': { field: 'text', check: checkText, format: String },
  'copy-layer': { field: 'layer', check: checkLayer, format: String },
};

function parse(params) {
  const { state, messages } = readKeys(params, KEYS, READING_DEFAULTS);
  return { state: Object.freeze(state), messages };
}

const serialize = (state) => writeKeys(state, KEYS, READING_DEFAULTS);

export const copyingLink = Object.freeze({ name: 'copying', parse, serialize });
