// The copying head's live sentences, shared by the figures that show it (the first screen,
// section 4's map, the "Say it twice" experiment, section 9): the share of rows that point into
// an earlier copy, as the core counted it on the drawn weights (rowsIntoCopy of
// rowsWithEarlier: cpp/trained/copying_head.hpp), and the model's guess for the next letter.
// Pure; never recounts.
import { sharePhrase, visibleToken } from './format.js';

const LAYER_WORDS = Object.freeze({
  1: 'Layer 1 mostly looks one character back',
  2: 'Layer 2 looks for what came next last time',
});

// The share as a whole percent.
export const sharePercent = (into, rows) => `${Math.round((100 * into) / rows)}%`;

// result: copyingHeadMap's answer. Two sentences, under 45 words.
export function copyingNoteText(result) {
  const { layer, rowsWithEarlier } = result;
  if (!rowsWithEarlier) {
    return `${LAYER_WORDS[layer]}. No character here has come before, so no row can point into an earlier copy: type something twice.`;
  }
  return `${LAYER_WORDS[layer]}. ${copyRows(result)}`;
}

// "Of the 12 rows whose character came earlier, 9 (75%) put …": what any copying map's rows do,
// without saying what its layer is for (a head still growing may not do it yet).
export function copyRows({ rowsWithEarlier, rowsIntoCopy }) {
  if (!rowsWithEarlier) return 'No character here has come before: type something twice.';
  return (
    `Of the ${rowsWithEarlier} rows whose character came earlier, ` +
    `${rowsIntoCopy} (${sharePercent(rowsIntoCopy, rowsWithEarlier)}) put their largest weight just after an earlier copy of it.`
  );
}

// "Its guess for the next letter: “i” 97%, “o” 1%, “e” 1%.": next is copyingHeadMap's
// [{ character, probability }], likeliest first.
export function guessLine(next) {
  const named = next.map(
    ({ character, probability }) => `“${visibleToken(character)}” ${sharePhrase(probability)}`,
  );
  return `Its guess for the next letter: ${named.join(', ')}.`;
}
