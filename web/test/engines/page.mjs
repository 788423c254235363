// The one page interface every engine driver returns, so a browser test is written once:
//   evaluate(fn, ...args)            runs fn (a function, or its source text) in the page;
//                                    fn must not close over Node values and returns JSON
//   waitFor(fn, { timeout, message }, ...args)  polls fn until it returns a truthy value, or
//                                    fails with `message` and the last value it saw
//   click(selector | { text }), fill(selector, value), choose(selector, value),
//   setChecked(selector, on)         DOM-level input, the same in every engine
//   problems()                       console errors, uncaught errors, unhandled rejections and
//                                    CSP violations, from the engine's log API where it has one
//                                    and from probe.js (installed in the page) everywhere
//   screenshot(path), close()
// An engine supplies a transport: { name, evaluateExpression(source), nativeProblems,
// screenshot, close }, where evaluateExpression evaluates a JavaScript expression (awaiting a
// promise) in the page through the automation protocol, which the page's CSP does not govern.
// Every call into the page is bounded (../waits.mjs) and a time-out names the call and engine.
import { writeFileSync } from 'node:fs';
import { callText, poll, within } from '../waits.mjs';

// DOM actions, run inside the page. Each fires the events a person's input would.
function clickInPage(target) {
  const element =
    typeof target === 'string'
      ? document.querySelector(target)
      : [...document.querySelectorAll('button')].find((button) =>
          button.textContent.includes(target.text),
        );
  if (!element) return `nothing matches ${JSON.stringify(target)}`;
  element.click();
  return '';
}

function fillInPage(selector, value) {
  const element = document.querySelector(selector);
  if (!element) return `nothing matches ${selector}`;
  element.value = value;
  element.dispatchEvent(new Event('input', { bubbles: true }));
  element.dispatchEvent(new Event('change', { bubbles: true }));
  return element.value === String(value) ? '' : `${selector} refused the value ${value}`;
}

function setCheckedInPage(selector, on) {
  const element = document.querySelector(selector);
  if (!element) return `nothing matches ${selector}`;
  if (element.checked !== on) element.click();
  return '';
}

// Playwright's and Puppeteer's pages report console errors and uncaught errors the same way.
export function collectProblems(page) {
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  return problems;
}

// The transport makePage needs, for a Playwright or Puppeteer page.
export function driverTransport(name, page, nativeProblems) {
  return {
    name,
    evaluateExpression: (source) => page.evaluate(source),
    nativeProblems,
    screenshot: () => page.screenshot({ fullPage: true }),
    close: () => page.close(),
  };
}

export function makePage(transport) {
  const evaluate = (fn, ...args) =>
    within(
      transport.evaluateExpression(`(${fn})(...${JSON.stringify(args)})`),
      `${callText('evaluate', [fn, ...args])} in ${transport.name}`,
    );
  const act = async (fn, ...args) => {
    const failure = await evaluate(fn, ...args);
    if (failure) throw new Error(failure);
  };
  return {
    evaluate,
    waitFor: (fn, options, ...args) => poll(() => evaluate(fn, ...args), options),
    click: (target) => act(clickInPage, target),
    fill: (selector, value) => act(fillInPage, selector, String(value)),
    choose: (selector, value) => act(fillInPage, selector, value),
    setChecked: (selector, on) => act(setCheckedInPage, selector, on),
    async problems() {
      const inPage = await evaluate(() => globalThis.__engineProblems ?? ['probe.js did not run']);
      return [...transport.nativeProblems, ...inPage];
    },
    async screenshot(path) {
      writeFileSync(
        path,
        await within(transport.screenshot(), `a screenshot in ${transport.name}`),
      );
    },
    close: () => within(transport.close(), `${transport.name} to close the page`),
  };
}
