// What a "Show me" button offers after a click: a reader's own settings are never replaced
// without a way back.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { afterShowing } from '../../src/show-me.js';
import { createChecks, DEFAULT_STATE, parseHash } from '../../src/state.js';

test("from the tutorial's figure there is nothing of the reader's to give back", () => {
  assert.deepEqual(afterShowing(DEFAULT_STATE), { text: 'Shown on the map', restore: null });
});

test("a reader's own text is offered back as the link of their state", () => {
  const mine = { ...DEFAULT_STATE, text: 'my words', d: 32 };
  const after = afterShowing(mine);
  assert.equal(after.text, 'Shown. Back to your settings');
  const back = parseHash(after.restore, createChecks({ maxMapWidth: 1024 })).state;
  assert.equal(back.text, 'my words');
  assert.equal(back.d, 32);
});
