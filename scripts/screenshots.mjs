// Screenshots of the built page (dist/) as a reader sees it, at 1280×800 and 390×844, in the
// light and the dark theme: the first screen (docs/screenshots/first-WIDTH-THEME.png) and one
// screen from the top of every section (SECTION-WIDTH-THEME.png). The README shows
// first-1280-light.png. Run after `npm run build`: node scripts/screenshots.mjs
import { mkdirSync } from 'node:fs';
import { launchChromium } from './chromium.mjs';
import { serve } from './serve.mjs';

const root = new URL('../', import.meta.url);
const out = new URL('docs/screenshots/', root);
const SECTIONS = [
  'big-idea',
  'name-tags',
  'four-lines',
  'map',
  'scale',
  'training',
  'proof',
  'try',
  'copying',
  'ballgame',
];

const shotPath = (name) => new URL(`${name}.png`, out).pathname;

async function shoot(browser, base, width, theme) {
  const page = await browser.newPage({
    viewport: { width, height: width > 600 ? 800 : 844 },
    colorScheme: theme,
    reducedMotion: 'reduce',
  });
  await page.goto(base);
  await page.waitForSelector('#map-table table');
  await page.waitForTimeout(300);
  await page.screenshot({ path: shotPath(`first-${width}-${theme}`) });
  for (const id of SECTIONS) {
    await page.evaluate((section) => document.getElementById(section).scrollIntoView(), id);
    await page.waitForTimeout(300); // figures that draw when visible
    await page.evaluate((section) => document.getElementById(section).scrollIntoView(), id);
    await page.screenshot({ path: shotPath(`${id}-${width}-${theme}`) });
  }
  await page.close();
}

mkdirSync(out, { recursive: true });
const server = await serve(new URL('dist/', root).pathname, 0);
const browser = await launchChromium();
try {
  const base = `http://127.0.0.1:${server.address().port}/index.html`;
  for (const width of [1280, 390]) {
    for (const theme of ['light', 'dark']) await shoot(browser, base, width, theme);
  }
} finally {
  await browser.close();
  server.close();
}
