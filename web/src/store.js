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
import { createChecks, crossCheck, DEFAULT_STATE, lessonRule, parseHash } from './state.js';

// Which control a core message belongs beside: the scale's own range, or else the text
// (the core's other refusals are about how many tokens the text makes).
const coreErrorField = (message) => (/scale|factor/i.test(message) ? 'scale' : 'text');

export function createStore(core, { hash = '', requestFrame = requestAnimationFrame } = {}) {
  const checks = createChecks(core.limits);
  const parsed = parseHash(hash, checks);
  const listeners = new Set();
  let requested = parsed.state;
  let state = null; // last computed state
  let result = null;
  let computeMs = 0;
  let fieldErrors = {};
  let coreError = null; // { field, message }
  let notices = parsed.messages;
  let highlight = null;
  let experiment = null; // id of the experiment whose whole state the map shows
  let recipeSwitched = false; // the lesson rule chose the standard recipe for the learner
  let attempted = null; // the requested state last handed to the core
  let frame = 0;
  let snapshot = null;

  function applyFields(fields) {
    const next = { ...requested };
    const changed = [];
    for (const [key, raw] of Object.entries(fields)) {
      const checked = checks[key] ? checks[key](raw) : { error: `unknown field ${key}` };
      if ('error' in checked) {
        fieldErrors = { ...fieldErrors, [key]: checked.error };
        continue;
      }
      const { [key]: _cleared, ...rest } = fieldErrors;
      fieldErrors = rest;
      next[key] = checked.value;
      changed.push(key);
    }
    return { next, changed };
  }

  const handlers = {
    set(action) {
      const { next, changed } = applyFields(action.fields);
      const lesson = lessonRule(next, changed);
      if (lesson.switched) recipeSwitched = true;
      else if (changed.includes('init') || (action.experiment && changed.length)) {
        recipeSwitched = false;
      }
      if (changed.length || action.experiment) experiment = action.experiment ?? null;
      if (changed.length) requested = Object.freeze(lesson.state);
    },
    load(action) {
      const loaded = parseHash(action.hash, checks);
      requested = loaded.state;
      notices = loaded.messages;
      fieldErrors = {};
      experiment = null;
      recipeSwitched = false;
    },
    highlight(action) {
      highlight =
        action.query === null || action.query === undefined
          ? null
          : Object.freeze({ query: action.query, key: action.key });
    },
    dismissNotices() {
      notices = [];
    },
  };

  function compute() {
    attempted = requested;
    const started = performance.now();
    try {
      result = Object.freeze(core.attentionMap(requested));
      computeMs = performance.now() - started;
      state = requested;
      coreError = null;
    } catch (error) {
      coreError = { field: coreErrorField(error.message), message: error.message };
      if (state === null) fallBack(error.message);
    }
  }

  // A link the core refuses on the very first computation: there is no last good figure to
  // keep, so the tutorial's figure is shown and the notice says why.
  function fallBack(message) {
    notices = [
      ...notices,
      `The link's map could not be computed: ${message} Showing the tutorial's figure.`,
    ];
    coreError = null;
    requested = DEFAULT_STATE;
    compute();
  }

  function errors(cross) {
    const all = { ...cross, ...fieldErrors };
    if (coreError && !all[coreError.field]) all[coreError.field] = coreError.message;
    return Object.freeze(all);
  }

  function publish() {
    frame = 0;
    const cross = crossCheck(requested);
    if (Object.keys(cross).length === 0 && requested !== attempted) compute();
    if (highlight && result && (highlight.query >= result.T || highlight.key >= result.T)) {
      highlight = null;
    }
    snapshot = Object.freeze({
      state,
      requested,
      result,
      errors: errors(cross),
      notices: Object.freeze([...notices]),
      highlight,
      experiment,
      recipeSwitched,
      computeMs,
    });
    for (const listener of listeners) listener(snapshot);
  }

  return {
    dispatch(action) {
      handlers[action.type](action);
      if (!frame) frame = requestFrame(publish);
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
