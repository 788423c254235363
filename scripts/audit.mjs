// `npm run audit`: Lighthouse 12.2.3 (pinned; 13.x needs Node 22) on the built page, served
// locally, with Debian's Chromium. Prints the four category scores and every audit that
// did not pass, and exits non-zero when a category is below 100. Lighthouse is installed
// on first use into build/lighthouse, so the page's own dependencies stay small.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium.mjs';
import { serve } from './serve.mjs';

const prefix = new URL('../build/lighthouse/', import.meta.url).pathname;
const lighthouse = join(prefix, 'node_modules/.bin/lighthouse');
if (!existsSync(lighthouse)) {
  execFileSync(
    'npm',
    ['install', '--prefix', prefix, '--no-audit', '--no-fund', 'lighthouse@12.2.3'],
    { stdio: 'inherit' },
  );
}

const server = await serve(undefined, 0);
const url = `http://localhost:${server.address().port}/index.html`;
const report = join(mkdtempSync(join(tmpdir(), 'lighthouse-')), 'report.json');
try {
  // Asynchronously: the server in this process must keep answering while Lighthouse runs.
  await promisify(execFile)(
    lighthouse,
    [
      url,
      '--quiet',
      '--output=json',
      `--output-path=${report}`,
      `--chrome-flags=${CHROMIUM_FLAGS.join(' ')}`,
      '--only-categories=performance,accessibility,best-practices,seo',
    ],
    { env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH || CHROMIUM_PATH } },
  );
} finally {
  server.close();
}

const result = JSON.parse(readFileSync(report, 'utf8'));
let allPerfect = true;
for (const category of Object.values(result.categories)) {
  const score = Math.round(category.score * 100);
  allPerfect &&= score === 100;
  console.log(`${category.title.padEnd(16)} ${score}`);
  for (const { id } of category.auditRefs) {
    const audit = result.audits[id];
    if (audit.score !== null && audit.score < 1 && audit.scoreDisplayMode !== 'informative') {
      console.log(`  - ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ''}`);
    }
  }
}
const metrics = result.audits.metrics?.details?.items?.[0] ?? {};
console.log(
  `first contentful paint ${metrics.firstContentfulPaint} ms, largest ${metrics.largestContentfulPaint} ms, ` +
    `total blocking time ${metrics.totalBlockingTime} ms, cumulative layout shift ${metrics.cumulativeLayoutShift}`,
);
process.exit(allPerfect ? 0 : 1);
