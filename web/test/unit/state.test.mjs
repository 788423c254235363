// state.js: checks, links in and out, the RoPE/odd-d rule and the lesson rule.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createChecks,
  crossCheck,
  DEFAULT_STATE,
  lessonRule,
  parseHash,
  serializeHash,
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

test('moving d or the scale away from the tutorial figure switches to the standard recipe', () => {
  const rows = [
    // [changed fields, state fields, switched]
    [['d'], { d: 64 }, true],
    [['scale'], { scale: { mode: 'none', factor: 1 } }, true],
    [['d'], { d: 24 }, false], // back at the tutorial's width
    [['text'], { d: 64 }, false], // d was already away; the text moved
    [['d', 'init'], { d: 64 }, false], // the person chose the recipe in the same step
    [['seed'], {}, false],
  ];
  for (const [changed, fields, switched] of rows) {
    const result = lessonRule({ ...DEFAULT_STATE, ...fields }, changed);
    assert.equal(result.switched, switched, JSON.stringify([changed, fields]));
    assert.equal(result.state.init, switched ? 'standard' : 'tutorial');
  }
});
