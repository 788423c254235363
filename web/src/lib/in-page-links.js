// Links to a place on the same page (#big-idea, "See how it works", the sources) scroll to it
// without touching the address: the address holds what the reader typed and set (the page's
// link), and a plain in-page link would replace it with "#big-idea". Without JavaScript they
// work as ordinary links. The target gets focus, so keyboard and screen-reader users land there
// too.

// The element a same-page link points at, or null (another page, or a name that is not here).
export function inPageTarget(link, documentRef) {
  const href = link.getAttribute('href');
  if (!href?.startsWith('#') || href.length < 2) return null;
  return documentRef.getElementById(decodeURIComponent(href.slice(1)));
}

export function setupInPageLinks(documentRef, windowRef) {
  documentRef.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey) return;
    const link = event.target.closest?.('a[href^="#"]');
    const target = link && inPageTarget(link, documentRef);
    if (!target) return;
    event.preventDefault();
    const still = windowRef.matchMedia('(prefers-reduced-motion: reduce)').matches;
    target.scrollIntoView({ behavior: still ? 'auto' : 'smooth', block: 'start' });
    if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
    target.focus({ preventScroll: true });
  });
}
