// Chromium (Debian's, through playwright-core and the project's one launcher) behind the
// page interface of page.mjs.
import { launchChromium } from '../../../scripts/chromium.mjs';
import { makePage } from './page.mjs';

export async function launch() {
  const browser = await launchChromium();
  return {
    name: 'chromium',
    version: browser.version(),
    async open(url, { width = 1280, height = 900 } = {}) {
      const page = await browser.newPage({ viewport: { width, height } });
      const nativeProblems = [];
      page.on('console', (message) => {
        if (message.type() === 'error') nativeProblems.push(`console: ${message.text()}`);
      });
      page.on('pageerror', (error) => nativeProblems.push(`uncaught: ${error.message}`));
      await page.goto(url);
      return makePage({
        evaluateExpression: (source) => page.evaluate(source),
        nativeProblems,
        screenshot: () => page.screenshot({ fullPage: true }),
        close: () => page.close(),
      });
    },
    close: () => browser.close(),
  };
}
