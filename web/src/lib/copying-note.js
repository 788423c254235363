// The copying head's live note, shared by the map and the "Say it twice" experiment: the share
// of rows that point into an earlier copy, as the core counted it on the drawn weights
// (rowsIntoCopy of rowsWithEarlier: cpp/wasm/learning_bindings.cpp). Pure; never recounts.

const LAYER_WORDS = Object.freeze({
  1: 'Layer 1 mostly looks one character back',
  2: 'Layer 2 looks for what came next last time',
});

// The share as a whole percent.
export const sharePercent = (into, rows) => `${Math.round((100 * into) / rows)}%`;

// result: copyingHeadMap's answer. Two sentences, under 45 words.
export function copyingNoteText(result) {
  const { layer, rowsWithEarlier, rowsIntoCopy } = result;
  if (!rowsWithEarlier) {
    return `${LAYER_WORDS[layer]}. No character here has come before, so no row can point into an earlier copy: type something twice.`;
  }
  return (
    `${LAYER_WORDS[layer]}. Of the ${rowsWithEarlier} rows whose character came earlier, ` +
    `${rowsIntoCopy} (${sharePercent(rowsIntoCopy, rowsWithEarlier)}) put their largest weight just after an earlier copy of it.`
  );
}
