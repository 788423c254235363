// The "Embed" action under each figure a teacher may embed (figures.js): a disclosure that
// holds the <iframe> snippet for the figure as it is now (the link's state: the map's and the
// figure's own part), a Copy button and a link to the embedded view alone. While it is open,
// the snippet and the link follow every change of the figure. Added by main.js to the full
// page; the embedded view has none.
import './embed-action.css';
import { isEmbeddable } from './figures.js';
import { embedUrl, snippet } from './snippet.js';

// figure: an EMBEDDABLE name (figures.js), never text a reader typed.
const MARKUP = (figure, id = `embed-snippet-${figure}`) => `
  <summary>Embed</summary>
  <p><label for="${id}">Paste this into a course page or slides to show this figure, live, as it is now:</label></p>
  <textarea id="${id}" readonly rows="5" spellcheck="false"></textarea>
  <p class="button-row"><button type="button" data-role="copy">Copy the snippet</button>
  <a data-role="preview" href="embed.html?figure=${figure}" target="_blank" rel="noopener">See it alone</a>
  <span data-role="copied" role="status"></span></p>`;

async function copy(textarea, status) {
  try {
    await navigator.clipboard.writeText(textarea.value);
    status.textContent = 'Copied.';
  } catch {
    // No clipboard here (some browsers from file://, or permission refused): select it instead.
    textarea.focus();
    textarea.select();
    status.textContent = 'Selected: press Ctrl+C (⌘C on a Mac) to copy.';
  }
}

// Adds the disclosure to a figure's slot; returns refresh(), which brings an open one's snippet
// up to date (a snippet that has not changed is left alone, with any selection in it).
function addAction(slot, locationRef, hashFor) {
  const figure = slot.dataset.figure;
  const details = document.createElement('details');
  details.className = 'embed-action';
  details.innerHTML = MARKUP(figure); // static markup; the snippet goes in .value
  const textarea = details.querySelector('textarea');
  const $ = (role) => details.querySelector(`[data-role="${role}"]`);
  const refresh = () => {
    if (!details.open) return;
    const src = embedUrl(locationRef.href, figure, hashFor(figure));
    const code = snippet(figure, src);
    if (textarea.value === code) return;
    textarea.value = code;
    $('preview').href = src;
    $('copied').textContent = ''; // "Copied." was said of the snippet before
  };
  details.addEventListener('toggle', refresh);
  $('copy').addEventListener('click', () => {
    refresh();
    copy(textarea, $('copied'));
  });
  slot.append(details);
  return refresh;
}

// documentRef: the full page; locationRef: its location (the snippet's address); links: the
// page's link (main.js): hashFor(figure), the link's state for that figure, and follow(listener),
// called whenever the link changes.
export function addEmbedActions(documentRef, locationRef, links) {
  if (documentRef.body.dataset.view === 'embed') return;
  const refreshers = [...documentRef.querySelectorAll('[data-figure]')]
    .filter((slot) => isEmbeddable(slot.dataset.figure))
    .map((slot) => addAction(slot, locationRef, links.hashFor));
  links.follow(() => {
    for (const refresh of refreshers) refresh();
  });
}
