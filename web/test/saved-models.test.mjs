// The saved models through the page's wasm build in Node, as the page calls them
// (cpp/wasm/trained_bindings.cpp, web/src/core.js). The trained head: core.attentionMap({
// vectors: 'trained' }) gives the result every map figure reads, whatever the random recipe's
// fields say (its weights are checked against a float64 computation from its JSON in
// tests/trained/test_trained_head.cpp and browser.test.mjs). The copying head: both layers'
// maps and the next-character chances against a float64 forward pass written from the model's
// definition (reference/copying-head-float64.mjs), the rows it counts against the rule
// recounted here, and its refusals under the field at fault.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadCores } from './cores.mjs';
import { copyingHeadFloat64 } from './reference/copying-head-float64.mjs';

const { core } = await loadCores();
const read = (name) =>
  JSON.parse(readFileSync(new URL(`../assets/${name}`, import.meta.url), 'utf8'));
const trainedSaved = read('trained-head.json');
const copyingSaved = read('copying-head.json');

test('the trained head returns every field a random head does, plus where each row peaks', () => {
  for (const detail of ['all', 'weights']) {
    const random = core.attentionMap({ text: 'To be', detail });
    const trained = core.attentionMap({ text: 'To be', vectors: 'trained', detail });
    assert.deepEqual(
      Object.keys(trained).sort(),
      [...Object.keys(random), 'peakTargets'].sort(),
      detail,
    );
    assert.equal(trained.T, 5);
    assert.equal(trained.d, trainedSaved.d);
    assert.equal(trained.q.length, 5 * trainedSaved.d);
    assert.ok(Math.abs(trained.scaleFactor - 1 / Math.sqrt(trainedSaved.d)) < 1e-12);
    assert.equal(trained.peakTargets[0], 'only key');
    assert.equal(trained.peakTargets.length, 5);
  }
});

test('the trained head ignores the random recipe’s fields: mask, scale, width, seed', () => {
  const plain = core.attentionMap({ text: 'Thou art', vectors: 'trained' });
  const other = core.attentionMap({
    text: 'Thou art',
    vectors: 'trained',
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

test('a text the trained head cannot read is refused with the reason, counting from 1', () => {
  const refusals = [
    ['naïve', /character "ï" at position 3 is not one of the 65/],
    ['x'.repeat(trainedSaved.context + 1), new RegExp(`at most ${trainedSaved.context}`)],
    ['', /text is empty/],
  ];
  for (const [text, message] of refusals) {
    assert.throws(() => core.attentionMap({ text, vectors: 'trained' }), message);
  }
});

// ---- The copying head -----------------------------------------------------------------------

const maxDifference = (a, b) => Math.max(...a.map((x, i) => Math.abs(x - b[i])));

test('both layers of the copying head and its next-character chances equal a float64 forward pass', () => {
  const text = 'to be or not; to be or no';
  const reference = copyingHeadFloat64(copyingSaved, text);
  for (const layer of [1, 2]) {
    const map = core.copyingHeadMap({ text, layer, guesses: 3 });
    const difference = maxDifference(Array.from(map.weights), reference.weights[layer - 1].flat());
    assert.ok(difference < 2e-5, `layer ${layer}: largest weight difference ${difference}`);
    const order = reference.next
      .map((probability, id) => ({ character: copyingSaved.vocabulary[id], probability }))
      .sort((a, b) => b.probability - a.probability)
      .slice(0, 3);
    assert.deepEqual(
      map.next.map(({ character }) => character),
      order.map(({ character }) => character),
    );
    const chances = maxDifference(
      map.next.map(({ probability }) => probability),
      order.map(({ probability }) => probability),
    );
    assert.ok(chances < 2e-5, `layer ${layer}: largest chance difference ${chances}`);
  }
});

test('copyingHeadMap counts the rows that point into an earlier copy by the rule recounted here', () => {
  const text = 'abcab abc';
  for (const layer of [1, 2]) {
    const map = core.copyingHeadMap({ text, layer });
    assert.equal(map.layer, layer);
    assert.equal(map.T, 9);
    assert.equal(map.d, copyingSaved.config.d);
    assert.deepEqual(map.tokens, [...text]);
    let withEarlier = 0;
    let intoCopy = 0;
    for (let i = 1; i < map.T; i++) {
      const row = Array.from(map.weights.subarray(i * map.T, i * map.T + i + 1));
      if (!text.slice(0, i).includes(text[i])) continue;
      withEarlier += 1;
      const peak = row.indexOf(Math.max(...row));
      if (peak >= 1 && text[peak - 1] === text[i]) intoCopy += 1;
    }
    assert.equal(map.rowsWithEarlier, withEarlier, `layer ${layer}`);
    assert.equal(map.rowsIntoCopy, intoCopy, `layer ${layer}`);
  }
  // 'a','b' at 4, 5; ' ' is new; 'a','b','c' at 7, 8, 9: five rows whose character came before
  assert.equal(core.copyingHeadMap({ text, layer: 2 }).rowsWithEarlier, 5);
});

test('the copying head on the map: attentionMap with vectors copying-1 and copying-2', () => {
  const text = 'say it, say it';
  for (const layer of [1, 2]) {
    const map = core.attentionMap({ text, vectors: `copying-${layer}`, d: 7, causal: false });
    assert.deepEqual(map.weights, core.copyingHeadMap({ text, layer }).weights);
    assert.equal(map.d, copyingSaved.config.d);
  }
});

test('copyingHeadMap refuses bad text under the field text, a bad layer or guess count under theirs', () => {
  const refusal = (request) => {
    try {
      core.copyingHeadMap(request);
    } catch (error) {
      return { message: error.message, field: error.field };
    }
    return null;
  };
  const context = copyingSaved.config.context;
  assert.equal(refusal({ text: '' })?.field, 'text');
  assert.match(refusal({ text: 'café' }).message, /character "é" at position 4/);
  assert.equal(refusal({ text: 'café' }).field, 'text');
  assert.match(
    refusal({ text: 'a'.repeat(context + 1) }).message,
    new RegExp(`at most ${context}`),
  );
  assert.equal(refusal({ text: 'ab', layer: 3 })?.field, 'layer');
  assert.equal(refusal({ text: 'ab', layer: 0 })?.field, 'layer');
  assert.equal(refusal({ text: 'ab', guesses: 99 })?.field, 'guesses');
});
