// lib/hash-sync.js: the address bar always ends on the newest link, never on an older state
// written by a computation that was pending when the link arrived.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHashSync } from '../../src/lib/hash-sync.js';
import { createStore } from '../../src/store.js';
import { DEFAULT_STATE, serializeHash } from '../../src/state.js';
import { fakeCore, fakeFrames } from './fakes.mjs';

function fakeWindow(hash = '') {
  const location = { hash };
  const history = {
    writes: [],
    replaceState: (_, __, next) => {
      history.writes.push(next);
      location.hash = next;
    },
  };
  return { location, history };
}

test('after a snapshot the hash is the state’s own link', () => {
  const { location, history } = fakeWindow('#d=8');
  const loads = [];
  const sync = createHashSync({ location, history, load: (hash) => loads.push(hash) });
  sync.write(serializeHash({ ...DEFAULT_STATE, d: 8 }));
  assert.equal(location.hash, serializeHash({ ...DEFAULT_STATE, d: 8 }));
  sync.write(serializeHash({ ...DEFAULT_STATE, d: 8 }));
  assert.equal(history.writes.length, 1, 'an unchanged state writes nothing');
  assert.deepEqual(loads, []);
});

test('a link opened while a computation is pending is loaded, not overwritten (the soak bug)', () => {
  const { location, history } = fakeWindow('');
  const frames = fakeFrames();
  const store = createStore(fakeCore(), { hash: location.hash, requestFrame: frames.request });
  const sync = createHashSync({
    location,
    history,
    load: (hash) => store.dispatch({ type: 'load', hash }),
  });
  store.subscribe((snapshot) => sync.write(snapshot.state && serializeHash(snapshot.state)));
  store.start();
  // The person types (a computation is now pending) and, before the frame, opens a link.
  store.dispatch({ type: 'set', fields: { d: '30' } });
  location.hash = '#text=link&d=12';
  frames.flush(); // the pending computation publishes d = 30 first…
  assert.equal(location.hash, '#text=link&d=12', 'the newer link was overwritten');
  frames.flush(); // …then the link's state, whose own hash replaces the link
  assert.equal(store.getSnapshot().state.text, 'link');
  assert.equal(store.getSnapshot().state.d, 12);
  assert.equal(location.hash, serializeHash(store.getSnapshot().state));
  sync.arrived(); // the late hashchange event finds nothing new
  assert.equal(frames.pending(), 0);
});

test('hashchange loads a link once; our own writes never count as a new link', () => {
  const { location, history } = fakeWindow('');
  const loads = [];
  const sync = createHashSync({ location, history, load: (hash) => loads.push(hash) });
  sync.write(serializeHash(DEFAULT_STATE));
  assert.equal(sync.arrived(), false);
  location.hash = '#seed=3';
  assert.equal(sync.arrived(), true);
  assert.equal(sync.arrived(), false);
  assert.deepEqual(loads, ['#seed=3']);
});

// A history whose first `refusals` writes throw, as Safari's does past its rate limit.
function refusingWindow(refusals) {
  const window = fakeWindow('');
  const { replaceState } = window.history;
  let left = refusals;
  window.history.replaceState = (...args) => {
    if (left-- > 0) throw new Error('SecurityError: too many calls to replaceState');
    replaceState(...args);
  };
  return window;
}

// Timers that run only when the test says so.
function fakeTimers() {
  const queue = [];
  return {
    setTimeout(fn) {
      const entry = { fn };
      queue.push(entry);
      return entry;
    },
    clearTimeout(entry) {
      const at = queue.indexOf(entry);
      if (at >= 0) queue.splice(at, 1);
    },
    runAll() {
      while (queue.length) queue.shift().fn();
    },
  };
}

test('a refused write never throws, and the newest state is written when the browser allows', () => {
  const { location, history } = refusingWindow(2);
  const timers = fakeTimers();
  const sync = createHashSync({ location, history, load: () => {}, timers });
  assert.doesNotThrow(() => sync.write(serializeHash({ ...DEFAULT_STATE, d: 2 })));
  assert.doesNotThrow(() => sync.write(serializeHash({ ...DEFAULT_STATE, d: 3 })));
  assert.equal(location.hash, '', 'both writes were refused');
  timers.runAll();
  assert.equal(location.hash, serializeHash({ ...DEFAULT_STATE, d: 3 }));
});

test('a link that arrives while a refused write waits is loaded, and the old state dropped', () => {
  const { location, history } = refusingWindow(1);
  const timers = fakeTimers();
  const loads = [];
  const sync = createHashSync({ location, history, load: (h) => loads.push(h), timers });
  sync.write(serializeHash({ ...DEFAULT_STATE, d: 2 })); // refused: waits for a retry
  location.hash = '#text=link';
  sync.arrived();
  timers.runAll();
  assert.deepEqual(loads, ['#text=link']);
  assert.equal(location.hash, '#text=link', 'the older state overwrote the link');
});

test('a burst of links is one load, of the newest: each hashchange reads the address as it is now', () => {
  const { location, history } = fakeWindow('');
  const loads = [];
  const sync = createHashSync({ location, history, load: (h) => loads.push(h) });
  // The browser sets the address 100 times in one task, then delivers 100 hashchange events.
  for (let n = 1; n <= 100; n++) location.hash = `#text=${n}`;
  for (let n = 1; n <= 100; n++) sync.arrived();
  assert.deepEqual(loads, ['#text=100']);
});
