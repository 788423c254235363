// The link preview's picture of the built page (dist/, after `npm run build`;
// scripts/preview-image.mjs) is a 1200×630 PNG whose map has the colours of the map the page
// draws. Its tags are scripts/link-preview.mjs's (test/link-preview.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { launchChromium } from '../chromium.mjs';
import { boundWaits } from '../../web/test/chromium.mjs';
import { within } from '../../web/test/waits.mjs';
import { serve } from '../serve.mjs';

const root = new URL('../../', import.meta.url);
const dist = new URL('dist/', root);

// The n most common colours of an image or canvas (4 bits a channel), run in the browser.
function commonColours(source, n) {
  const canvas = document.createElement('canvas');
  canvas.width = source.width;
  canvas.height = source.height;
  const context = canvas.getContext('2d');
  context.drawImage(source, 0, 0);
  const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
  const counts = new Map();
  for (let i = 0; i < data.length; i += 4) {
    const key = [0, 1, 2].map((c) => data[i + c] >> 4).join();
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([key]) => key);
}

test("the preview picture is 1200×630 and shows the page's own map", async () => {
  const file = new URL('preview.png', dist);
  assert.ok(existsSync(file), 'dist/preview.png exists');
  const png = readFileSync(file);
  assert.equal(png.toString('latin1', 1, 4), 'PNG');
  assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [1200, 630]);
  const server = await serve(dist.pathname, 0);
  const browser = await launchChromium();
  try {
    const page = boundWaits(await within(browser.newPage(), 'Chromium to open a page'));
    await page.goto(`http://127.0.0.1:${server.address().port}/index.html`);
    await page.waitForSelector('#map-table table');
    const mapColours = await page.evaluate(
      `(${commonColours})(document.querySelector('.map-canvas'), 12)`,
    );
    const previewColours = await page.evaluate(
      `(async () => { const image = new Image(); image.src = 'preview.png'; await image.decode(); return (${commonColours})(image, 400); })()`,
    );
    const missing = mapColours.filter((colour) => !previewColours.includes(colour));
    assert.deepEqual(missing, [], "the map's common colours missing from the preview");
  } finally {
    await within(browser.close(), 'Chromium to close');
    server.close();
  }
});
