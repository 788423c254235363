// The one shared store. It holds the map's state, the last good core.attentionMap() result for
// it, the messages to show, and the highlighted query/key pair. Figures change it only through
// dispatch(action); every action of a frame is coalesced into one computation and one frozen
// snapshot per animation frame, handed to each subscriber.
//
// Actions:
//   { type: 'set', fields: { d: '64', causal: false, … }, experiment? }  checked by state.js
//   { type: 'load', hash }                       a whole new state from a link
//   { type: 'highlight', query, key }            query: null clears it
//   { type: 'dismissNotices' }
//
// Two states are kept: `requested` (what the controls show, every field that passed its own
// check) and `state` (what the map shows, the last one the core computed). They differ while a
// check that needs two fields fails (RoPE with an odd d) or the core rejects the request: the
// message goes beside the control and the last good figure stays.
import {
  createChecks,
  crossCheck,
  DEFAULT_STATE,
  parseHash,
  sameMap,
  savedModelOf,
  withSavedModel,
} from './state.js';

// Which control a refusal belongs beside: the request field the core blamed (core.js's
// error.field). One that names no field (none of the core's map refusals does; the trained
// head's module failing to load) goes beside the text box, the map's first control.
const refusedField = (outcome) => outcome.field ?? 'text';

// Applies the fields that pass their checks; the others get their message in fieldErrors.
function applyFields(store, fields) {
  const next = { ...store.requested };
  const changed = [];
  for (const [key, raw] of Object.entries(fields)) {
    const checked = store.checks[key] ? store.checks[key](raw) : { error: `unknown field ${key}` };
    const { [key]: _previous, ...others } = store.fieldErrors;
    store.fieldErrors = 'error' in checked ? { ...others, [key]: checked.error } : others;
    if ('error' in checked) continue;
    next[key] = checked.value;
    changed.push(key);
  }
  return { next, changed };
}

const HANDLERS = {
  set(store, action) {
    const { next, changed } = applyFields(store, action.fields);
    if (!changed.length && !action.experiment) return;
    // A control changes only its own field (and, for the trained head, what the head fixes).
    // The experiment stays on the map while only how it is drawn changes.
    const drawnOnly = changed.every((key) => key === 'stretch');
    if (!drawnOnly || action.experiment) store.experiment = action.experiment ?? null;
    store.requested = Object.freeze(withSavedModel(next));
  },
  load(store, action) {
    const loaded = parseHash(action.hash, store.checks);
    Object.assign(store, {
      requested: loaded.state,
      notices: loaded.messages,
      fieldErrors: {},
      experiment: null,
    });
  },
  highlight(store, action) {
    const cleared = action.query === null || action.query === undefined;
    store.highlight = cleared ? null : Object.freeze({ query: action.query, key: action.key });
  },
  dismissNotices(store) {
    store.notices = [];
  },
  // The same state asked for again: what it shows has changed outside the state (the grown
  // head has taken more steps).
  refresh(store) {
    store.attempted = null;
    store.forced = true;
  },
};

// Maps bigger than this many multiply-adds (about a millisecond of work; the core counts them)
// are computed in the background when the page has a worker; smaller ones at once, which is
// simpler and as fast. A text the core cannot count is computed at once, so its message comes
// back as any refusal does. The trained head's maps always go through the background, which
// first loads it (learning.js), then computes them on the page.
const INSTANT_WORK = 2e6;

// Is a map large (core.mapMultiplyAdds of its T tokens at its d)? The map itself tokenizes its
// text, so the count here is avoided where it can be: a text of n UTF-16 units makes at most n
// tokens, and a map that is small even at n is small; otherwise the core counts the tokens
// (core.tokenCount), once per text and tokens mode, however often d or the seed change.
function createSizer(core) {
  let counted = { text: null, tokens: null, T: 0 };
  const tokensOf = (state) => {
    if (counted.text !== state.text || counted.tokens !== state.tokens)
      counted = { text: state.text, tokens: state.tokens, T: core.tokenCount(state) };
    return counted.T;
  };
  return (state) => {
    try {
      const work = (T) => core.mapMultiplyAdds({ T, d: state.d });
      return work(state.text.length) > INSTANT_WORK && work(tokensOf(state)) > INSTANT_WORK;
    } catch {
      return false;
    }
  };
}

// The map asks the core for every weight and the working of the first rows only (section 3's
// figure shows 16 queries), so a long text never builds and copies every T×T intermediate.
const mapRequest = (state) => ({ ...state, detail: 'first-rows' });

function applyOutcome(store, request, outcome, ms) {
  if ('value' in outcome) {
    store.result = Object.freeze(outcome.value);
    store.computeMs = ms;
    store.state = request;
    store.coreError = null;
    return true;
  }
  const message = outcome.error;
  store.coreError = { field: refusedField(outcome), message };
  if (store.state !== null) return true;
  // A link the core refuses at the very start: no last good figure to keep, so the
  // tutorial's figure is shown and a notice says why.
  store.notices = [
    ...store.notices,
    `The link's map could not be computed: ${message} Showing the tutorial's figure.`,
  ];
  store.coreError = null;
  store.requested = DEFAULT_STATE;
  return false;
}

function computeNow(core, request) {
  try {
    return { value: core.attentionMap(mapRequest(request)) };
  } catch (error) {
    return { error: error.message, field: error.field };
  }
}

const goesToBackground = (store, background, request) =>
  Boolean(background) &&
  (savedModelOf(request) !== null || (store.state !== null && store.isLarge(request)));

// Computes store.requested; a background answer is kept only if nothing newer was asked since,
// and is published at once (it arrives when the worker finishes, not on a frame of its own).
function compute(
  store,
  core,
  background,
  publish,
  inBackground = goesToBackground(store, background, store.requested),
) {
  const request = store.requested;
  store.attempted = request;
  // The map shown already is the one asked for (only its colours changed, or the reader went
  // back to it after a refusal): the core's result stands, and no refusal applies to it.
  const forced = store.forced;
  store.forced = false;
  if (store.state !== null && !forced && sameMap(request, store.state)) {
    store.state = request;
    store.coreError = null;
    return;
  }
  const started = performance.now();
  if (!inBackground) {
    if (!applyOutcome(store, request, computeNow(core, request), performance.now() - started))
      compute(store, core, null, publish);
    return;
  }
  // A map asked for again (refresh) keeps the last one up without "Computing…" meanwhile.
  store.pending = forced ? null : request;
  background(mapRequest(request)).then((outcome) => {
    if (store.attempted !== request || outcome.stale) return;
    store.pending = null;
    // The core's own time where the background reports it, not the wait for the worker.
    const ms = outcome.ms ?? performance.now() - started;
    if (!applyOutcome(store, request, outcome, ms)) compute(store, core, null, publish);
    publish();
  });
}

function errorsOf(store, cross) {
  const all = { ...cross, ...store.fieldErrors };
  const { coreError } = store;
  if (coreError && !all[coreError.field]) all[coreError.field] = coreError.message;
  return Object.freeze(all);
}

function snapshotOf(store, cross) {
  const { result, highlight } = store;
  if (highlight && result && (highlight.query >= result.T || highlight.key >= result.T)) {
    store.highlight = null; // the map shrank under it
  }
  return Object.freeze({
    state: store.state,
    requested: store.requested,
    result,
    errors: errorsOf(store, cross),
    notices: Object.freeze([...store.notices]),
    highlight: store.highlight,
    experiment: store.experiment,
    computeMs: store.computeMs,
    pending: store.pending !== null && store.pending === store.attempted,
  });
}

// background(state) → Promise<{ value } | { error } | { stale }>: where large maps are computed
// (the compute worker); without it every map is computed at once on the page.
export function createStore(
  core,
  { hash = '', requestFrame = requestAnimationFrame, background = null } = {},
) {
  const checks = createChecks(core.limits);
  const parsed = parseHash(hash, checks);
  const store = {
    checks,
    isLarge: createSizer(core),
    requested: parsed.state,
    state: null, // the last state the core computed
    attempted: null, // the requested state last handed to the core
    result: null,
    computeMs: 0,
    fieldErrors: {},
    coreError: null, // { field, message }
    notices: parsed.messages,
    highlight: null,
    experiment: null, // id of the experiment whose whole state the map shows
    pending: null, // the requested state being computed in the background
    forced: false, // compute the requested state even if it is the one shown (refresh)
  };
  const listeners = new Set();
  let frame = 0;
  let snapshot = null;

  const republish = () => {
    if (!frame) frame = requestFrame(publish);
  };
  const computable = () =>
    store.requested !== store.attempted && Object.keys(crossCheck(store.requested)).length === 0;

  function publish() {
    frame = 0;
    const cross = crossCheck(store.requested);
    if (computable()) compute(store, core, background, publish);
    snapshot = snapshotOf(store, cross);
    for (const listener of listeners) listener(snapshot);
  }

  // A map bound for the background is sent when the task that asked for it ends, not a frame
  // later: the worker starts at once and the frame shows the controls (and later the map).
  let sending = false;
  function sendEarly() {
    sending = false;
    if (computable() && goesToBackground(store, background, store.requested))
      compute(store, core, background, publish, true);
  }

  return {
    dispatch(action) {
      HANDLERS[action.type](store, action);
      republish();
      if (!sending && background) {
        sending = true;
        queueMicrotask(sendEarly);
      }
    },
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    // The first computation runs at once, so the first map appears without waiting a frame.
    start: publish,
  };
}
