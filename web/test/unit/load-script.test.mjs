// lib/load-script.js with a stand-in document: each call appends a script whose load or error
// the test fires, as a browser would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadScript } from '../../src/lib/load-script.js';

function fakeDocument() {
  const appended = [];
  return {
    appended,
    createElement: () => ({ remove() {} }),
    head: { append: (script) => appended.push(script) },
  };
}

test('a file that does not load rejects with what it holds, and the next call tries again', async () => {
  const documentRef = fakeDocument();
  const first = loadScript('missing.js', 'TestMissing', 'the test data', documentRef);
  assert.equal(documentRef.appended.length, 1);
  assert.equal(documentRef.appended[0].src, 'missing.js');
  documentRef.appended[0].onerror();
  await assert.rejects(first, { message: 'the test data (missing.js) could not load' });

  const second = loadScript('missing.js', 'TestMissing', 'the test data', documentRef);
  assert.equal(documentRef.appended.length, 2, 'a second script tag after the failure');
  globalThis.TestMissing = { found: true };
  documentRef.appended[1].onload();
  assert.deepEqual(await second, { found: true });
  delete globalThis.TestMissing;
});

test('calls while a file loads share one script, and a loaded file needs no second request', async () => {
  const documentRef = fakeDocument();
  const calls = [1, 2].map(() => loadScript('data.js', 'TestData', 'the data', documentRef));
  assert.equal(documentRef.appended.length, 1);
  globalThis.TestData = 42;
  documentRef.appended[0].onload();
  assert.deepEqual(await Promise.all(calls), [42, 42]);
  assert.equal(await loadScript('data.js', 'TestData', 'the data', documentRef), 42);
  assert.equal(documentRef.appended.length, 1);
  delete globalThis.TestData;
});

test('a file that loads without defining its global is an error, not an empty result', async () => {
  const documentRef = fakeDocument();
  const loading = loadScript('empty.js', 'TestEmpty', 'the data', documentRef);
  documentRef.appended[0].onload();
  await assert.rejects(loading, { message: 'empty.js loaded but held no data' });
});
