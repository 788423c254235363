// The one Chromium launcher for the tests, the benchmark and the audit: Debian's Chromium
// (or $CHROMIUM) through playwright-core, with the only flags that work as root on the
// build machines (see ../shared/TOOLCHAIN.md). Never `npx playwright install`: it downloads.
import { chromium } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM || '/usr/bin/chromium';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// A browser with a throw-away profile.
export function launchChromium() {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
}

// A browser with its profile in `directory` (one context, as Chromium itself runs).
export function launchChromiumWithProfile(directory) {
  return chromium.launchPersistentContext(directory, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_FLAGS,
  });
}
