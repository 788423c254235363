// The first screen's part of the page's link: the reader's words (`words`) and which head reads
// them (`head`: the grown copying head, or the tutorial's untrained one). Pure: parsed and
// written by web/src/link.js beside section 4's map state. A link from before the first screen
// had its own words (they were the map's `text`) opens with the map's text.
import { checkText, unusedValue } from '../../state.js';

// A phrase said twice and cut short: the copying head's second copy looks back at the first,
// and the model's first guess finishes the phrase.
export const DEFAULT_WORDS = 'I like cold milk and jam. I like cold milk and j';
export const HEADS = Object.freeze(['copying', 'tutorial']);
export const HERO_DEFAULTS = Object.freeze({ words: DEFAULT_WORDS, head: 'copying' });

function checkHead(raw) {
  return HEADS.includes(raw)
    ? { value: raw }
    : { error: `head must be one of: ${HEADS.join(', ')}.` };
}

const CHECKS = { words: checkText, head: checkHead };

// params: the link's URLSearchParams. Returns { state, messages }.
function parse(params) {
  const state = { ...HERO_DEFAULTS };
  if (!params.has('words') && params.has('text') && 'value' in checkText(params.get('text')))
    state.words = params.get('text');
  const messages = [];
  for (const [key, check] of Object.entries(CHECKS)) {
    if (!params.has(key)) continue;
    const checked = check(params.get(key));
    if ('value' in checked) state[key] = checked.value;
    else messages.push(unusedValue(key, params.get(key), checked.error, HERO_DEFAULTS[key]));
  }
  return { state: Object.freeze(state), messages };
}

const serialize = (state) => [
  ['words', state.words],
  ['head', state.head],
];

export const heroLink = Object.freeze({ name: 'hero', parse, serialize });
