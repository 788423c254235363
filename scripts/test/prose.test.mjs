// The prose counter against counts made by hand.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { measure, sentences, syllables, words } from '../prose/measure.mjs';

test('words are counted as a reader sees them, numbers and symbols included', () => {
  assert.deepEqual(words('The cat sat, d = 0.06.'), ['The', 'cat', 'sat', 'd', '0.06']);
  assert.deepEqual(words('softmax(QKᵀ/√d) · V'), ['softmax', 'QKᵀ', 'd', 'V']);
});

test('syllables are counted as a dictionary splits them', () => {
  const cases = [
    ['cat', 1],
    ['table', 2],
    ['attention', 3],
    ['average', 3],
    ['make', 1],
    ['probability', 5],
    ['24', 1],
    ['softmax', 2],
  ];
  for (const [word, count] of cases) assert.equal(syllables(word), count, word);
});

test('sentences end at a stop followed by a space', () => {
  assert.equal(sentences('One. Two? Three!'), 3);
  assert.equal(sentences('a list item without a stop'), 1);
  assert.equal(sentences('It is 0.06 wide. Done.'), 2);
});

test('the grade is Flesch–Kincaid over hand counts', () => {
  // "The cat sat. The dog ran." 6 words, 2 sentences, 6 syllables:
  // 0.39 · 3 + 11.8 · 1 − 15.59 = −2.62
  const counted = measure(['The cat sat. The dog ran.']);
  assert.equal(counted.words, 6);
  assert.equal(counted.sentences, 2);
  assert.ok(Math.abs(counted.grade - -2.62) < 1e-9);
});

test('the narrative leaves out figures, folded blocks and buttons', async () => {
  const { narrativeSections } = await import('../prose/narrative.mjs');
  const html = `<header><h1>Title here</h1><p>Hook &amp; line.</p><figure>map words</figure></header>
    <section id="a"><div class="prose"><h2>1. First</h2><p>One <span>two</span>.</p>
    <details><summary>More</summary><p>hidden words</p></details>
    <ul><li>item</li></ul><button>Show me</button></div>
    <figure><figcaption>caption</figcaption></figure></section>`;
  const sections = narrativeSections(html);
  assert.deepEqual(sections[0].blocks, ['Title here', 'Hook & line.']);
  assert.equal(sections[1].title, '1. First');
  assert.deepEqual(sections[1].blocks, ['1. First', 'One two .', 'item']);
});
