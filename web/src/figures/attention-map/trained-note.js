// What the trained head looks at, in words: for the reader's own text from the core's
// peakTargets (where each row's largest weight lands, cpp/trained/trained_head.hpp), and over held-out
// Shakespeare from the census attention-train saved with the head. Pure: runs in Node.
import { fixed } from '../../lib/format.js';
import { meanPreviousWeight, PEAK_TARGETS, peakTally } from '../../lib/map-statistics.js';

// The core's names for where a row peaks (lib/map-statistics.js), as a sentence says them.
export const PLACES = Object.freeze({
  previous: 'the previous character',
  'two back': 'the character two back',
  itself: 'its own character',
  space: 'a space or newline further back',
  'word start': 'the first letter of its word',
  elsewhere: 'another character',
});

// "2 on the character two back, 1 on its own character, 3 elsewhere": the two places other
// than the previous one where most rows peak, and how many rows peak anywhere else.
function others(counts) {
  const ranked = Object.entries(counts)
    .filter(([place, count]) => place !== 'previous' && count > 0)
    .sort((a, b) => b[1] - a[1]);
  const named = ranked.filter(([place]) => place !== 'elsewhere').slice(0, 2);
  const total = (entries) => entries.reduce((sum, [, count]) => sum + count, 0);
  const rest = total(ranked) - total(named);
  const parts = named.map(([place, count]) => `${count} on ${PLACES[place]}`);
  if (rest) parts.push(`${rest} elsewhere`);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

export function liveSentence(result) {
  const { counts, rows } = peakTally(result.peakTargets);
  if (rows === 0) {
    return 'Your text has one character, and row 0 can only look at itself: type more to see where the head looks.';
  }
  const rowsWithChoice =
    rows === 1 ? 'the 1 row with a choice peaks' : `the ${rows} rows with a choice peak`;
  return (
    `In your text, ${counts.previous} of ${rowsWithChoice} on the previous character${others(counts)}. ` +
    `On average a row gives the previous character ${fixed(meanPreviousWeight(result), 2)} of its weight.`
  );
}

const percent = (count, rows) => `${fixed((100 * count) / rows, 1)}%`;

// census: { windows, rows, counts, meanPreviousWeight } as attention-train saved it. For the
// curious, in a folded block under the note.
export function corpusSentence(census, context) {
  const { counts, rows } = census;
  const ranked = PEAK_TARGETS.filter((place) => place !== 'elsewhere')
    .sort((a, b) => counts[b] - counts[a])
    .map(
      (place, rank) =>
        `${PLACES[place]} in ${percent(counts[place], rows)}${rank ? '' : ' of rows'}`,
    );
  return (
    `Over ${rows.toLocaleString('en-US')} rows of Shakespeare it never trained on ` +
    `(${census.windows} windows of ${context} characters), its largest weight falls on ` +
    `${ranked.join(', on ')}; on average ${fixed(census.meanPreviousWeight, 2)} of a row's weight ` +
    'goes to the previous character. Training taught this head, mostly, to look one character back.'
  );
}

// The note beside the map while it shows the trained head (head: TRAINED_HEAD): the reader's
// own text in the note, the measurement over held-out Shakespeare folded under it.
export function trainedNote(result, head) {
  return {
    text: liveSentence(result),
    more: { summary: 'And over Shakespeare?', text: corpusSentence(head.census, head.context) },
  };
}

// "a–z, A–Z, space, newline and 11 other marks": the characters the head knows, for the text
// box, in words (the marks themselves are listed when a typed character is refused).
export function alphabet(vocabulary) {
  const known = new Set(vocabulary);
  const range = (first, last) => {
    const all = [];
    for (let c = first.charCodeAt(0); c <= last.charCodeAt(0); c++)
      all.push(String.fromCharCode(c));
    return all.every((character) => known.has(character)) ? all : [];
  };
  const lower = range('a', 'z');
  const upper = range('A', 'Z');
  const named = { ' ': 'space', '\n': 'newline' };
  const covered = new Set([...lower, ...upper, ...Object.keys(named)]);
  const parts = [
    ...(lower.length ? ['a–z'] : []),
    ...(upper.length ? ['A–Z'] : []),
    ...Object.entries(named)
      .filter(([character]) => known.has(character))
      .map(([, name]) => name),
  ];
  const rest = vocabulary.filter((character) => !covered.has(character));
  const marks = rest.length === 1 ? '1 other mark' : `${rest.length} other marks`;
  const all = rest.length ? [...parts, parts.length ? marks : rest.join('')] : parts;
  return all.length > 1 ? `${all.slice(0, -1).join(', ')} and ${all.at(-1)}` : (all[0] ?? '');
}
