// The "Embed" action under each figure a teacher may embed (figures.js): a disclosure that
// holds the <iframe> snippet for the figure as it is now (the link's state, read when the
// disclosure opens and when Copy is pressed), a Copy button and a link to the embedded view
// alone. Added by main.js to the full page; the embedded view has none.
import './embed-action.css';
import { EMBEDDABLE, isEmbeddable } from './figures.js';
import { embedUrl, snippet } from './snippet.js';

const AS_IT_IS = {
  true: 'as it is now',
  false: 'in its first view (its own settings are not part of the link)',
};

const MARKUP = (id, inLink) => `
  <summary>Embed</summary>
  <p><label for="${id}">Paste this into a course page or slides to show this figure, live, ${AS_IT_IS[inLink]}:</label></p>
  <textarea id="${id}" readonly rows="5" spellcheck="false"></textarea>
  <p class="button-row"><button type="button" data-role="copy">Copy the snippet</button>
  <a data-role="preview" target="_blank" rel="noopener">See it alone</a>
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

function addAction(slot, locationRef, hashFor) {
  const figure = slot.dataset.figure;
  const details = document.createElement('details');
  details.className = 'embed-action';
  // Static markup; the snippet goes in .value.
  details.innerHTML = MARKUP(`embed-snippet-${figure}`, EMBEDDABLE[figure].inLink === true);
  const textarea = details.querySelector('textarea');
  const $ = (role) => details.querySelector(`[data-role="${role}"]`);
  const refresh = () => {
    const src = embedUrl(locationRef.href, figure, hashFor(figure));
    textarea.value = snippet(figure, src);
    $('preview').href = src;
    $('copied').textContent = '';
  };
  details.addEventListener('toggle', () => details.open && refresh());
  $('copy').addEventListener('click', () => {
    refresh();
    copy(textarea, $('copied'));
  });
  slot.append(details);
}

// documentRef: the full page; locationRef: its location (the snippet's address);
// hashFor(figure): the link's state for that figure (main.js).
export function addEmbedActions(documentRef, locationRef, hashFor) {
  if (documentRef.body.dataset.view === 'embed') return;
  for (const slot of documentRef.querySelectorAll('[data-figure]')) {
    if (isEmbeddable(slot.dataset.figure)) addAction(slot, locationRef, hashFor);
  }
}
