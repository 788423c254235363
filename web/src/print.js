// Printing the page, whatever the reader scrolled to. Ctrl+P (⌘P) and the page's Print button
// first start every figure not yet started (when-near.js: printing counts every section as
// near) and wait until none is busy, then open the browser's print. The browser's own menu
// prints at once: a figure that had not started then says so on paper, and starts for the next
// print. While printing, each canvas is printed as the picture it shows (an <img> of its
// bitmap beside it, so no figure redraws itself at the paper's width halfway through), the
// folded blocks are open, and the printout ends with the link of the state printed, which
// holds every figure's settings. The layout is print.css's.
import { nearEverything } from './lib/when-near.js';

const READY_WITHIN_MS = 20000; // then it prints what there is
// What a figure shows while it is not done: code still loading (main.js mountLater), work under
// way (aria-busy), the map computing.
const BUSY = '.figure-waiting, [aria-busy="true"], [data-role="computing"]:not([hidden])';
const NOT_STARTED =
  'This live figure had not started when the page was printed. Print with Ctrl+P (⌘P on a Mac) or the Print button at the top of the page, which start every figure first.';

function canvasImages(documentRef) {
  const images = [];
  for (const canvas of documentRef.querySelectorAll('canvas')) {
    if (!canvas.width || !canvas.height) continue;
    const image = documentRef.createElement('img');
    image.className = 'print-image';
    image.alt = canvas.getAttribute('aria-label') ?? '';
    image.src = canvas.toDataURL('image/png');
    if (canvas.clientWidth) image.width = canvas.clientWidth; // its size on screen, not its pixels
    canvas.after(image);
    images.push(image);
  }
  return images;
}

// What beforeprint changes, with the function that undoes it after printing.
function prepareTheSheet(documentRef, note, location) {
  const link = note.querySelector('a');
  link.href = location.href;
  link.textContent = location.href;
  const images = canvasImages(documentRef);
  const folded = [...documentRef.querySelectorAll('details.more:not([open])')];
  for (const details of folded) details.open = true;
  const waiting = [...documentRef.querySelectorAll('.figure-waiting')].map((element) => {
    const text = element.textContent;
    element.textContent = NOT_STARTED;
    return () => {
      if (element.textContent === NOT_STARTED) element.textContent = text;
    };
  });
  return () => {
    for (const image of images) image.remove();
    for (const details of folded) details.open = false;
    for (const restore of waiting) restore();
  };
}

const pause = (windowRef, ms) => new Promise((resolve) => windowRef.setTimeout(resolve, ms));

// Starts every figure, then resolves once none is busy (or after READY_WITHIN_MS) and two more
// frames have drawn what they finished.
async function everyFigureDrawn(documentRef, windowRef) {
  nearEverything(documentRef);
  const started = Date.now();
  while (documentRef.querySelector(BUSY) && Date.now() - started < READY_WITHIN_MS)
    await pause(windowRef, 100);
  for (const _ of [1, 2])
    await Promise.race([
      new Promise((resolve) => windowRef.requestAnimationFrame(resolve)),
      pause(windowRef, 100),
    ]);
}

// Ctrl+P (⌘P) and the Print button: every figure first, then the browser's print. The status
// says what it waits for.
function printWhenReady(documentRef, windowRef, status) {
  let preparing = false;
  return async () => {
    if (preparing) return;
    preparing = true;
    if (documentRef.querySelector(BUSY))
      status.textContent = 'Getting every figure ready to print…';
    await everyFigureDrawn(documentRef, windowRef);
    status.textContent = '';
    preparing = false;
    windowRef.print();
  };
}

// The Print button beside the theme's (none where the page has no header tools, as in the
// embedded view) and the status that says what printing waits for.
function printControls(documentRef) {
  const tools = documentRef.querySelector('.header-tools') ?? documentRef.body;
  const status = documentRef.createElement('span');
  status.className = 'print-status';
  status.setAttribute('role', 'status');
  const button = Object.assign(documentRef.createElement('button'), {
    type: 'button',
    className: 'ghost',
    textContent: 'Print the page',
  });
  if (tools !== documentRef.body) tools.append(button);
  tools.append(status);
  return { button, status };
}

export function setupPrint(documentRef = document, windowRef = window) {
  const note = documentRef.createElement('p');
  note.className = 'print-link';
  // Filled in at print time with the link of the state printed; a real address from the start
  // (a link without one is no link to a crawler).
  const link = Object.assign(documentRef.createElement('a'), { href: windowRef.location.href });
  note.append('The live page, in the state printed here: ', link);
  documentRef.body.append(note);
  const { button, status } = printControls(documentRef);
  const print = printWhenReady(documentRef, windowRef, status);
  button.addEventListener('click', print);
  windowRef.addEventListener('keydown', (event) => {
    const key = event.key?.toLowerCase();
    if (key !== 'p' || !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    event.preventDefault();
    print();
  });
  let undo = () => {};
  windowRef.addEventListener('beforeprint', () => {
    nearEverything(documentRef); // a print from the browser's menu: ready for the next one
    undo = prepareTheSheet(documentRef, note, windowRef.location);
  });
  windowRef.addEventListener('afterprint', () => {
    undo();
    undo = () => {};
  });
}
