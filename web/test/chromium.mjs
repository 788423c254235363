// Shared by the Chromium test files: the project's one Chromium launcher and one static
// server (scripts/), serving the built page (dist/) on a free localhost port, both started
// once per file, and the watch for what a page must never log.
import { after, before } from 'node:test';
import { launchChromium } from '../../scripts/chromium.mjs';
import { serve } from '../../scripts/serve.mjs';

const root = new URL('../../', import.meta.url);

// Returns { browser(), url(hash) }, valid once the file's before() hook has run.
export function useChromium() {
  let browser;
  let server;
  before(async () => {
    browser = await launchChromium();
    server = await serve(new URL('dist/', root).pathname, 0);
  });
  after(async () => {
    await browser?.close();
    server?.close();
  });
  return {
    browser: () => browser,
    url: (hash = '') => `http://127.0.0.1:${server.address().port}/index.html${hash}`,
  };
}

// Collects what must never happen on a page: console errors, uncaught errors, unhandled
// rejections and Content-Security-Policy violations. Call before page.goto().
export async function watchProblems(page) {
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(`CSP violation: ${event.violatedDirective}`),
    );
    window.addEventListener('unhandledrejection', (event) =>
      console.error(`unhandled rejection: ${event.reason}`),
    );
  });
  return problems;
}

// Scrolls through every section (a frame or two at each) and back to the top, then waits until
// no figure is still waiting for its code: the later sections' figures mount only as their
// section comes near (main.js mountLater), and a test of the whole page needs all of them.
export async function mountEveryFigure(page) {
  await page.evaluate(async () => {
    const frame = () => new Promise(requestAnimationFrame);
    for (const section of document.querySelectorAll('section')) {
      section.scrollIntoView();
      await frame();
      await frame();
    }
    window.scrollTo(0, 0);
  });
  await page.waitForFunction(() => !document.querySelector('.figure-waiting'), null, {
    timeout: 30000,
  });
}
