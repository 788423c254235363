// The link preview's picture (dist/preview.png, 1200×630, the size Open Graph and Twitter
// cards ask for): the built page's own attention map, drawn by the real core in headless
// Chromium, beside the page's title and description. scripts/build-web.mjs runs it after the
// build; alone: node scripts/preview-image.mjs (after `npm run build`). It is not a drawing
// of a map: it is the tutorial's map as the page computes it, so it cannot drift from it.
import { existsSync } from 'node:fs';
import { CHROMIUM_PATH, launchChromium } from './chromium.mjs';
import { serve } from './serve.mjs';

export const PREVIEW = { file: 'preview.png', width: 1200, height: 630 };

// The map canvas as a PNG data URL, and the page's title and description, from the page
// itself (index.html holds them once).
async function mapOfPage(browser, url) {
  const page = await browser.newPage({
    viewport: { width: 1200, height: 900 },
    colorScheme: 'light',
  });
  await page.goto(url);
  await page.waitForSelector('#map-table table', { timeout: 60000 }); // the map has drawn its result
  const found = await page.evaluate(() => ({
    map: document.querySelector('[data-figure="map"] canvas').toDataURL('image/png'),
    title: document.title,
    description: document.querySelector('meta[name="description"]').content,
  }));
  await page.close();
  return found;
}

const escapeText = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

// The card: the map on the left, the words on the right, in the page's light colours.
const CARD = ({ map, title, description }) => `<!doctype html>
<style>
  body { margin: 0; width: ${PREVIEW.width}px; height: ${PREVIEW.height}px; display: flex;
    align-items: center; gap: 40px; padding: 0 56px; box-sizing: border-box;
    background: #fbfaf7; color: #1c1c24; font-family: system-ui, "DejaVu Sans", sans-serif; }
  img { width: 560px; height: 560px; object-fit: contain; flex: none; }
  h1 { font-size: 60px; line-height: 1.1; margin: 0 0 24px; }
  p { font-size: 26px; line-height: 1.35; margin: 0 0 20px; color: #3a3a46; }
</style>
<img alt="" src="${map}">
<div><h1>${escapeText(title)}</h1><p>${escapeText(description)}</p></div>`;

// Writes `outFile` from the page built in `distDir`. Returns false (and says why) when there
// is no Chromium to draw with: the page is still built, without its preview picture.
export async function renderPreviewImage(distDir, outFile) {
  if (!existsSync(CHROMIUM_PATH)) {
    console.warn(`preview image skipped: no Chromium at ${CHROMIUM_PATH} (set CHROMIUM)`);
    return false;
  }
  const server = await serve(distDir, 0);
  const browser = await launchChromium();
  try {
    const found = await mapOfPage(browser, `http://127.0.0.1:${server.address().port}/index.html`);
    const card = await browser.newPage({
      viewport: { width: PREVIEW.width, height: PREVIEW.height },
      deviceScaleFactor: 1,
    });
    await card.setContent(CARD(found));
    await card.waitForFunction(() => document.querySelector('img').complete);
    await card.screenshot({ path: outFile });
    return true;
  } finally {
    await browser.close();
    server.close();
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const dist = new URL('../dist/', import.meta.url).pathname;
  if (await renderPreviewImage(dist, `${dist}${PREVIEW.file}`))
    console.log(`wrote dist/${PREVIEW.file}`);
}
