// Keeps the URL hash equal to the link of what the page shows, without ever losing a link that
// arrives while a computation is pending.
//
// The hash is written only from what the page shows (its owner computes it), never from a
// request. Before writing, the last hash written is compared with the address bar: if they
// differ, someone opened a newer link (pasted, edited, Back) whose hashchange event may not
// have run yet, so instead of overwriting it with an older state it is loaded.
//
// A browser may refuse a write: Safari throws a SecurityError past 100 replaceState calls in
// a short time, which fast typing can reach. The newest hash is then written again a moment
// later, so the link never stays behind the page and nothing escapes as an error.
const RETRY_MS = 1000;

// location: { hash }, history: { replaceState }, load(hash): dispatches the link to the page;
// timers: { setTimeout, clearTimeout } (the page's own by default).
export function createHashSync({ location, history, load, timers = globalThis }) {
  let written = location.hash;
  let retry = null; // { hash, timer }: the newest hash, after a refused write

  function arrived() {
    if (location.hash === written) return false;
    written = location.hash;
    // A write waiting to be retried is of an older state than the link: drop it; the link's
    // own state is written when it is shown.
    if (retry) timers.clearTimeout(retry.timer);
    retry = null;
    load(written);
    return true;
  }

  function write(hash) {
    if (arrived() || !hash) return;
    if (hash === written) return;
    if (retry) timers.clearTimeout(retry.timer);
    retry = null;
    try {
      history.replaceState(null, '', hash);
    } catch {
      retry = { hash, timer: timers.setTimeout(() => write(retry.hash), RETRY_MS) };
      return;
    }
    written = location.hash;
  }

  // write(hash): called with the link of each state shown (null before the first good map).
  // arrived: the hashchange listener.
  return { write, arrived };
}
