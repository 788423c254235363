// The √d chart's part of the page's link (web/src/link.js): which study (`study-data`: the
// tutorial's or the averaged one), which measure (`study-measure`), and the averaged study's
// draws, tokens, seed and mask (`study-draws`, `study-tokens`, `study-seed`, `study-causal`),
// kept while the tutorial's study is shown, as the chart's own fields keep them. Pure: the
// limits and the work budget are the core's (context.core). Only values that differ from the
// chart's first view are written.
import { readKeys, writeKeys } from '../../link.js';
import { AVERAGED_WIDTHS, budgetMessage, fieldRules, INITIAL_VIEW, wholeNumber } from './model.js';

export const STUDY_DEFAULTS = Object.freeze({
  mode: INITIAL_VIEW.mode,
  measure: INITIAL_VIEW.measure,
  causal: INITIAL_VIEW.causal,
  draws: Number(INITIAL_VIEW.raw.draws),
  T: Number(INITIAL_VIEW.raw.T),
  seed: Number(INITIAL_VIEW.raw.seed),
});

const oneOf = (key, choices) => (raw) =>
  choices.includes(raw)
    ? { value: raw }
    : { error: `${key} must be one of: ${choices.join(', ')}.` };

function flag(raw) {
  if (raw === '1' || raw === '0') return { value: raw === '1' };
  return { error: 'study-causal must be 1 or 0.' };
}

// The keys, with the core's limits for the typed fields.
function keysFor(limits) {
  const rules = fieldRules(limits);
  const number = (field) => (raw) => wholeNumber(raw, rules[field]);
  return {
    'study-data': {
      field: 'mode',
      check: oneOf('study-data', ['tutorial', 'averaged']),
      format: String,
    },
    'study-measure': {
      field: 'measure',
      check: oneOf('study-measure', ['peak', 'entropy']),
      format: String,
    },
    'study-draws': { field: 'draws', check: number('draws'), format: String },
    'study-tokens': { field: 'T', check: number('T'), format: String },
    'study-seed': { field: 'seed', check: number('seed'), format: String },
    'study-causal': { field: 'causal', check: flag, format: (on) => (on ? '1' : '0') },
  };
}

// The averaged study a state asks for (shown now, or when the reader picks "Averaged").
export const averagedSettings = ({ T, draws, causal, seed }) =>
  Object.freeze({ mode: 'averaged', widths: AVERAGED_WIDTHS, T, draws, causal, seed });

// The sentence for an averaged study over the core's work budget, or ''.
export function overBudget(state, core) {
  const work = (settings) => core.studyMultiplyAdds(settings);
  return budgetMessage(averagedSettings(state), core.limits.maxStudyMultiplyAdds, work);
}

// context.core: limits and studyMultiplyAdds. Draws and tokens that together are too much work
// are both left out, with the budget's own sentence.
function parse(params, { core }) {
  const { state, messages } = readKeys(params, keysFor(core.limits), STUDY_DEFAULTS);
  const tooMuch = overBudget(state, core);
  if (tooMuch) {
    const { draws, T } = STUDY_DEFAULTS;
    messages.push(
      `The link's study-draws=“${state.draws}” and study-tokens=“${state.T}” were not used: ${tooMuch} Showing study-draws=${draws} and study-tokens=${T}.`,
    );
    Object.assign(state, { draws, T });
  }
  return { state: Object.freeze(state), messages };
}

// Written with the limits of no core: writing checks nothing.
const KEYS = keysFor({ maxStudyDraws: 0, maxStudyT: 0 });
const serialize = (state) => writeKeys(state, KEYS, STUDY_DEFAULTS);

export const scaleLink = Object.freeze({ name: 'scale', parse, serialize });
