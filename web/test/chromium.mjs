// Shared by the Chromium test files: Debian's Chromium through playwright-core, and the built
// page (dist/) served on a free localhost port, both started once per file.
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/serve.mjs';

export const root = new URL('../../', import.meta.url);

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// Returns { browser(), url(hash) }, valid once the file's before() hook has run.
export function useChromium() {
  let browser;
  let server;
  before(async () => {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
      args: FLAGS,
    });
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
