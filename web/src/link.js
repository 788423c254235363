// The page's link: one URL hash holding section 4's map state (state.js, parsed by the store)
// and each linked figure's own part (the first screen's words, …). A part is { name,
// parse(params) → { state, messages }, serialize(state) → [[key, value], …] }; its keys are its
// own, so every part reads the same hash and ignores the others' keys. Old links, written before
// a part existed, lack its keys and open its defaults (or what its parse makes of the keys they
// have).
import { serializeHash } from './state.js';

// { states: { name: state }, messages: { name: [sentence, …] } } for a hash.
export function parseParts(hash, parts) {
  const params = new URLSearchParams(String(hash).replace(/^#/, ''));
  const states = {};
  const messages = {};
  for (const part of parts) {
    const parsed = part.parse(params);
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
