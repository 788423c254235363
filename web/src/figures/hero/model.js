// The first screen as data: a head's map of the reader's words, told in one or two plain
// sentences, and the model's guess for the next character. Pure: the core's result in,
// everything the figure prints out. It never draws (render.js does).
import { guessLine } from '../../lib/copying-note.js';
import { sharePhrase, visibleToken } from '../../lib/format.js';
import { rowPeaks } from '../../lib/map-statistics.js';

const quoted = (token) => `“${visibleToken(token)}”`;

// What the copying head did with the last letter, and with all the letters that repeat.
export function copyingLine(result) {
  const last = result.T - 1;
  const peak = rowPeaks(result).at(-1);
  const share = sharePhrase(result.weights[last * result.T + peak]);
  const { tokens, rowsWithEarlier, rowsIntoCopy } = result;
  if (!rowsWithEarlier)
    return 'No letter repeats yet, so there is nothing to copy. Type a phrase twice.';
  const copied = peak >= 1 && tokens[peak - 1] === tokens[last];
  const first = copied
    ? `The last letter, ${quoted(tokens[last])}, looks back at ${quoted(tokens[peak])} (${share}): the letter that came after ${quoted(tokens[last])} before.`
    : `The last letter, ${quoted(tokens[last])}, looks most at ${quoted(tokens[peak])}, letter ${peak + 1} (${share}).`;
  const letters = rowsWithEarlier === 1 ? 'letter' : 'letters';
  const look = rowsIntoCopy === 1 ? 'looks' : 'look';
  return `${first} Of the ${rowsWithEarlier} ${letters} that had appeared before, ${rowsIntoCopy} ${look} just after an earlier copy.`;
}

export const TUTORIAL_LINE =
  'This head is untrained: its numbers depend on where each letter stands, not on which letter it is. Change a letter and nothing here changes.';

// One cell, for the readout under the map (positions count from 1).
export function cellLine(model, { row, col }) {
  const weight = model.weights[row * model.T + col];
  if (col > row)
    return `Letter ${row + 1}, ${quoted(model.tokens[row])}, may not look ahead at letter ${col + 1}.`;
  return `Letter ${row + 1}, ${quoted(model.tokens[row])}, gives letter ${col + 1}, ${quoted(model.tokens[col])}, ${sharePhrase(weight)} of its attention.`;
}

// result: copyingHeadMap's (head 'copying') or attentionMap's (head 'tutorial') answer.
export function heroModel(head, result) {
  return {
    T: result.T,
    weights: result.weights,
    tokens: result.tokens,
    labels: result.tokens.map(visibleToken),
    causal: true,
    line: head === 'copying' ? copyingLine(result) : TUTORIAL_LINE,
    guesses: head === 'copying' ? guessLine(result.next) : null,
    peaks: rowPeaks(result),
  };
}
