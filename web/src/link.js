// The page's link: one URL hash holding section 4's map state (state.js, parsed by the store)
// and each linked figure's own part (the first screen's words, the name-tag room, …). A part is
// { name, parse(params, context) → { state, messages }, serialize(state) → [[key, value], …] };
// its keys are its own, so every part reads the same hash and ignores the others' keys. Old
// links, written before a part existed, lack its keys and open its defaults (or what its parse
// makes of the keys they have). `context` is what a part may check against: { core } (limits
// and work budgets are the core's).
import { serializeHash, unusedValue } from './state.js';

// { states: { name: state }, messages: { name: [sentence, …] } } for a hash.
export function parseParts(hash, parts, context = {}) {
  const params = new URLSearchParams(String(hash).replace(/^#/, ''));
  const states = {};
  const messages = {};
  for (const part of parts) {
    const parsed = part.parse(params, context);
    states[part.name] = parsed.state;
    messages[part.name] = parsed.messages;
  }
  return { states, messages };
}

// The hash for a map state and the parts' states: the parts' keys first (the first screen's
// words lead), then the map's.
export function linkHash(mapState, parts, states) {
  const params = new URLSearchParams();
  for (const part of parts)
    for (const [key, value] of part.serialize(states[part.name])) params.set(key, value);
  const own = params.toString().replace(/\+/g, '%20');
  const map = serializeHash(mapState).slice(1);
  return `#${[own, map].filter(Boolean).join('&')}`;
}

// How most parts read their keys. keys: { key: { field, check(raw) → { value } | { error },
// format(value) → the link's text } }. Each key present is checked; a refused value keeps the
// default and adds the page's usual sentence naming the key, the value and what is shown.
export function readKeys(params, keys, defaults) {
  const state = { ...defaults };
  const messages = [];
  for (const [key, { field, check, format }] of Object.entries(keys)) {
    if (!params.has(key)) continue;
    const raw = params.get(key);
    const checked = check(raw);
    if ('value' in checked) state[field] = checked.value;
    else messages.push(unusedValue(key, raw, checked.error, format(defaults[field])));
  }
  return { state, messages };
}

// How most parts write their keys: only those whose value differs from the default, so a figure
// left as it opened adds nothing to the link, and a link from before its part reads the same.
export function writeKeys(state, keys, defaults) {
  return Object.entries(keys)
    .map(([key, { field, format }]) => [key, format(state[field]), format(defaults[field])])
    .filter(([, value, fallback]) => value !== fallback)
    .map(([key, value]) => [key, value]);
}
