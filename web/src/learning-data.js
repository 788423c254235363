// The learning section's data, loaded only when a reader needs it: the trained head's weights
// (the map's "token, trained" vectors) and the slice of Shakespeare that section 6 trains on,
// about 66 KB gzipped together, a fifth of the page. scripts/build-web.mjs writes them into
// dist/learning-data.js, a classic script beside app.js that sets
// globalThis.AttentionLearningData = { parameters, shakespeare }: a script tag loads from
// file:// and under the page's CSP (script-src 'self'), where fetch() of a file would not.
// In Node (the tests) the data is already there: learned-head.js reads the whole JSON.
const FILE = 'learning-data.js';

let loading = null;

// Resolves with { parameters, shakespeare } once the script has run; rejects with a sentence
// when it cannot load (then the next call tries again).
export function loadLearningData(documentRef = globalThis.document) {
  if (globalThis.AttentionLearningData) return Promise.resolve(globalThis.AttentionLearningData);
  loading ??= new Promise((resolve, reject) => {
    const script = documentRef.createElement('script');
    script.src = FILE;
    script.onload = () =>
      globalThis.AttentionLearningData
        ? resolve(globalThis.AttentionLearningData)
        : reject(new Error(`${FILE} loaded but held no data`));
    script.onerror = () => {
      loading = null;
      script.remove();
      reject(
        new Error(`the trained head's weights and the training text (${FILE}) could not load`),
      );
    };
    documentRef.head.append(script);
  });
  return loading;
}
