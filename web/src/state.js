// The map's state: its defaults (the tutorial's figure), how each field is checked, how it
// travels in the URL hash (#text=…&tokens=chars&d=24&seed=1&causal=1&scale=sqrt
// &vectors=position&init=tutorial&pos=none, then &stretch=1 only when the colours are
// stretched), and the rule that keeps the map agreeing with a saved model (withSavedModel).
//
// Every check returns either { value } or { error } with a sentence a person can act on;
// nothing here throws, so a bad link or a bad keystroke can never blank the page. Limits come
// from the core (core.limits), passed in: this file holds no copy of them.
import { formatScale, parseScale, STANDARD_SCALE } from './lib/scale.js';
import { COPYING_CHOICES, GROWN_CHOICE } from './trained/copying-head.js';
import { savedModelNamed } from './trained/saved-models.js';

export const DEFAULT_STATE = Object.freeze({
  text: 'To be, or not',
  tokens: 'chars',
  d: 24,
  seed: 1,
  causal: true,
  scale: STANDARD_SCALE,
  vectors: 'position',
  init: 'tutorial',
  pos: 'none',
  stretch: false, // colours from 0 to 1 (false) or stretched to the map's largest weight (true)
});

// Fields that change how the map is drawn, not what the core computes. A link writes them only
// when they differ from the default, so every link written before they existed reads the same.
export const DISPLAY_FIELDS = Object.freeze(['stretch']);

// The page's own guard on typing, before tokenizing; the core limits the tokens it maps.
export const MAX_TEXT_LENGTH = 4000;

// Order of the fields in a link, and of the checks.
export const FIELDS = Object.freeze(Object.keys(DEFAULT_STATE));

function wholeNumber(raw, name, low, high) {
  const text = String(raw).trim();
  const value = /^[+]?\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value) || value < low || value > high) {
    return { error: `${name} must be a whole number from ${low} to ${high}.` };
  }
  return { value };
}

function oneOf(raw, name, choices) {
  return choices.includes(raw)
    ? { value: raw }
    : { error: `${name} must be one of: ${choices.join(', ')}.` };
}

function flag(raw, name) {
  if (raw === true || raw === '1') return { value: true };
  if (raw === false || raw === '0') return { value: false };
  return { error: `${name} must be 1 or 0.` };
}

export function checkText(raw) {
  const text = String(raw);
  if (text.trim() === '') return { error: 'Type some text: the map needs at least one token.' };
  if (text.length > MAX_TEXT_LENGTH) {
    return {
      error: `Text is limited to ${MAX_TEXT_LENGTH} characters (this has ${text.length}).`,
    };
  }
  return { value: text };
}

// Old links said pos=1 (sinusoidal positions added) or pos=0 (none).
function checkPositions(raw) {
  if (raw === '1' || raw === true) return { value: 'sinusoidal' };
  if (raw === '0' || raw === false) return { value: 'none' };
  return oneOf(raw, 'pos', ['none', 'sinusoidal', 'rope']);
}

// Old links name the trained head vectors=learned.
function checkVectors(raw) {
  if (raw === 'learned') return { value: 'trained' };
  const choices = ['position', 'token', 'trained', ...Object.keys(COPYING_CHOICES), GROWN_CHOICE];
  return oneOf(raw, 'vectors', choices);
}

// field name -> check(raw), for raw values from a control or a link. limits: core.limits.
export function createChecks(limits) {
  return {
    text: checkText,
    tokens: (raw) => oneOf(raw, 'tokens', ['chars', 'words']),
    d: (raw) => wholeNumber(raw, 'Head width d', 1, limits.maxMapWidth),
    seed: (raw) => wholeNumber(raw, 'Seed', 0, Number.MAX_SAFE_INTEGER),
    causal: (raw) => flag(raw, 'causal'),
    scale: parseScale,
    vectors: checkVectors,
    init: (raw) => oneOf(raw, 'init', ['tutorial', 'standard']),
    pos: checkPositions,
    stretch: (raw) => flag(raw, 'stretch'),
  };
}

// Checks that need two fields. Returns { field: message } for the control to show it beside.
export function crossCheck(state) {
  if (state.pos === 'rope' && state.d % 2 === 1) {
    return {
      pos: `RoPE turns the numbers of q and k in pairs, so it needs an even head width; d = ${state.d} is odd. Pick an even d or another kind of position.`,
    };
  }
  return {};
}

// vectors=trained is the head trained on Shakespeare (trained/trained-head.js): it reads
// characters, has its own width, was trained causally and scales by 1/√d, so those fields are
// set to what it does (the map, the four lines and the link then all say what it does); seed,
// init and pos do not apply to it and are kept for when the reader switches back.
// The copying head's two layers (vectors=copying-1, copying-2) fix the same fields to its own,
// and so does layer 2 of the head the reader grows with its recipe (vectors=grown-2).
export function withSavedModel(state) {
  const head = savedModelOf(state);
  if (!head) return state;
  return { ...state, tokens: 'chars', d: head.d, causal: true, scale: head.scale };
}

// The saved model a state's map shows (its d and scale), or null for the page's own recipe.
export function savedModelOf(state) {
  return savedModelNamed(state.vectors);
}

// Width d rests while the map uses the tutorial's recipe (Wq, Wk = 0.5·randn(d, d)): under it
// q and k grow like √d, so moving d alone would also make the map sharper, against what
// section 5 teaches. The standard recipe keeps the scores' spread at every width; the map
// offers it in one click (attention-map/model.js recipeNote).
export function widthRests(state) {
  return savedModelOf(state) !== null || state.init === 'tutorial';
}

export function serializeValue(key, value) {
  if (key === 'scale') return formatScale(value);
  if (value === true) return '1';
  if (value === false) return '0';
  return String(value);
}

// What a link's bad value gets: a sentence naming the key, the value, why, and what is shown.
export function unusedValue(key, raw, error, shown) {
  return `The link's ${key}=“${shorten(raw)}” was not used: ${error} Showing ${key}=${shown}.`;
}

// Parses a location hash into a full state. Unknown keys are ignored; a bad value falls back
// to the default and adds a message naming the key, the bad value and the fallback.
export function parseHash(hash, checks) {
  const params = new URLSearchParams(String(hash).replace(/^#/, ''));
  const state = { ...DEFAULT_STATE };
  const messages = [];
  for (const key of FIELDS) {
    if (!params.has(key)) continue;
    const raw = params.get(key);
    const checked = checks[key](raw);
    if ('error' in checked) {
      messages.push(unusedValue(key, raw, checked.error, serializeValue(key, DEFAULT_STATE[key])));
    } else {
      state[key] = checked.value;
    }
  }
  Object.assign(state, withSavedModel(state));
  for (const [key, message] of Object.entries(crossCheck(state))) {
    messages.push(
      `The link's ${key} was not used: ${message} Showing ${key}=${serializeValue(key, DEFAULT_STATE[key])}.`,
    );
    state[key] = DEFAULT_STATE[key];
  }
  return { state: Object.freeze(state), messages };
}

// The hash is a function of the state alone: the same state always gives the same link.
export function serializeHash(state) {
  const params = new URLSearchParams();
  for (const key of FIELDS) {
    if (DISPLAY_FIELDS.includes(key) && state[key] === DEFAULT_STATE[key]) continue;
    params.set(key, serializeValue(key, state[key]));
  }
  return `#${params.toString().replace(/\+/g, '%20')}`;
}

export function sameState(a, b) {
  return serializeHash(a) === serializeHash(b);
}

// The fields the core computes the map from, and the state with only those.
export const MAP_FIELDS = Object.freeze(FIELDS.filter((key) => !DISPLAY_FIELDS.includes(key)));

export function mapFields(state) {
  return Object.fromEntries(MAP_FIELDS.map((key) => [key, state[key]]));
}

// Do two states give the same map (they may differ in how it is drawn)?
export function sameMap(a, b) {
  return MAP_FIELDS.every((key) => serializeValue(key, a[key]) === serializeValue(key, b[key]));
}

function shorten(text, length = 40) {
  return text.length > length ? `${text.slice(0, length)}…` : text;
}
