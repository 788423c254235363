// Shared by the Chromium test files: the project's one Chromium launcher and one static
// server (scripts/), serving the built page (dist/) on a free localhost port, both started
// once per file; pages whose every wait is bounded (waits.mjs); and the watch for what a page
// must never log.
import { after, before } from 'node:test';
import { launchChromium } from '../../scripts/chromium.mjs';
import { serve } from '../../scripts/serve.mjs';
import { callText, poll, WAIT_LIMIT_MS, waited, within } from './waits.mjs';

const root = new URL('../../', import.meta.url);

// Returns { newPage(options), newContext(options), url(hash) }, valid once the file's before()
// hook has run. The browser itself stays inside: a page comes only from newPage, or from a
// context made by newContext, so that every page's waits are bounded (boundWaits).
export function useChromium() {
  let browser;
  let server;
  before(async () => {
    browser = await launchChromium();
    server = await serve(new URL('dist/', root).pathname, 0);
  });
  after(async () => {
    if (browser) await within(browser.close(), 'Chromium to close');
    server?.close();
  });
  return {
    newPage: async (options) =>
      boundWaits(await within(browser.newPage(options), 'Chromium to open a page')),
    async newContext(options) {
      const context = await within(browser.newContext(options), 'Chromium to open a context');
      context.on('page', boundWaits);
      limit(context, ['close'], 'context');
      return context;
    },
    url: (hash = '') => `http://127.0.0.1:${server.address().port}/index.html${hash}`,
  };
}

const boundPages = new WeakSet();
const ownEvaluate = new WeakMap(); // a bounded page → its evaluate without a limit
const ANSWER_MS = 3000;

// Bounds every wait a Playwright page leaves without a limit, on the page object itself, so a
// test calls page.evaluate as ever: evaluations (evaluate, evaluateHandle, $eval, $$eval) in
// the page, in its frames and in its workers; keys, mouse and taps; printing to PDF; a
// download's file; closing. Playwright's own waits (goto, waitForSelector, waitForFunction,
// waitForEvent, click, fill, textContent, screenshot...) stop at the page's default timeout,
// set here to the same limit; their messages name the selector or event, and
// waitForFunction's is made to name its function.
export function boundWaits(page) {
  if (boundPages.has(page)) return page;
  boundPages.add(page);
  ownEvaluate.set(page, page.evaluate.bind(page));
  page.setDefaultTimeout(WAIT_LIMIT_MS);
  boundFrame(page, 'page');
  limit(page, ['pdf', 'close'], 'page');
  limit(page.keyboard, ['press', 'type', 'down', 'up', 'insertText'], 'page.keyboard');
  limit(page.mouse, ['click', 'dblclick', 'down', 'up', 'move', 'wheel'], 'page.mouse');
  limit(page.touchscreen, ['tap'], 'page.touchscreen');
  page.on('frameattached', (frame) => boundFrame(frame, 'frame'));
  page.on('worker', (worker) => limit(worker, ['evaluate', 'evaluateHandle'], 'worker'));
  page.on('download', (download) => limit(download, ['path', 'saveAs'], 'download'));
  return page;
}

// Evaluates `fn(arg)` in a page made by useChromium, failing after `ms` with "waited … for:
// <what>": for a wait that deserves a name of its own, or a longer limit than WAIT_LIMIT_MS.
export function evaluateWithin(page, what, fn, arg, ms = WAIT_LIMIT_MS) {
  const evaluate = ownEvaluate.get(page);
  return within(evaluate(fn, arg), what, ms).catch(withPageState(evaluate));
}

// Adds to an evaluation's time-out whether the page still answers another, trivial one (then
// it waited for something that never came) or not (its main thread is busy, or frozen).
function withPageState(evaluate) {
  return async (error) => {
    if (error.code !== 'WAIT_LIMIT') throw error;
    const answer = await within(evaluate('document.visibilityState'), 'an answer', ANSWER_MS)
      .then((visibility) => `the page still answers, ${visibility}`)
      .catch(() => `the page answers nothing else either within ${ANSWER_MS / 1000} s`);
    error.message += ` (${answer})`;
    throw error;
  };
}

function boundFrame(frame, name) {
  const evaluate = frame.evaluate.bind(frame);
  limit(frame, ['evaluate', 'evaluateHandle', '$eval', '$$eval'], name, withPageState(evaluate));
  const waitForFunction = frame.waitForFunction.bind(frame);
  frame.waitForFunction = (fn, arg, options = {}) =>
    waitForFunction(fn, arg, options).catch((error) => {
      if (error.name !== 'TimeoutError') throw error;
      const what = callText(`${name}.waitForFunction`, [fn, arg]);
      throw new Error(waited(options.timeout ?? WAIT_LIMIT_MS, what), { cause: error });
    });
}

// Replaces each of `target`'s `methods` by the same call under WAIT_LIMIT_MS; `onError`, if
// given, sees a failure first.
function limit(target, methods, name, onError) {
  for (const method of methods) {
    const call = target[method].bind(target);
    target[method] = (...args) => {
      const bounded = within(call(...args), callText(`${name}.${method}`, args));
      return onError ? bounded.catch(onError) : bounded;
    };
  }
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

// Scrolls `index`th section into view and waits two animation frames, or 100 ms each where
// none comes: a page the browser counts as out of sight gets no frames at all.
async function showSection(index) {
  const frame = () =>
    new Promise((resolve) => {
      requestAnimationFrame(resolve);
      setTimeout(resolve, 100);
    });
  document.querySelectorAll('section')[index].scrollIntoView();
  await frame();
  await frame();
}

// Brings a figure still waiting for its code into view; true once none is left.
function showWaitingFigure() {
  const waiting = document.querySelector('.figure-waiting');
  waiting?.scrollIntoView();
  return !waiting;
}

// Scrolls through every section (two frames at each), waits until no figure is still waiting
// for its code, and goes back to the top: the later sections' figures mount only as their
// section comes near (main.js mountLater), and a test of the whole page needs all of them.
export async function mountEveryFigure(page) {
  const sections = await page.evaluate(() =>
    [...document.querySelectorAll('section')].map((section) => section.id),
  );
  for (const [index, id] of sections.entries()) {
    await evaluateWithin(
      page,
      `two animation frames at section #${id} (mountEveryFigure)`,
      showSection,
      index,
    );
  }
  await poll(() => page.evaluate(showWaitingFigure), {
    timeout: WAIT_LIMIT_MS,
    message: 'a figure never mounted (mountEveryFigure)',
  });
  await page.evaluate(() => window.scrollTo(0, 0));
}
