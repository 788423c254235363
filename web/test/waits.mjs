// The time limit of every wait in the browser tests, and what a wait that runs out says. No
// wait may last without limit: a page that stops answering (an animation frame that never
// comes, a promise that never settles, a download that never ends) fails its test within the
// limit with "waited 30 s for: <what>", and the run goes on to the next test, instead of
// holding the whole suite until CI gives up on it. chromium.mjs applies these limits to every
// Chromium page the tests open, engines/page.mjs to every page of the three engines.

// Long enough for the slowest single evaluation on a busy 2-core machine (an axe run: about
// 10 s); a wait that needs longer says so with its own limit. WAIT_LIMIT_MS in the
// environment sets another (the proof that no test hangs, scripts/test/time-limits.test.mjs,
// sets 3 s).
export const WAIT_LIMIT_MS = Number(process.env.WAIT_LIMIT_MS) || 30_000;

const POLL_MS = 50;
const SHOWN_CHARACTERS = 140;

// The message of a wait that ran out: "waited 30 s for: <what>".
export const waited = (ms, what) => `waited ${ms / 1000} s for: ${what}`;

// Resolves or rejects as `promise` does, or rejects after `ms` with an Error naming `what`
// (its code: 'WAIT_LIMIT'). The promise is not cancelled (nothing can cancel a page's
// evaluation), only no longer awaited.
export function within(promise, what, ms = WAIT_LIMIT_MS) {
  let timer;
  const limit = new Promise((_, reject) => {
    const error = Object.assign(new Error(waited(ms, what)), { code: 'WAIT_LIMIT' });
    timer = setTimeout(() => reject(error), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

// A call as a wait's message names it, `page.evaluate(() => location.hash)`: functions and
// expressions as their source on one line, other arguments as JSON, each cut short.
export function callText(name, args) {
  const shown = args
    .filter((arg) => arg != null)
    .map((arg) => {
      const text =
        typeof arg === 'function' || typeof arg === 'string' ? String(arg) : JSON.stringify(arg);
      const line = String(text).replace(/\s+/g, ' ').trim();
      return line.length > SHOWN_CHARACTERS ? `${line.slice(0, SHOWN_CHARACTERS)}…` : line;
    });
  return `${name}(${shown.join(', ')})`;
}

// Calls `check` (async) until it returns a truthy value, which it returns; after `timeout` ms
// fails with `message` and the last value seen, so a failed wait reads as an assertion. A
// check that itself never answers fails with `message` too, after the same time.
export async function poll(check, { timeout = 10_000, message }) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const last = await within(check(), `a check to answer (${message})`, timeout);
    if (last) return last;
    if (Date.now() > deadline) {
      throw new Error(`${message} (after ${timeout} ms; last saw ${JSON.stringify(last)})`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
