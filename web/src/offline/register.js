// Registers the page's service worker (sw.js beside index.html, written by the build from
// offline/sw.js), which lets the page open with no network after a first visit. Only where a
// browser allows one and it can help: a page served over https or from localhost (a secure
// context). Not from file://, where the page is on disk already and no browser allows one,
// and not in the embedded view, which lives in other sites' pages (web/src/embed/).
// A refusal (a host's policy, private browsing) changes nothing: the page works as it did.
// Resolves with what happened, in words (main.js declares it on <html data-offline>).
export function registerOffline(windowRef = window) {
  const { location, navigator, document } = windowRef;
  if (location.protocol !== 'https:' && location.protocol !== 'http:')
    return Promise.resolve('none: not served over http(s)');
  if (document.body.dataset.view === 'embed') return Promise.resolve('none: the embedded view');
  if (!windowRef.isSecureContext || !navigator.serviceWorker)
    return Promise.resolve('none: this browser offers no service worker here');
  return navigator.serviceWorker.register('sw.js').then(
    () => 'registered',
    (error) => `refused: ${error.message}`,
  );
}
