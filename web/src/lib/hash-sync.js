// Keeps the URL hash equal to the state the map shows, without ever losing a link that
// arrives while a computation is pending.
//
// The hash is written only from a snapshot's state (serializeHash), never from a request.
// Before writing, the last hash we wrote is compared with the address bar: if they differ,
// someone opened a newer link (pasted, edited, Back) whose hashchange event may not have run
// yet, so instead of overwriting it with our older state we load it.
import { serializeHash } from '../state.js';

// location: { hash }, history: { replaceState }, load(hash): dispatches the link to the store.
export function createHashSync({ location, history, load }) {
  let written = location.hash;

  function arrived() {
    if (location.hash === written) return false;
    written = location.hash;
    load(written);
    return true;
  }

  return {
    // Called with each snapshot's state (null before the first good map).
    write(state) {
      if (arrived() || !state) return;
      const hash = serializeHash(state);
      if (hash === written) return;
      history.replaceState(null, '', hash);
      written = location.hash;
    },
    // The hashchange listener.
    arrived,
  };
}
