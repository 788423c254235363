// Firefox ESR (Debian's) through puppeteer-core over WebDriver BiDi, behind the page interface
// of page.mjs. Pinned to puppeteer-core 24.x: 25 needs Node 22; Playwright's Firefox driver
// needs its own patched build, which cannot be downloaded here (../shared/TOOLCHAIN.md).
// Every protocol command gives up after protocolTimeout, and every step of opening a page
// and closing the browser after the tests' wait limit (../waits.mjs), naming the step.
import puppeteer from 'puppeteer-core';
import { within } from '../waits.mjs';
import { collectProblems, driverTransport, makePage } from './page.mjs';

export const FIREFOX_PATH = process.env.FIREFOX || '/usr/bin/firefox-esr';

export async function launch() {
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    timeout: 60_000, // to start Firefox and connect to it
    protocolTimeout: 60_000,
  });
  return {
    name: 'firefox',
    version: await within(browser.version(), "Firefox's version"),
    async open(url, { width = 1280, height = 900 } = {}) {
      const page = await within(browser.newPage(), 'Firefox to open a page');
      await within(
        page.setViewport({ width, height }),
        `Firefox to take the size ${width}×${height}`,
      );
      const nativeProblems = collectProblems(page);
      await within(page.goto(url), `Firefox to load ${url}`);
      return makePage(driverTransport('firefox', page, nativeProblems));
    },
    close: () => within(browser.close(), 'Firefox to close'),
  };
}
