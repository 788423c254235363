// Counting prose: words, sentences, syllables and the Flesch–Kincaid grade of a plain text.
// Pure functions, no page: scripts/prose/narrative.mjs and tour.mjs hand them text.
//
// Grade = 0.39 · words / sentences + 11.8 · syllables / words − 15.59 (Kincaid et al., 1975).
// Syllables are counted by the `syllable` package (rules and an exception list for English,
// closer to a dictionary than counting vowel groups). A number, a symbol or a formula counts as one word of one
// syllable, as a reader says "d" or "0.06" in one breath.

import { syllable } from 'syllable';

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’.,/−-]*/gu;

export function words(text) {
  return (text.match(WORD) ?? []).map((word) => word.replace(/[.,/−-]+$/u, ''));
}

export function syllables(word) {
  return /\p{L}/u.test(word) ? Math.max(1, syllable(word)) : 1; // a number: one breath
}

// Sentences end at . ! ? followed by a space or the end; a list item or a heading without a
// stop counts as one (the caller passes each block as its own text).
export function sentences(text) {
  const parts = text
    .replace(/\b(e\.g|i\.e|vs)\./g, '$1')
    .split(/(?<=[.!?…])["”’)]?\s+|(?<=[.!?])$/u)
    .filter((part) => words(part).length > 0);
  return Math.max(1, parts.length);
}

// A block of blocks (paragraphs, list items): their words, sentences, syllables and grade.
export function measure(blocks) {
  const list = [].concat(blocks).filter((block) => words(block).length > 0);
  const all = list.flatMap(words);
  const sentenceCount = list.reduce((sum, block) => sum + sentences(block), 0);
  const syllableCount = all.reduce((sum, word) => sum + syllables(word), 0);
  const wordCount = all.length;
  const grade = wordCount
    ? 0.39 * (wordCount / sentenceCount) + 11.8 * (syllableCount / wordCount) - 15.59
    : 0;
  return { words: wordCount, sentences: sentenceCount, syllables: syllableCount, grade };
}
