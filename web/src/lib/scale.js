// The scale of the scores, in one place: the names of its modes (as the core and links spell
// them), how the page prints each, and its link form. Everywhere in JavaScript a scale is
// { mode, factor } (factor read only for the custom mode), as Scale is in the C++ core; the
// factor the core applied for a result's width is result.scaleFactor.
import { compact } from './format.js';

export const INVERSE_SQRT_D = 'sqrt'; // 1/√d, the standard
export const INVERSE_D = 'd';
export const UNSCALED = 'none';
export const CUSTOM = 'custom'; // the reader's own factor

// The modes a link names by word; any other scale travels as its factor.
export const NAMED_MODES = Object.freeze([INVERSE_SQRT_D, INVERSE_D, UNSCALED]);

export const namedScale = (mode) => Object.freeze({ mode, factor: 1 });
export const customScale = (factor) => Object.freeze({ mode: CUSTOM, factor });
export const STANDARD_SCALE = namedScale(INVERSE_SQRT_D);

const LABELS = Object.freeze({
  [INVERSE_SQRT_D]: '1/√d',
  [INVERSE_D]: '1/d',
  [UNSCALED]: 'no scaling',
});

// The map's menu, in order: each mode as its option reads.
export const SCALE_CHOICES = Object.freeze([
  Object.freeze({ mode: INVERSE_SQRT_D, text: `${LABELS[INVERSE_SQRT_D]} (standard)` }),
  Object.freeze({ mode: INVERSE_D, text: LABELS[INVERSE_D] }),
  Object.freeze({ mode: UNSCALED, text: 'nothing' }),
  Object.freeze({ mode: CUSTOM, text: 'my factor' }),
]);

// "1/√d", "1/√d = 0.20" (factor: what the core applied), "× 3.16", "no scaling".
export function scaleLabel(scale, factor) {
  if (scale.mode === CUSTOM) return `× ${compact(scale.factor)}`;
  if (scale.mode === UNSCALED || factor === undefined) return LABELS[scale.mode];
  return `${LABELS[scale.mode]} = ${compact(factor)}`;
}

const FACTOR = /^[+]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

// A scale as a control gives it ({ mode, factor }) or as a link writes it (sqrt | d | none | a
// positive number, the custom factor; every form links have ever used): { value } or { error }.
// The range of a custom factor is the core's to check (its message then shows by the control).
export function parseScale(raw) {
  const isObject = typeof raw === 'object' && raw !== null;
  const named = isObject ? raw.mode : raw;
  if (NAMED_MODES.includes(named)) return { value: namedScale(named) };
  const text = String(isObject ? raw.factor : raw).trim();
  const value = FACTOR.test(text) ? Number(text) : Number.NaN;
  if (!Number.isFinite(value) || value <= 0) {
    return { error: 'scale must be sqrt, d, none, or a positive number (the factor).' };
  }
  return { value: customScale(value) };
}

// The link form: the mode's word, or the custom factor.
export function formatScale(scale) {
  return scale.mode === CUSTOM ? String(scale.factor) : scale.mode;
}
