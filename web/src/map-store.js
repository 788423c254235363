// The one shared store: the map's state, its last good result from the core, and the
// messages to show. Figures call update() and subscribe(); the store checks every field,
// coalesces changes into one computation per animation frame, keeps the last good result
// when the core rejects an input, and mirrors the state into the URL hash.
import { CHECKS, parseHash, serializeHash } from './state.js';

// The core takes the scale as { mode, factor } and positions as 'none' | 'sinusoidal'; this
// store's state still holds 'sqrt' | 'd' | 'none' | a number, and a flag.
function coreArguments(state) {
  const { scale, pos } = state;
  const shaped = typeof scale === 'number' ? { mode: 'custom', factor: scale } : { mode: scale };
  return { ...state, scale: shaped, pos: pos ? 'sinusoidal' : 'none' };
}

export function createMapStore(core, { hash = '', onHashWrite = () => {} } = {}) {
  const parsed = parseHash(hash);
  let state = parsed.state;
  let pending = null; // state waiting for the next frame
  let frame = 0;
  let fieldErrors = {}; // field -> message from the page's own checks
  let coreError = null; // the core's message for the last computation, if it failed
  const snapshot = {
    state,
    result: null, // last good core.attentionMap() result
    errors: {}, // field -> message, shown beside that field's control
    notices: parsed.messages, // messages about the link itself
    computeMs: 0,
  };
  const listeners = new Set();

  function notify() {
    snapshot.errors = coreError ? { ...fieldErrors, text: coreError } : { ...fieldErrors };
    for (const listener of listeners) listener(snapshot);
  }

  function compute() {
    frame = 0;
    const candidate = pending;
    pending = null;
    const started = performance.now();
    try {
      snapshot.result = core.attentionMap(coreArguments(candidate));
      snapshot.computeMs = performance.now() - started;
      state = candidate;
      snapshot.state = state;
      coreError = null;
      onHashWrite(serializeHash(state));
    } catch (error) {
      // The core's message (e.g. too many tokens) goes beside the text box; the figure stays.
      coreError = error.message;
    }
    notify();
  }

  function schedule(next) {
    pending = next;
    if (!frame) frame = requestAnimationFrame(compute);
  }

  return {
    get: () => snapshot,

    // patch: { field: raw value } from controls. Bad fields get a message and are not applied.
    update(patch) {
      const next = { ...(pending || state) };
      let changed = false;
      for (const [key, raw] of Object.entries(patch)) {
        const checked = CHECKS[key](raw);
        if ('error' in checked) {
          fieldErrors[key] = checked.error;
        } else {
          delete fieldErrors[key];
          next[key] = checked.value;
          changed = true;
        }
      }
      if (changed) schedule(next);
      else notify();
    },

    // A whole new state from a link (hashchange): bad keys fall back to defaults with a notice.
    load(newHash) {
      const { state: next, messages } = parseHash(newHash);
      snapshot.notices = messages;
      fieldErrors = {};
      schedule(next);
    },

    dismissNotices() {
      snapshot.notices = [];
      notify();
    },

    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    // The first computation runs at once, so the first map appears without waiting a frame.
    start() {
      pending = state;
      compute();
    },
  };
}
