// What the trained head looks at, in words: for the reader's own text from the core's
// peakTargets (where each row's largest weight lands, cpp/trained/learned_head.hpp), and over held-out
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

// "2 on the character two back, 1 on a space …": the places other than the previous one.
function others(counts) {
  const parts = Object.entries(counts)
    .filter(([place, count]) => place !== 'previous' && count > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([place, count]) => `${count} on ${PLACES[place]}`);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

export function liveSentence(result) {
  const { counts, rows } = peakTally(result.peakTargets);
  if (rows === 0) {
    return 'Your text has one character, and row 0 can only look at itself: type more to see where the head looks.';
  }
  const verb = rows === 1 ? 'row puts its' : 'rows put their';
  return (
    `In your text, ${counts.previous} of ${rows} ${verb} largest weight on the previous character` +
    `${others(counts)}; on average a row gives ${fixed(meanPreviousWeight(result), 2)} of its weight ` +
    'to the previous character (row 0, with only itself to see, is left out).'
  );
}

const percent = (count, rows) => `${fixed((100 * count) / rows, 1)}%`;

// census: { windows, rows, counts, meanPreviousWeight } as attention-train saved it.
export function corpusSentence(census, context) {
  const { counts, rows } = census;
  const ranked = PEAK_TARGETS.filter((place) => place !== 'elsewhere')
    .sort((a, b) => counts[b] - counts[a])
    .map(
      (place, rank) =>
        `${PLACES[place]} in ${percent(counts[place], rows)}${rank ? '' : ' of rows'}`,
    );
  return (
    `Measured after its training, over ${rows.toLocaleString('en-US')} rows of Shakespeare it never ` +
    `trained on (${census.windows} windows of ${context} characters), the largest weight falls on ` +
    `${ranked.join(', on ')}; on average ${fixed(census.meanPreviousWeight, 3)} of a row's weight ` +
    'goes to the previous character. What training taught this head, mostly, is to look one ' +
    'character back.'
  );
}

// The note beside the map while it shows the trained head. head: LEARNED_HEAD.
export function learnedNote(result, head) {
  return { text: `${liveSentence(result)} ${corpusSentence(head.census, head.context)}` };
}

// "a–z, A–Z, 3, space, newline and !$&',-.:;?": the characters the head knows, for the text box.
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
  const rest = vocabulary.filter((character) => !covered.has(character)).join('');
  const all = rest ? [...parts, rest] : parts;
  return all.length > 1 ? `${all.slice(0, -1).join(', ')} and ${all.at(-1)}` : (all[0] ?? '');
}
