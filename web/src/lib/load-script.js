// Loads a file that the page needs only later (learning.js, torch-outputs.js) as a classic
// <script>: that loads from file:// and under the page's CSP (script-src 'self'), where fetch()
// of a file would not. Each such file defines one global; loadScript resolves with it once the
// script has run, or rejects with a sentence naming what could not load, after which the next
// call tries again.
const loading = new Map(); // file -> promise of its global

// file: the path beside index.html; global: the name the file defines; what: what the file
// holds, for the message ("the trained head and the training text").
export function loadScript(file, global, what, documentRef = globalThis.document) {
  if (globalThis[global]) return Promise.resolve(globalThis[global]);
  if (!loading.has(file)) loading.set(file, inject(file, global, what, documentRef));
  return loading.get(file);
}

function inject(file, global, what, documentRef) {
  return new Promise((resolve, reject) => {
    const script = documentRef.createElement('script');
    script.src = file;
    script.onload = () =>
      globalThis[global]
        ? resolve(globalThis[global])
        : reject(new Error(`${file} loaded but held no data`));
    script.onerror = () => {
      loading.delete(file);
      script.remove();
      reject(new Error(`${what} (${file}) could not load`));
    };
    documentRef.head.append(script);
  });
}
