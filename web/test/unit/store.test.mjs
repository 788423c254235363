// store.js with a fake core and a fake animation frame: one computation per frame, frozen
// snapshots, the last good figure kept on every refusal, messages beside the right control.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createStore } from '../../src/store.js';
import { fakeCore, fakeFrames, refusal } from './fakes.mjs';

function started(hash = '', options = {}) {
  const core = fakeCore(options);
  const frames = fakeFrames();
  const store = createStore(core, { hash, requestFrame: frames.request });
  const seen = [];
  store.subscribe((snapshot) => seen.push(snapshot));
  store.start();
  return { core, frames, store, seen, last: () => seen.at(-1) };
}

test('the first map is computed at once, from the link, in a frozen snapshot', () => {
  const { core, last } = started('#text=abc&d=8');
  assert.equal(core.calls.length, 1);
  assert.equal(last().result.T, 3);
  assert.equal(last().state.d, 8);
  assert.ok(Object.isFrozen(last()));
  assert.ok(Object.isFrozen(last().state));
  assert.ok(Object.isFrozen(last().result));
  assert.throws(() => {
    last().state.d = 9;
  }, TypeError);
});

test('a burst of dispatches in one frame makes one computation, of the last values', () => {
  const { core, frames, store, last } = started();
  for (let d = 2; d <= 40; d++) store.dispatch({ type: 'set', fields: { d: String(d) } });
  store.dispatch({ type: 'set', fields: { causal: false } });
  assert.equal(frames.pending(), 1);
  frames.flush();
  assert.equal(core.calls.length, 2);
  assert.equal(last().state.d, 40);
  assert.equal(last().state.causal, false);
});

test('a bad field gets its message and changes nothing else', () => {
  const { core, frames, store, last } = started();
  const before = last().result;
  store.dispatch({ type: 'set', fields: { d: 'abc', seed: '7' } });
  frames.flush();
  assert.match(last().errors.d, /whole number from 1 to 1024/);
  assert.equal(last().state.seed, 7);
  assert.equal(last().state.d, 24);
  assert.notEqual(last().result, before);
  store.dispatch({ type: 'set', fields: { d: '8' } });
  frames.flush();
  assert.equal(last().errors.d, undefined);
  assert.equal(core.calls.length, 3);
});

test('a refusal by the core keeps the last good figure and shows its message by the text', () => {
  const { frames, store, last } = started();
  const good = last().result;
  store.dispatch({ type: 'set', fields: { text: 'z'.repeat(60) } });
  frames.flush();
  assert.equal(last().result, good);
  assert.match(last().errors.text, /at most 50/);
  assert.equal(last().requested.text.length, 60); // the text box keeps what was typed
  store.dispatch({ type: 'set', fields: { text: 'ok' } });
  frames.flush();
  assert.equal(last().result.T, 2);
  assert.deepEqual({ ...last().errors }, {});
});

test('RoPE with an odd width: a message by the positions control, no computation', () => {
  const { core, frames, store, last } = started('#d=8&pos=rope');
  const good = last().result;
  store.dispatch({ type: 'set', fields: { d: '7' } });
  frames.flush();
  assert.equal(core.calls.length, 1);
  assert.equal(last().result, good);
  assert.match(last().errors.pos, /even head width; d = 7 is odd/);
  assert.equal(last().requested.d, 7); // the width control keeps the 7
  store.dispatch({ type: 'set', fields: { pos: 'none' } });
  frames.flush();
  assert.equal(last().state.d, 7);
  assert.equal(last().errors.pos, undefined);
});

test('moving d changes d only: the recipe stays, and a chosen recipe stays too', () => {
  const { frames, store, last } = started('#init=standard');
  store.dispatch({ type: 'set', fields: { d: '256' } });
  frames.flush();
  assert.deepEqual([last().state.d, last().state.init], [256, 'standard']);
  store.dispatch({ type: 'set', fields: { init: 'tutorial' } });
  frames.flush();
  assert.deepEqual([last().state.d, last().state.init], [256, 'tutorial']);
  store.dispatch({ type: 'set', fields: { scale: { mode: 'none' } } });
  frames.flush();
  assert.equal(last().state.init, 'tutorial');
});

test('stretching the colours redraws the same result: no computation, the experiment stays', () => {
  const { core, frames, store, last } = started();
  const result = last().result;
  store.dispatch({ type: 'set', fields: { causal: false }, experiment: 'unmask' });
  frames.flush();
  const unmasked = last().result;
  assert.equal(core.calls.length, 2);
  store.dispatch({ type: 'set', fields: { stretch: true } });
  frames.flush();
  assert.equal(core.calls.length, 2, 'colours alone never ask the core');
  assert.equal(last().result, unmasked);
  assert.equal(last().state.stretch, true);
  assert.equal(last().experiment, 'unmask');
  store.dispatch({ type: 'set', fields: { causal: true } });
  frames.flush();
  assert.equal(last().experiment, null);
  assert.equal(last().state.stretch, true, 'a map setting keeps the colours chosen');
  assert.notEqual(last().result, result);
});

test('an experiment sets the whole state and stays named until a control moves the map', () => {
  const { frames, store, last } = started('#d=8&causal=0&seed=5');
  const fields = { text: 'abcd', tokens: 'chars', d: 24, seed: 1, causal: true };
  store.dispatch({ type: 'set', fields, experiment: 'demo' });
  frames.flush();
  assert.equal(last().experiment, 'demo');
  assert.equal(last().state.seed, 1);
  store.dispatch({ type: 'highlight', query: 1, key: 0 });
  frames.flush();
  assert.equal(last().experiment, 'demo');
  store.dispatch({ type: 'set', fields: { seed: '2' } });
  frames.flush();
  assert.equal(last().experiment, null);
});

test('the highlight travels in the snapshot and is dropped when the map shrinks under it', () => {
  const { frames, store, last } = started('#text=abcdef');
  store.dispatch({ type: 'highlight', query: 5, key: 2 });
  frames.flush();
  assert.deepEqual({ ...last().highlight }, { query: 5, key: 2 });
  store.dispatch({ type: 'set', fields: { text: 'ab' } });
  frames.flush();
  assert.equal(last().highlight, null);
  store.dispatch({ type: 'highlight', query: 1, key: 1 });
  store.dispatch({ type: 'highlight', query: null });
  frames.flush();
  assert.equal(last().highlight, null);
});

test('a link loads a whole new state, with notices for what it could not use', () => {
  const { frames, store, last } = started('#d=8');
  store.dispatch({ type: 'load', hash: '#text=hi&seed=x' });
  frames.flush();
  assert.equal(last().state.text, 'hi');
  assert.equal(last().state.d, 24);
  assert.match(last().notices[0], /seed=“x”/);
  store.dispatch({ type: 'dismissNotices' });
  frames.flush();
  assert.deepEqual([...last().notices], []);
});

test('a link the core refuses from the start falls back to the tutorial figure and says why', () => {
  const { last } = started(`#text=${'z'.repeat(60)}`);
  assert.equal(last().state.text, 'To be, or not');
  assert.match(last().notices.at(-1), /could not be computed: .*at most 50/);
});

test('a core refusal goes beside the control of the field it blames; the last map stays', () => {
  const cases = [
    // [fields set, the core's message, the field it blames]
    [{ scale: { mode: 'custom', factor: 1e40 } }, 'scale factor 1e+40 is past 1e30', 'scale'],
    [{ d: '6' }, 'pos = rope needs an even head width d', 'pos'],
    [{ seed: '7' }, 'seed 7 is refused', 'seed'],
    // A text message that mentions the scale still goes beside the text: no guessing.
    [{ text: 'scale' }, 'text “scale” has a character the scale cannot take', 'text'],
    [{ text: 'lost' }, 'the trained head is not loaded here', undefined], // no field: by the text
  ];
  for (const [fields, message, field] of cases) {
    // The tutorial's map is computed; every map after it is refused.
    const refuse = (state) =>
      state.text === 'To be, or not' &&
      state.d === 24 &&
      state.seed === 1 &&
      state.scale.mode === 'sqrt'
        ? null
        : refusal(message, field);
    const { frames, store, last } = started('', { refuse });
    const good = last().result;
    store.dispatch({ type: 'set', fields });
    frames.flush();
    const shown = field ?? 'text';
    assert.deepEqual({ ...last().errors }, { [shown]: message }, message);
    assert.equal(last().result, good, message);
  }
});

// A background that answers only when the test says so, computing with the same fake core.
function startedWithBackground(hash = '') {
  const core = fakeCore();
  const frames = fakeFrames();
  const asked = [];
  const background = (state) =>
    new Promise((resolve) => {
      asked.push({
        state,
        answer: () => resolve({ value: core.attentionMap(state) }),
        refuse: (error, field) => resolve({ error, field }),
      });
    });
  const store = createStore(core, { hash, requestFrame: frames.request, background });
  const seen = [];
  store.subscribe((snapshot) => seen.push(snapshot));
  store.start();
  return { core, frames, store, asked, last: () => seen.at(-1) };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));
const long = 'abcdefghij'.repeat(5); // 50² · 1000 multiply-adds: past the instant-work limit

test('a large map goes to the background; the last figure stays, marked pending, until it lands', async () => {
  const { frames, store, asked, last } = startedWithBackground();
  const before = last().result;
  store.dispatch({ type: 'set', fields: { text: long, d: '1000' } });
  frames.flush();
  assert.equal(asked.length, 1);
  assert.equal(last().result, before, 'the last good figure is kept meanwhile');
  assert.equal(last().pending, true);
  asked[0].answer();
  await settle();
  frames.flush();
  assert.equal(last().result.T, 50);
  assert.equal(last().state.text, long);
  assert.equal(last().pending, false);
});

test('a background answer overtaken by a newer request never reaches the figure', async () => {
  const { frames, store, asked, last } = startedWithBackground();
  store.dispatch({ type: 'set', fields: { text: long, d: '1000' } });
  frames.flush();
  store.dispatch({ type: 'set', fields: { text: 'ab' } }); // small: computed at once
  frames.flush();
  assert.equal(last().state.text, 'ab');
  asked[0].answer();
  await settle();
  frames.flush();
  assert.equal(last().state.text, 'ab', 'the older, larger map arrived late and was dropped');
  assert.equal(last().result.T, 2);
  assert.equal(last().pending, false);
});

test('the first map of a large link is drawn at once, without waiting for the background', () => {
  const { asked, last } = startedWithBackground(`#text=${long}&d=1000`);
  assert.equal(asked.length, 0);
  assert.equal(last().result.T, 50);
});

test('a refusal from the background also goes beside the field the core blamed', async () => {
  const { frames, store, asked, last } = startedWithBackground();
  store.dispatch({ type: 'set', fields: { text: long, d: '1000' } });
  frames.flush();
  asked[0].refuse('scale factor is too large for these scores', 'scale');
  await settle();
  frames.flush();
  assert.deepEqual({ ...last().errors }, { scale: 'scale factor is too large for these scores' });
  assert.equal(last().state.text, 'To be, or not', 'the last good map stays');
});

test('the core counts a text’s tokens once, and only when its length could make the map large', async () => {
  const { core, frames, store } = startedWithBackground();
  store.dispatch({ type: 'set', fields: { text: 'short', d: '1000' } }); // 5² · 1000 at most
  await settle();
  frames.flush();
  assert.deepEqual(core.counted, [], 'a map that is small even at one token per unit');
  store.dispatch({ type: 'set', fields: { text: long } }); // 50² · 1000: maybe large, counted
  await settle();
  frames.flush();
  store.dispatch({ type: 'set', fields: { seed: '9' } });
  await settle();
  frames.flush();
  store.dispatch({ type: 'set', fields: { d: '999' } });
  await settle();
  frames.flush();
  assert.deepEqual(core.counted, [long], 'counted once, however often the other fields change');
});

test('going back to the map shown after a refusal clears the message without a computation', () => {
  const { core, frames, store, last } = started();
  const good = last().result;
  store.dispatch({ type: 'set', fields: { text: 'z'.repeat(60) } });
  frames.flush();
  assert.ok(last().errors.text, 'the refusal shows beside the text');
  const calls = core.calls.length;
  store.dispatch({ type: 'set', fields: { text: 'To be, or not' } });
  frames.flush();
  assert.equal(last().errors.text, undefined);
  assert.equal(last().result, good);
  assert.equal(core.calls.length, calls);
});

test('refresh asks the background again for the state it shows, without the "Computing…" cue', async () => {
  const { frames, store, asked, last } = startedWithBackground();
  store.dispatch({ type: 'set', fields: { text: long, d: '1000' } });
  frames.flush();
  asked[0].answer();
  await settle();
  frames.flush();
  const shown = last().result;
  store.dispatch({ type: 'set', fields: { text: long } }); // the same state: nothing to ask
  frames.flush();
  assert.equal(asked.length, 1);
  store.dispatch({ type: 'refresh' });
  frames.flush();
  assert.equal(asked.length, 2, 'asked again for the same state');
  assert.equal(asked[1].state.text, long);
  assert.equal(last().pending, false, 'the shown map stays up without the cue');
  assert.equal(last().result, shown);
  asked[1].answer();
  await settle();
  frames.flush();
  assert.notEqual(last().result, shown, 'the new answer is drawn');
  assert.equal(last().result.T, 50);
});
