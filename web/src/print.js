// Printing the page: each canvas is printed as the picture it shows at that moment (an <img>
// of its bitmap put beside it while the page prints, so no figure redraws itself at the
// paper's width halfway through), and the printout ends with the link of the state printed,
// so a paper copy leads back to the same live figures. The layout is print.css's.
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

export function setupPrint(documentRef = document, windowRef = window) {
  const note = documentRef.createElement('p');
  note.className = 'print-link';
  note.append('The live page, in the state printed here: ', documentRef.createElement('a'));
  documentRef.body.append(note);
  let images = [];
  windowRef.addEventListener('beforeprint', () => {
    const link = note.querySelector('a');
    link.href = windowRef.location.href;
    link.textContent = windowRef.location.href;
    images = canvasImages(documentRef);
  });
  windowRef.addEventListener('afterprint', () => {
    for (const image of images) image.remove();
    images = [];
  });
}
