// No test can hang (scripts/test.sh, web/test/waits.mjs): the test runner, started with the
// script's time limit per file (--test-timeout), on three files written here: one whose test
// waits on a real Chromium page that never answers, through the tests' own page helper; one
// whose test awaits a promise that never settles; one that passes. The page's wait must fail
// at the page's wait limit, naming what it waited for, the never-settling file must end at its
// file limit, and the run must go on to report the rest. The three files live in a temporary
// folder, out of every test glob: run by hand without a limit, one of them would never end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('../../', import.meta.url);
const helpers = new URL('web/test/chromium.mjs', root).href;
const WAIT_LIMIT_MS = 3000; // every wait on a page (web/test/waits.mjs reads WAIT_LIMIT_MS)
const FILE_LIMIT_MS = 20_000; // each file as a whole (--test-timeout)

const FILES = {
  'page-never-answers.mjs': `import { test } from 'node:test';
import { useChromium } from '${helpers}';

const chromium = useChromium();

test('waits on a page that never answers', async () => {
  const page = await chromium.newPage();
  await page.evaluate(() => new Promise(() => {}));
});

test('the next test in the same file', () => {});
`,
  'never-settles.mjs': `import { test } from 'node:test';

test('awaits a promise that never settles', async () => {
  setInterval(() => {}, 1000); // keeps the process alive, as an open browser does
  await new Promise(() => {});
});
`,
  'passes.mjs': `import { test } from 'node:test';

test('a file that passes', () => {});
`,
};

// The TAP report of one test: from its "ok" or "not ok" line to the end of its block.
function report(output, name) {
  const start = output.search(new RegExp(`^(not )?ok \\d+ - .*${name}`, 'm'));
  assert.ok(start >= 0, `no result for "${name}" in:\n${output}`);
  return output.slice(start, output.indexOf('\n  ...', start));
}

// This process's environment for a runner of its own, without NODE_TEST_CONTEXT (set here by
// this file's runner, it would make the new one skip its files), and with the short wait limit.
function runnerEnvironment() {
  const { NODE_TEST_CONTEXT, ...environment } = process.env;
  return { ...environment, WAIT_LIMIT_MS: String(WAIT_LIMIT_MS) };
}

const durationOf = (block) => Number(/duration_ms: ([\d.]+)/.exec(block)[1]);

test('every test run in scripts/test.sh has a time limit per file', () => {
  const script = readFileSync(new URL('scripts/test.sh', root), 'utf8');
  const runs = script.split('\n').filter((line) => /^\s*node --test /.test(line));
  assert.ok(runs.length >= 2, `found ${runs.length} test runs`);
  for (const line of runs) assert.match(line, /--test-timeout=/, line);
});

test('a test that hangs fails within its limit, names what it waited for, and the run goes on', () => {
  const folder = mkdtempSync(join(tmpdir(), 'time-limits-'));
  const files = Object.entries(FILES).map(([name, text]) => {
    writeFileSync(join(folder, name), text);
    return join(folder, name);
  });
  const started = Date.now();
  const run = spawnSync(
    process.execPath,
    ['--test', `--test-timeout=${FILE_LIMIT_MS}`, '--test-reporter=tap', ...files],
    {
      encoding: 'utf8',
      env: runnerEnvironment(),
      timeout: 2 * files.length * FILE_LIMIT_MS, // this test's own limit, in case theirs fail
    },
  );
  const elapsedMs = Date.now() - started;
  rmSync(folder, { recursive: true, force: true });
  const output = run.stdout + run.stderr;
  assert.equal(run.error, undefined, `the run did not end by itself: ${run.error?.message}`);
  assert.equal(run.status, 1, 'the run fails');

  const page = report(output, 'waits on a page that never answers');
  assert.match(page, /^not ok/);
  assert.match(
    page,
    /waited 3 s for: page\.evaluate\(\(\) => new Promise\(\(\) => \{\}\)\) \(the page still answers/,
  );
  const pageMs = durationOf(page);
  assert.ok(pageMs >= WAIT_LIMIT_MS && pageMs < FILE_LIMIT_MS, `the page test took ${pageMs} ms`);
  assert.match(report(output, 'the next test in the same file'), /^ok/);

  const settles = report(output, 'never-settles.mjs');
  assert.match(settles, /^not ok/);
  assert.match(settles, new RegExp(`test timed out after ${FILE_LIMIT_MS}ms`));
  assert.match(report(output, 'a file that passes'), /^ok/);
  // One file after the other, each within its limit.
  assert.ok(elapsedMs < files.length * FILE_LIMIT_MS, `the run took ${elapsedMs} ms`);
});
