// lib/lay-out-sections.js with a stand-in document and frames the test releases one by one:
// the sections after the map become laid out in order, one per frame, and none before its frame.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layOutSections } from '../../src/lib/lay-out-sections.js';

function fakeSection(name) {
  const classes = new Set();
  return {
    name,
    classList: { add: (c) => classes.add(c) },
    laidOut: () => classes.has('laid-out'),
  };
}

test('each section after the map is laid out in its own frame, in order', async () => {
  const sections = ['scale', 'training', 'proof'].map(fakeSection);
  let selector;
  const documentRef = {
    querySelectorAll: (query) => {
      selector = query;
      return sections;
    },
  };
  const frames = [];
  const wait = () => new Promise((resolve) => frames.push(resolve));
  const done = layOutSections(documentRef, wait);
  assert.equal(selector, '#map ~ .step', 'the sections style.css leaves to the engine');
  const laidOut = () => sections.filter((s) => s.laidOut()).map((s) => s.name);
  for (const [i, expected] of [
    ['scale'],
    ['scale', 'training'],
    ['scale', 'training', 'proof'],
  ].entries()) {
    assert.deepEqual(laidOut(), expected.slice(0, -1), `before frame ${i + 1}`);
    assert.equal(frames.length, i + 1, 'one frame asked for at a time');
    frames[i]();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(laidOut(), expected, `after frame ${i + 1}`);
  }
  await done;
});
