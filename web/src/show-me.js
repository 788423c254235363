// "Show me" buttons in the narrative: a sentence that describes a state of the map can put
// the map in it. <button class="show-me" data-show='{"vectors":"token"}'>Show me</button>.
// A click sets those fields and brings the map into view. If the reader had changed the map
// from the tutorial's figure, the button says their settings were replaced and offers them
// back, so nothing of theirs is lost without a word.
import { keepInView } from './lib/keep-in-view.js';
import { DEFAULT_STATE, sameState, serializeHash } from './state.js';

// What the button says after a click, and what a second click does. Pure, for the tests:
// `before` is the map's state when the button was pressed.
export function afterShowing(before) {
  if (sameState(before, DEFAULT_STATE)) return { text: 'Shown on the map', restore: null };
  return { text: 'Shown. Back to your settings', restore: serializeHash(before) };
}

// The map's picture, followed while the page settles: on a phone, section 3's table above it
// changes size after the click, and a scroll aimed once ended with the map above the screen.
let stopFollowing = () => {};
function bringIntoView(figure) {
  stopFollowing();
  stopFollowing = keepInView(figure.querySelector('.map-canvas-wrap') ?? figure, {
    block: 'nearest',
  });
}

function wire(button, { dispatch, getSnapshot, figure }) {
  const label = button.textContent;
  const fields = JSON.parse(button.dataset.show);
  let restore = null;
  button.addEventListener('click', () => {
    if (restore) {
      dispatch({ type: 'load', hash: restore });
      restore = null;
      button.textContent = label;
      return;
    }
    const next = afterShowing(getSnapshot().requested);
    dispatch({ type: 'set', fields });
    restore = next.restore;
    button.textContent = next.text;
    bringIntoView(figure);
  });
}

// Wires every show-me button of `root`; each drives the map figure (the first [data-figure="map"]).
export function setupShowMe(root, store) {
  const figure = root.querySelector('[data-figure="map"]');
  for (const button of root.querySelectorAll('button.show-me[data-show]')) {
    button.hidden = false;
    wire(button, { dispatch: store.dispatch, getSnapshot: store.getSnapshot, figure });
  }
}
