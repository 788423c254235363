// state.js: checks, links in and out, the RoPE/odd-d rule, the resting width, the colours'
// stretch and the trained head's fixed fields.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  createChecks,
  crossCheck,
  DEFAULT_STATE,
  MAP_FIELDS,
  mapFields,
  parseHash,
  sameMap,
  serializeHash,
  widthRests,
  withSavedModel,
} from '../../src/state.js';

const checks = createChecks({ maxMapWidth: 100 });

test('the width limit is the one the core reports, not a copy', () => {
  assert.deepEqual(checks.d('100'), { value: 100 });
  assert.match(checks.d('101').error, /whole number from 1 to 100/);
});

test('old links keep working: pos=1 is sinusoidal, pos=0 is none', () => {
  assert.equal(parseHash('#pos=1', checks).state.pos, 'sinusoidal');
  assert.equal(parseHash('#pos=0', checks).state.pos, 'none');
  assert.equal(parseHash('#pos=rope', checks).state.pos, 'rope');
});

test('the scale travels as sqrt|d|none|<number> and lives as { mode, factor }', () => {
  const cases = [
    ['sqrt', { mode: 'sqrt', factor: 1 }, 'sqrt'],
    ['d', { mode: 'd', factor: 1 }, 'd'],
    ['none', { mode: 'none', factor: 1 }, 'none'],
    ['3.16', { mode: 'custom', factor: 3.16 }, '3\\.16'],
    ['1e-3', { mode: 'custom', factor: 0.001 }, '0\\.001'],
  ];
  for (const [link, scale, written] of cases) {
    const { state, messages } = parseHash(`#scale=${link}`, checks);
    assert.deepEqual({ ...state.scale }, scale, link);
    assert.deepEqual(messages, [], link);
    assert.match(serializeHash(state), new RegExp(`scale=${written}&`), link);
  }
});

test('every older form of a link opens the same state it always did', () => {
  const rows = [
    // [a link as the page once wrote it, the fields it sets (the rest stay at the defaults)]
    // The first page: pos=0|1, no init, the scale as a word.
    [
      '#text=To%20be%2C%20or%20not&tokens=chars&d=24&seed=1&causal=1&scale=sqrt&vectors=position&pos=0',
      {},
    ],
    ['#pos=1', { pos: 'sinusoidal' }],
    [
      '#causal=0&scale=none&vectors=token',
      { causal: false, scale: { mode: 'none', factor: 1 }, vectors: 'token' },
    ],
    ['#scale=d&d=64', { d: 64, scale: { mode: 'd', factor: 1 } }],
    // A custom scale travels as its factor, in any way a number is written.
    ['#scale=0.5', { scale: { mode: 'custom', factor: 0.5 } }],
    ['#scale=.5', { scale: { mode: 'custom', factor: 0.5 } }],
    ['#scale=+2', { scale: { mode: 'custom', factor: 2 } }],
    ['#scale=1E3', { scale: { mode: 'custom', factor: 1000 } }],
    // Keys the page does not know are ignored.
    ['#d=8&theme=dark', { d: 8 }],
  ];
  for (const [link, fields] of rows) {
    const { state, messages } = parseHash(link, checks);
    const expected = { ...DEFAULT_STATE, ...fields };
    assert.deepEqual(messages, [], link);
    assert.deepEqual(
      { ...state, scale: { ...state.scale } },
      { ...expected, scale: { ...expected.scale } },
      link,
    );
  }
});

test('a bad value in a link falls back to the default with a message naming it', () => {
  const { state, messages } = parseHash('#scale=0&d=abc&init=huge', checks);
  assert.deepEqual({ ...state.scale }, { mode: 'sqrt', factor: 1 });
  assert.equal(state.d, 24);
  assert.equal(state.init, 'tutorial');
  assert.equal(messages.length, 3);
  assert.match(messages[0], /d=“abc”.*Showing d=24/);
});

test('RoPE with an odd width is refused beside the positions control', () => {
  assert.match(
    crossCheck({ ...DEFAULT_STATE, pos: 'rope', d: 23 }).pos,
    /even head width; d = 23 is odd/,
  );
  assert.deepEqual(crossCheck({ ...DEFAULT_STATE, pos: 'rope', d: 24 }), {});
  const { state, messages } = parseHash('#pos=rope&d=7', checks);
  assert.equal(state.pos, 'none');
  assert.match(messages[0], /Showing pos=none/);
});

test('a link round-trips: the hash is a function of the state alone', () => {
  const hash =
    '#text=the%20cat&tokens=words&d=16&seed=42&causal=0&scale=none&vectors=token&init=standard&pos=rope';
  const { state } = parseHash(hash, checks);
  assert.equal(serializeHash(state), hash);
  assert.equal(serializeHash({ ...state }), hash);
});

test('width d rests under the tutorial recipe and the trained head, not the standard recipe', () => {
  assert.equal(widthRests(DEFAULT_STATE), true);
  assert.equal(widthRests({ ...DEFAULT_STATE, d: 256 }), true);
  assert.equal(widthRests({ ...DEFAULT_STATE, init: 'standard' }), false);
  assert.equal(widthRests({ ...DEFAULT_STATE, init: 'standard', vectors: 'trained' }), true);
});

test('stretch travels as stretch=1, only when on, so older links read the same', () => {
  const plain = serializeHash(DEFAULT_STATE);
  assert.doesNotMatch(plain, /stretch/);
  assert.equal(parseHash(plain, checks).state.stretch, false);
  const stretched = serializeHash({ ...DEFAULT_STATE, stretch: true });
  assert.equal(stretched, `${plain}&stretch=1`);
  assert.equal(parseHash(stretched, checks).state.stretch, true);
  assert.equal(parseHash('#stretch=0', checks).state.stretch, false);
  assert.match(parseHash('#stretch=yes', checks).messages[0], /stretch must be 1 or 0/);
  assert.ok(sameMap(DEFAULT_STATE, { ...DEFAULT_STATE, stretch: true }));
  assert.ok(!sameMap(DEFAULT_STATE, { ...DEFAULT_STATE, d: 8 }));
  assert.deepEqual(Object.keys(mapFields(DEFAULT_STATE)), [...MAP_FIELDS]);
  assert.ok(!MAP_FIELDS.includes('stretch'));
});

// The trained head's own facts, read here from the JSON attention-train wrote (not from state.js).
const savedHead = JSON.parse(
  readFileSync(new URL('../../assets/trained-head.json', import.meta.url), 'utf8'),
);

test('vectors=trained (old links: learned) fixes what the trained head does: characters, its d, causal, 1/√d', () => {
  const { state, messages } = parseHash(
    '#text=abc&tokens=words&d=7&causal=0&scale=none&vectors=learned&seed=5&init=standard&pos=rope',
    checks,
  );
  assert.deepEqual(messages, []);
  assert.equal(state.vectors, 'trained');
  assert.equal(state.tokens, 'chars');
  assert.equal(state.d, savedHead.d);
  assert.equal(state.causal, true);
  assert.deepEqual(state.scale, { mode: savedHead.scale, factor: 1 });
  // what does not apply to the head is kept for when the reader switches back
  assert.deepEqual([state.seed, state.init, state.pos], [5, 'standard', 'rope']);
});

test('a vectors=trained link round-trips, an old vectors=learned one reads the same, and old links without it are unchanged', () => {
  const hash = `#text=To%20be&tokens=chars&d=${savedHead.d}&seed=1&causal=1&scale=sqrt&vectors=trained&init=tutorial&pos=none`;
  assert.equal(serializeHash(parseHash(hash, checks).state), hash);
  assert.equal(parseHash('#text=To%20be', checks).state.vectors, 'position');
  assert.equal(parseHash('#vectors=token', checks).state.vectors, 'token');
  const old = parseHash(hash.replace('vectors=trained', 'vectors=learned'), checks);
  assert.deepEqual(old.messages, []);
  assert.equal(serializeHash(old.state), hash);
  assert.match(parseHash('#vectors=lerned', checks).messages[0], /position, token, trained/);
});

test('the trained head sets its own fields, and switching back keeps them as they were', () => {
  const trained = withSavedModel({
    ...DEFAULT_STATE,
    vectors: 'trained',
    d: 300,
    scale: { mode: 'none', factor: 1 },
  });
  assert.equal(trained.init, 'tutorial');
  assert.equal(trained.d, savedHead.d);
  assert.equal(trained.scale.mode, 'sqrt');
  const back = withSavedModel({ ...trained, vectors: 'position' });
  assert.equal(back.d, savedHead.d);
  assert.equal(withSavedModel(DEFAULT_STATE), DEFAULT_STATE);
});

test('vectors=grown-2 (the head grown in section 9) takes the copying head’s fixed fields and round-trips', () => {
  const copying = JSON.parse(
    readFileSync(new URL('../../assets/copying-head.json', import.meta.url)),
  );
  const hash = `#text=abab&tokens=chars&d=${copying.config.d}&seed=1&causal=1&scale=sqrt&vectors=grown-2&init=tutorial&pos=none`;
  const { state, messages } = parseHash(hash.replace(`d=${copying.config.d}`, 'd=7'), checks);
  assert.deepEqual(messages, []);
  assert.equal(state.vectors, 'grown-2');
  assert.equal(state.d, copying.config.d);
  assert.equal(serializeHash(state), hash);
  assert.equal(widthRests(state), true);
  // An older link to the saved head's layer 2 opens it as before.
  assert.equal(parseHash(hash.replace('grown-2', 'copying-2'), checks).state.vectors, 'copying-2');
});
