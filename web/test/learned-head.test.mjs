// The trained head through the wasm build in Node, as the page calls it:
// core.attentionMap({ vectors: 'learned' }) gives the result every map figure reads, whatever
// the random recipe's fields say, and a bad text the core's own message. (Its weights are
// checked against a float64 computation from the JSON in tests/trained/test_learned_head.cpp and in
// browser.test.mjs.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadCores } from './cores.mjs';

const { core } = await loadCores();
const saved = JSON.parse(
  readFileSync(new URL('../assets/learned-head.json', import.meta.url), 'utf8'),
);

test('the trained head returns every field a random head does, plus where each row peaks', () => {
  for (const detail of ['all', 'weights']) {
    const random = core.attentionMap({ text: 'To be', detail });
    const learned = core.attentionMap({ text: 'To be', vectors: 'learned', detail });
    assert.deepEqual(
      Object.keys(learned).sort(),
      [...Object.keys(random), 'peakTargets'].sort(),
      detail,
    );
    assert.equal(learned.T, 5);
    assert.equal(learned.d, saved.d);
    assert.equal(learned.q.length, 5 * saved.d);
    assert.ok(Math.abs(learned.scaleFactor - 1 / Math.sqrt(saved.d)) < 1e-12);
    assert.equal(learned.peakTargets[0], 'only key');
    assert.equal(learned.peakTargets.length, 5);
  }
});

test('the trained head ignores the random recipe’s fields: mask, scale, width, seed', () => {
  const plain = core.attentionMap({ text: 'Thou art', vectors: 'learned' });
  const other = core.attentionMap({
    text: 'Thou art',
    vectors: 'learned',
    d: 7,
    seed: 9,
    causal: false,
    scale: { mode: 'none' },
    init: 'standard',
    pos: 'rope',
  });
  assert.deepEqual(other.weights, plain.weights);
  for (let i = 0; i < plain.T; i++) {
    for (let j = i + 1; j < plain.T; j++) assert.equal(plain.weights[i * plain.T + j], 0);
  }
});

test('a text the head cannot read is refused with the reason', () => {
  const refusals = [
    ['naïve', /character "ï" at position 2 is not one of the 65/],
    ['x'.repeat(saved.context + 1), new RegExp(`at most ${saved.context}`)],
    ['', /text is empty/],
  ];
  for (const [text, message] of refusals) {
    assert.throws(() => core.attentionMap({ text, vectors: 'learned' }), message);
  }
});
