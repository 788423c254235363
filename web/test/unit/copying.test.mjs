// The copying head's pure parts: the growth chart's model (web/src/figures/copying/model.js)
// against the recorded curve read here from the JSON, the live note (lib/copying-note.js) on
// hand-made counts, and the map's link form for the two layers (state.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { aboutDuration, growthModel } from '../../src/figures/copying/model.js';
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
  // the step where snippets of Shakespeare joined the random strings, marked and said
  assert.equal(model.mixAt, saved.training.laterStep);
  assert.match(model.ariaLabel, new RegExp(`steps down at ${saved.training.laterStep}\\b`));
  const oneMix = growthModel({ ...COPYING_HEAD, training: { ...saved.training, laterStep: -1 } });
  assert.equal(oneMix.mixAt, null);
  assert.doesNotMatch(oneMix.ariaLabel, /steps down/);
  const { repeatedWindows, laterRandomWindows } = saved.training;
  assert.ok(
    model.timing.includes(
      `${repeatedWindows - laterRandomWindows} of every ${repeatedWindows} repeated`,
    ),
    model.timing,
  );
  assert.doesNotMatch(oneMix.timing, /repeated strings are Shakespeare/);
  const seconds = (saved.training.msPerStep * saved.training.steps) / 1000;
  assert.match(model.timing, /^Recorded from the native run \(npm run grow\)/);
  assert.ok(model.timing.includes(`took ${aboutDuration(seconds)} of one core.`), model.timing);
  // A browser's time is only ever said where it was measured: nothing estimated here.
  assert.doesNotMatch(model.timing, /browser/);
  assert.doesNotMatch(model.timing, /about 0 /);
  assert.equal(model.table.length, step.length);
});

test('a duration reads in seconds up to a minute and a half, then in minutes', () => {
  assert.equal(aboutDuration(14.4), 'about 14 s');
  assert.equal(aboutDuration(89.4), 'about 89 s');
  assert.equal(aboutDuration(90), 'about 2 minutes');
  assert.equal(aboutDuration(112), 'about 2 minutes');
  assert.equal(aboutDuration(200), 'about 3 minutes');
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
