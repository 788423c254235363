// Calls `callback` once, when `element`'s section comes within one screen of the viewport: how
// the page fetches what a later section needs (learning.js, torch-outputs.js) before a reader
// gets there, and not before. Returns a function that stops watching.
//
// The section, not the element: the sections after the map are `content-visibility: auto`
// (style.css), and what lies inside one has no layout while it is skipped, so whether an
// observer of the element fires depends on how the engine orders the section's own relevance
// update and the observer's. Firefox once left the proof's figure on screen for 10 s without
// telling its observer (engine test, from disk at 390 px); the section always has a box.
//
// Printing needs every figure wherever the reader stands: nearEverything() (print.js) calls every
// callback still waiting, and from then on each new one at once (a figure that mounts later
// asks later). It is an event and a mark on the document, not a list here, because each bundle
// (app.js, later-figures.js) holds its own copy of this module.
export const EVERYTHING_NEAR = 'attention-head:everything-near';

export const everythingIsNear = (documentRef = document) =>
  documentRef.documentElement.dataset.everythingNear === 'true';

export function nearEverything(documentRef = document) {
  documentRef.documentElement.dataset.everythingNear = 'true';
  documentRef.dispatchEvent(new Event(EVERYTHING_NEAR));
}

export function whenNear(element, callback) {
  const section = element.closest('section') ?? element;
  const documentRef = element.ownerDocument;
  let called = false;
  const stop = () => {
    observer.disconnect();
    section.removeEventListener('contentvisibilityautostatechange', rendered);
    documentRef.removeEventListener(EVERYTHING_NEAR, call);
  };
  const call = () => {
    if (called) return;
    called = true;
    stop();
    callback();
  };
  const observer = new IntersectionObserver(([entry]) => entry.isIntersecting && call(), {
    rootMargin: '100% 0px',
  });
  // Also when the engine starts rendering the section (content-visibility: auto): in a clean
  // clone's engine run, Firefox once showed section 5 for 10 s without telling the observer.
  const rendered = (event) => !event.skipped && call();
  observer.observe(section);
  section.addEventListener('contentvisibilityautostatechange', rendered);
  documentRef.addEventListener(EVERYTHING_NEAR, call);
  if (everythingIsNear(documentRef)) queueMicrotask(call);
  return stop;
}
