// The sections after the map are `content-visibility: auto` (style.css), so that the first map
// does not wait for the first layout of the whole article. Once that map is on screen, each of
// them is laid out for good, one per frame, in order (the class `laid-out` makes it visible).
//
// Why not leave them to the engine: Firefox decides whether such a section is near the screen
// inside its ResizeObserver loop, so a section that came near there gave the boxes observed
// inside it their size in the middle of the loop, and Firefox reported "ResizeObserver loop
// completed with undelivered notifications" as an uncaught error (the experiments at 390 px
// from disk: in 8 of 10 runs with the sections left `auto`, in 0 of 10 with them visible).
const nextFrame = () =>
  new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

export async function layOutSections(documentRef = document, wait = nextFrame) {
  for (const section of documentRef.querySelectorAll('#map ~ .step')) {
    await wait();
    section.classList.add('laid-out');
  }
}
