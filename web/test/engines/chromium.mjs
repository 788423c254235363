// Chromium (Debian's, through playwright-core and the project's one launcher) behind the
// page interface of page.mjs.
import { launchChromium } from '../../../scripts/chromium.mjs';
import { collectProblems, driverTransport, makePage } from './page.mjs';

export async function launch() {
  const browser = await launchChromium();
  return {
    name: 'chromium',
    version: browser.version(),
    async open(url, { width = 1280, height = 900 } = {}) {
      const page = await browser.newPage({ viewport: { width, height } });
      const nativeProblems = collectProblems(page);
      await page.goto(url);
      return makePage(driverTransport(page, nativeProblems));
    },
    close: () => browser.close(),
  };
}
