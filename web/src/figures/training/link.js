// The training run's part of the page's link (web/src/link.js): its settings, not its results
// (a run is the reader's to start): the width (`train-d`), the steps (`train-steps`), the
// learning rate (`train-rate`, absent for the width's own), the text (`train-source`:
// shakespeare or pasted) and a pasted text itself (`train-text`, written only while it is the
// text learned). Pure. Only values that differ from the figure's first view are written.
import { readKeys, writeKeys } from '../../link.js';
import { checkSettings, DEFAULT_SETTINGS } from './model.js';

// A check of one field by the figure's own checkSettings, the other fields at their defaults.
const byModel = (field) => (raw) => {
  const checked = checkSettings({ ...DEFAULT_SETTINGS, [field]: raw });
  return checked.value ? { value: checked.value[field] } : { error: checked.errors[field] };
};

function checkSource(raw) {
  return raw === 'shakespeare' || raw === 'pasted'
    ? { value: raw }
    : { error: 'train-source must be one of: shakespeare, pasted.' };
}

const KEYS = {
  'train-d': { field: 'd', check: byModel('d'), format: String },
  'train-steps': { field: 'steps', check: byModel('steps'), format: String },
  'train-rate': {
    field: 'learningRate',
    check: byModel('learningRate'),
    format: (rate) => (rate === null ? '' : String(rate)),
  },
  'train-source': { field: 'source', check: checkSource, format: String },
  'train-text': { field: 'text', check: (raw) => ({ value: raw }), format: String },
};

// A pasted text too short or too long for a run: the source goes back to Shakespeare, with the
// figure's own sentence.
function parse(params) {
  const { state, messages } = readKeys(params, KEYS, DEFAULT_SETTINGS);
  const checked = checkSettings(state);
  if (state.source === 'pasted' && checked.errors?.text) {
    messages.push(
      `The link's train-source=“pasted” was not used: ${checked.errors.text} Showing train-source=shakespeare.`,
    );
    state.source = 'shakespeare';
  }
  return { state: Object.freeze(state), messages };
}

// A text that is not the one learned is not part of what the figure shows.
const serialize = (state) =>
  writeKeys(state.source === 'pasted' ? state : { ...state, text: '' }, KEYS, DEFAULT_SETTINGS);

export const trainingLink = Object.freeze({ name: 'training', parse, serialize });
