// Keeps the URL hash equal to the state the map shows, without ever losing a link that
// arrives while a computation is pending.
//
// The hash is written only from a snapshot's state (serializeHash), never from a request.
// Before writing, the last hash we wrote is compared with the address bar: if they differ,
// someone opened a newer link (pasted, edited, Back) whose hashchange event may not have run
// yet, so instead of overwriting it with our older state we load it.
//
// A browser may refuse a write: Safari throws a SecurityError past 100 replaceState calls in
// a short time, which fast typing can reach. The newest state is then written again a moment
// later, so the link never stays behind the map and nothing escapes as an error.
import { serializeHash } from '../state.js';

const RETRY_MS = 1000;

// location: { hash }, history: { replaceState }, load(hash): dispatches the link to the store;
// timers: { setTimeout, clearTimeout } (the page's own by default).
export function createHashSync({ location, history, load, timers = globalThis }) {
  let written = location.hash;
  let retry = null; // { state, timer }: the newest state, after a refused write

  function arrived() {
    if (location.hash === written) return false;
    written = location.hash;
    // A write waiting to be retried is of an older state than the link: drop it; the link's
    // own state is written when its map is shown.
    if (retry) timers.clearTimeout(retry.timer);
    retry = null;
    load(written);
    return true;
  }

  function write(state) {
    if (arrived() || !state) return;
    const hash = serializeHash(state);
    if (hash === written) return;
    if (retry) timers.clearTimeout(retry.timer);
    retry = null;
    try {
      history.replaceState(null, '', hash);
    } catch {
      retry = { state, timer: timers.setTimeout(() => write(retry.state), RETRY_MS) };
      return;
    }
    written = location.hash;
  }

  // write: called with each snapshot's state (null before the first good map). arrived: the
  // hashchange listener.
  return { write, arrived };
}
