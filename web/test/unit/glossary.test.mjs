// Where a definition pop-up goes: always inside the viewport, worked out by hand.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { definitionPosition, GLOSSARY } from '../../src/lib/glossary.js';

const inside = (spot, size, viewport) =>
  spot.left >= 8 &&
  spot.left + spot.width <= viewport.width - 8 &&
  spot.top >= 0 &&
  spot.top + size.height <= viewport.height;

test('a definition under a word near the right edge is shifted left to fit', () => {
  const spot = definitionPosition(
    { left: 300, top: 100, bottom: 120 },
    { width: 288, height: 90 },
    { width: 390, height: 844 },
  );
  assert.deepEqual(spot, { left: 390 - 8 - 288, top: 124, width: 288 });
});

test('a definition wider than a 320 px phone takes the width less the margins', () => {
  const spot = definitionPosition(
    { left: 10, top: 100, bottom: 120 },
    { width: 400, height: 90 },
    { width: 320, height: 600 },
  );
  assert.deepEqual(spot, { left: 8, top: 124, width: 304 });
});

test('a word near the bottom opens its definition above it', () => {
  const spot = definitionPosition(
    { left: 40, top: 760, bottom: 780 },
    { width: 288, height: 90 },
    { width: 1280, height: 800 },
  );
  assert.equal(spot.top, 760 - 4 - 90);
});

test('every placement over a grid of words and viewports stays inside', () => {
  for (const viewport of [
    { width: 320, height: 568 },
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    for (let left = 0; left < viewport.width; left += 37) {
      for (let top = 10; top < viewport.height - 30; top += 53) {
        const size = { width: 288, height: 120 };
        const spot = definitionPosition({ left, top, bottom: top + 20 }, size, viewport);
        assert.ok(inside(spot, size, viewport), JSON.stringify({ viewport, left, top, spot }));
      }
    }
  }
});

test('every term the narrative marks has a definition', async () => {
  const { readFileSync } = await import('node:fs');
  const html = readFileSync(new URL('../../index.html', import.meta.url), 'utf8');
  for (const [, term] of html.matchAll(/data-term="([^"]+)"/g))
    assert.ok(GLOSSARY[term], `no definition for “${term}”`);
});
