// The map's state: its defaults (the tutorial's figure), how each field is checked, and how
// it travels in the URL hash (#text=…&tokens=chars&d=24&seed=1&causal=1&scale=sqrt&vectors=position&pos=0).
//
// Every check returns either { value } or { error } with a sentence a person can act on;
// nothing here throws, so a bad link or a bad keystroke can never blank the page.

export const DEFAULT_STATE = Object.freeze({
  text: 'To be, or not',
  tokens: 'chars',
  d: 24,
  seed: 1,
  causal: true,
  scale: 'sqrt',
  vectors: 'position',
  pos: false,
});

export const LIMITS = Object.freeze({
  maxTextLength: 4000, // characters; the core's own limit is on tokens (1024)
  minWidth: 1,
  maxWidth: 512,
  maxSeed: Number.MAX_SAFE_INTEGER, // torch accepts up to 2^64-1 but uses the low 32 bits
  minScale: 0.001,
  maxScale: 1000,
});

function wholeNumber(raw, name, low, high) {
  const text = String(raw).trim();
  if (!/^[+]?\d+$/.test(text))
    return { error: `${name} must be a whole number from ${low} to ${high}.` };
  const value = Number(text);
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

export function checkScale(raw) {
  if (['sqrt', 'd', 'none'].includes(raw)) return { value: raw };
  const text = String(raw).trim();
  const value = /^[+]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text) ? Number(text) : NaN;
  if (!Number.isFinite(value) || value < LIMITS.minScale || value > LIMITS.maxScale) {
    return {
      error: `scale must be sqrt, d, none, or a number from ${LIMITS.minScale} to ${LIMITS.maxScale}.`,
    };
  }
  return { value };
}

export function checkText(raw) {
  const text = String(raw);
  if (text.trim() === '') return { error: 'Type some text: the map needs at least one token.' };
  if (text.length > LIMITS.maxTextLength) {
    return {
      error: `Text is limited to ${LIMITS.maxTextLength} characters (this has ${text.length}).`,
    };
  }
  return { value: text };
}

// field name -> check(raw) for raw values as they come from a control or the URL
export const CHECKS = {
  text: checkText,
  tokens: (raw) => oneOf(raw, 'tokens', ['chars', 'words']),
  d: (raw) => wholeNumber(raw, 'Head width d', LIMITS.minWidth, LIMITS.maxWidth),
  seed: (raw) => wholeNumber(raw, 'Seed', 0, LIMITS.maxSeed),
  causal: (raw) => flag(raw, 'causal'),
  scale: checkScale,
  vectors: (raw) => oneOf(raw, 'vectors', ['position', 'token']),
  pos: (raw) => flag(raw, 'pos'),
};

// Parses a location hash into a full state. Unknown keys are ignored; a bad value falls back
// to the default and adds a message naming the key, the bad value and the fallback.
export function parseHash(hash) {
  const params = new URLSearchParams(String(hash).replace(/^#/, ''));
  const state = { ...DEFAULT_STATE };
  const messages = [];
  for (const key of Object.keys(CHECKS)) {
    if (!params.has(key)) continue;
    const raw = params.get(key);
    const checked = CHECKS[key](raw);
    if ('error' in checked) {
      messages.push(
        `The link's ${key}=“${shorten(raw)}” was not used: ${checked.error} Showing ${key}=${serializeValue(DEFAULT_STATE[key])}.`,
      );
    } else {
      state[key] = checked.value;
    }
  }
  return { state, messages };
}

function serializeValue(value) {
  if (value === true) return '1';
  if (value === false) return '0';
  return String(value);
}

export function serializeHash(state) {
  const params = new URLSearchParams();
  for (const key of Object.keys(CHECKS)) params.set(key, serializeValue(state[key]));
  return `#${params.toString().replace(/\+/g, '%20')}`;
}

function shorten(text, length = 40) {
  return text.length > length ? `${text.slice(0, length)}…` : text;
}
