// Firefox ESR (Debian's) through puppeteer-core over WebDriver BiDi, behind the page interface
// of page.mjs. Pinned to puppeteer-core 24.x: 25 needs Node 22; Playwright's Firefox driver
// needs its own patched build, which cannot be downloaded here (../shared/TOOLCHAIN.md).
import puppeteer from 'puppeteer-core';
import { collectProblems, driverTransport, makePage } from './page.mjs';

export const FIREFOX_PATH = process.env.FIREFOX || '/usr/bin/firefox-esr';

export async function launch() {
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    protocolTimeout: 60_000,
  });
  return {
    name: 'firefox',
    version: await browser.version(),
    async open(url, { width = 1280, height = 900 } = {}) {
      const page = await browser.newPage();
      await page.setViewport({ width, height });
      const nativeProblems = collectProblems(page);
      await page.goto(url);
      return makePage(driverTransport(page, nativeProblems));
    },
    close: () => browser.close(),
  };
}
