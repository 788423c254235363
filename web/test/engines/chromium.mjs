// Chromium (Debian's, through playwright-core and the project's one launcher) behind the
// page interface of page.mjs, with every step of opening a page bounded (../waits.mjs).
import { launchChromium } from '../../../scripts/chromium.mjs';
import { WAIT_LIMIT_MS, within } from '../waits.mjs';
import { collectProblems, driverTransport, makePage } from './page.mjs';

export async function launch() {
  const browser = await launchChromium(); // Playwright's launch gives up after 3 minutes
  return {
    name: 'chromium',
    version: browser.version(),
    async open(url, { width = 1280, height = 900 } = {}) {
      const page = await within(
        browser.newPage({ viewport: { width, height } }),
        'Chromium to open a page',
      );
      page.setDefaultTimeout(WAIT_LIMIT_MS); // goto and screenshot
      const nativeProblems = collectProblems(page);
      await page.goto(url);
      return makePage(driverTransport('chromium', page, nativeProblems));
    },
    close: () => within(browser.close(), 'Chromium to close'),
  };
}
