// The narrative's citations: every [n] links to the n-th item of the sources list, every
// source is cited or linked from the text, and every source that names a paper links to it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

const html = readFileSync(new URL('../../index.html', import.meta.url), 'utf8');
const sources = [...html.matchAll(/<li id="(source-[\w-]+)">([\s\S]*?)<\/li>/g)].map(
  ([, id, body]) => ({ id, body }),
);

test('every [n] in the text links to the n-th source', () => {
  const citations = [...html.matchAll(/<a class="cite" href="#(source-[\w-]+)">\[(\d+)\]<\/a>/g)];
  assert.ok(citations.length >= 8, `${citations.length} citations`);
  for (const [, id, number] of citations) {
    const at = sources.findIndex((source) => source.id === id);
    assert.ok(at >= 0, `${id} is in the list`);
    assert.equal(Number(number), at + 1, id);
  }
});

test('every source is cited or linked from the text, and a paper links to where it is', () => {
  for (const { id, body } of sources) {
    assert.ok(html.includes(`href="#${id}"`), `${id} is never cited`);
    if (/\(\d{4}\)/.test(body))
      assert.match(body, /<a href="https:\/\//, `${id} links to the paper`);
  }
});
