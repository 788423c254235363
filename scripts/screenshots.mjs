// Screenshots of the built page (dist/) as a reader sees it, at 1280×800 and 390×844, in the
// light and the dark theme: the first screen (docs/screenshots/first-WIDTH-THEME.png) and one
// screen from the top of every section (SECTION-WIDTH-THEME.png), and
// docs/screenshots/embed-name-tags.png: that figure embedded with the Embed action's snippet in
// a course page served from another origin. The README shows first-1280-light.png and the embed.
// Run after `npm run build`: node scripts/screenshots.mjs
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { snippet } from '../web/src/embed/snippet.js';
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

const COURSE_PAGE = (embed) => `<!doctype html><html lang="en"><title>Week 3: attention</title>
<link rel="icon" href="data:,"><style>body { font: 17px/1.5 system-ui, sans-serif; margin: 2rem auto;
max-width: 44rem; padding: 0 1rem; color: #222 }</style><h1>Week 3: attention</h1>
<p>Drag the orange query and watch who gets listened to. Then turn up the sharpness.</p>\n${embed}`;

async function shootEmbed(browser, base) {
  const folder = mkdtempSync(join(tmpdir(), 'course-'));
  writeFileSync(
    join(folder, 'index.html'),
    COURSE_PAGE(snippet('name-tags', new URL('embed.html?figure=name-tags', base).href)),
  );
  const course = await serve(folder, 0); // another port: another origin than the page's
  const page = await browser.newPage({ viewport: { width: 800, height: 800 } });
  await page.goto(`http://127.0.0.1:${course.address().port}/index.html`);
  await page.waitForFunction(() => document.querySelector('iframe').style.height !== '');
  await page.waitForTimeout(300);
  await page.screenshot({ path: new URL('embed-name-tags.png', out).pathname, fullPage: true });
  await page.close();
  course.close();
}

mkdirSync(out, { recursive: true });
const server = await serve(new URL('dist/', root).pathname, 0);
const browser = await launchChromium();
try {
  const base = `http://127.0.0.1:${server.address().port}/index.html`;
  for (const width of [1280, 390]) {
    for (const theme of ['light', 'dark']) await shoot(browser, base, width, theme);
  }
  await shootEmbed(browser, base);
} finally {
  await browser.close();
  server.close();
}
