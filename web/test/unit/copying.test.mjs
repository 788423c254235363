// The copying head's pure parts: the growth chart's model (web/src/figures/copying/model.js)
// against the recorded curve read here from the JSON, the live note (lib/copying-note.js) on
// hand-made counts, and the map's link form for the two layers (state.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { growthModel } from '../../src/figures/copying/model.js';
import { copyingNoteText, guessLine } from '../../src/lib/copying-note.js';
import { COPYING_HEAD, copyingLayer } from '../../src/trained/copying-head.js';
import {
  createChecks,
  DEFAULT_STATE,
  parseHash,
  serializeHash,
  widthRests,
} from '../../src/state.js';
import { noteOverBudget } from '../../../scripts/prose.mjs';

const saved = JSON.parse(
  readFileSync(new URL('../../assets/copying-head.json', import.meta.url), 'utf8'),
);
const checks = createChecks({ maxMapWidth: 1024 });

test('the growth chart draws the recorded loss and layer 2 score, and marks the first 0.3', () => {
  const model = growthModel(COPYING_HEAD);
  const { step, trainLoss, induction } = saved.curve;
  // the recording's first point has no training loss yet (null): it is left out, not drawn as 0
  assert.equal(model.loss.length, trainLoss.filter((y) => y !== null).length);
  assert.deepEqual(model.induction.at(-1), { x: step.at(-1), y: induction[1].at(-1) });
  const first = step[induction[1].findIndex((score) => score >= 0.3)];
  assert.equal(model.formedAt, first);
  assert.equal(model.formedLabel, `head forms: step ${first}`);
  assert.match(model.ariaLabel, new RegExp(`at step ${first}\\.`));
  const seconds = Math.round((saved.training.msPerStep * saved.training.steps) / 1000);
  assert.match(model.timing, /^Recorded from the native run \(npm run grow\)/);
  assert.ok(model.timing.includes(`about ${seconds} s`), model.timing);
  // 56 s natively, twice that in a browser: about 2 minutes
  assert.ok(model.timing.includes(`about ${Math.round((2 * seconds) / 60)} minutes`), model.timing);
  assert.equal(model.table.length, step.length);
});

test('the live note quotes the counts it is given, within the note budget', () => {
  const note = copyingNoteText({ layer: 2, rowsWithEarlier: 30, rowsIntoCopy: 16 });
  assert.ok(note.includes('Of the 30 rows whose character came earlier, 16 (53%)'), note);
  const none = copyingNoteText({ layer: 1, rowsWithEarlier: 0, rowsIntoCopy: 0 });
  assert.match(none, /^Layer 1/);
  assert.doesNotMatch(none, /NaN/);
  for (const text of [note, none]) assert.deepEqual(noteOverBudget(text), [], text);
});

test('vectors=copying-1 and copying-2 fix the model’s fields and round-trip; old links do not move', () => {
  for (const [vectors, layer] of [
    ['copying-1', 1],
    ['copying-2', 2],
  ]) {
    const { state, messages } = parseHash(`#vectors=${vectors}&d=7&causal=0&tokens=words`, checks);
    assert.deepEqual(messages, []);
    assert.equal(copyingLayer(state.vectors), layer);
    assert.deepEqual([state.tokens, state.d, state.causal], ['chars', saved.config.d, true]);
    assert.equal(state.scale.mode, saved.config.scale);
    assert.equal(widthRests({ ...state, init: 'standard' }), true);
    const hash = serializeHash(state);
    assert.equal(serializeHash(parseHash(hash, checks).state), hash);
  }
  assert.equal(copyingLayer('trained'), null);
  for (const old of ['#vectors=learned', '#vectors=token', '#pos=1', '#text=abc']) {
    const { state } = parseHash(old, checks);
    assert.equal(copyingLayer(state.vectors), null, old);
  }
  assert.equal(parseHash('', checks).state.vectors, DEFAULT_STATE.vectors);
  assert.match(parseHash('#vectors=copying-3', checks).messages[0], /copying-1, copying-2/);
});

test('the guess names the three likeliest next letters, spaces made visible, none rounded to 0%', () => {
  assert.equal(
    guessLine([
      { character: 'c', probability: 0.9 },
      { character: ' ', probability: 0.06 },
      { character: 'x', probability: 0.001 },
    ]),
    'Its guess for the next letter: “c” 90%, “␣” 6%, “x” under 1%.',
  );
});
