// Scrolls an element to the top of the screen and keeps it there while the page settles. A
// button that changes the map's state also changes the figures around it (they redraw for the
// new state in the frames after the click, and a figure may load as the page scrolls past
// it), so a scroll aimed once, at the click, ends where the element was, not where it is: at
// phone width the map ended 268 px above the screen. Here the aim is taken again whenever the
// element moves in the page, until the page has been still for a while or the reader scrolls.
// Not a figure: used by any control that sends the reader to a figure.

// How long the page must stay still before the element is left alone.
const STILL_MS = 600;
// And the longest it is followed at all.
const LONGEST_MS = 4000;

// What the reader does to take over the scrolling.
const READER_SCROLLS = ['wheel', 'touchstart', 'keydown', 'pointerdown'];

// Where the element is in the page, and how tall: a note that appears under a map makes it
// taller without moving it, and must be brought into view too.
const placeOf = (element) => {
  const box = element.getBoundingClientRect();
  return { top: box.top + window.scrollY, height: box.height };
};
const moved = (a, b) => Math.abs(a.top - b.top) > 1 || Math.abs(a.height - b.height) > 1;

// block: 'start' brings the element to the top; 'nearest' scrolls only as far as it takes to
// show it (nothing, when it is in view already).
export function keepInView(element, { block = 'start' } = {}) {
  const smooth = !matchMedia('(prefers-reduced-motion: reduce)').matches;
  const aim = () => element.scrollIntoView({ behavior: smooth ? 'smooth' : 'auto', block });
  const started = performance.now();
  let place = placeOf(element);
  let stillSince = started;
  let frame = 0;
  const stop = () => {
    cancelAnimationFrame(frame);
    for (const type of READER_SCROLLS) window.removeEventListener(type, stop, true);
  };
  const follow = (time) => {
    const current = placeOf(element);
    if (moved(current, place)) {
      place = current;
      stillSince = time;
      aim();
    }
    if (time - stillSince > STILL_MS || time - started > LONGEST_MS) return stop();
    frame = requestAnimationFrame(follow);
  };
  for (const type of READER_SCROLLS) window.addEventListener(type, stop, true);
  aim();
  frame = requestAnimationFrame(follow);
  return stop;
}
