// How the unit tests count a live note's words and sentences, as a reader would: a word is
// a run of characters with a letter or digit in it ("0.45", "1/√d" and "F.scaled" count once;
// "=" and "≈" do not), and a sentence ends at ".", "!" or "?" followed by a space or the end
// (so 0.45 and 1/√d never end one).
export function words(text) {
  return text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
}

export function sentences(text) {
  return text
    .trim()
    .split(/[.!?]+(?:\s+|$)/)
    .filter((part) => part.trim() !== '').length;
}

// The budget every live note keeps.
export const NOTE_WORDS = 45;
export const NOTE_SENTENCES = 2;
