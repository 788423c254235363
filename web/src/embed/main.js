// The embedded view's start (dist/embed.js, run before app.js): embed.html?figure=NAME#STATE
// shows one figure alone. It names the page's one slot after the figure, so that app.js
// (main.js, the full page's start-up, unchanged) mounts that figure only, with the same store
// and the same link state; keeps the "full page" link at the current state; and tells the
// parent page its height (HEIGHT_MESSAGE) whenever it changes, for the snippet's script.
import './embed.css';
import { EMBEDDABLE, HEIGHT_MESSAGE, isEmbeddable } from './figures.js';
import { fullPageUrl } from './snippet.js';

function refuse(name, slot) {
  const banner = document.getElementById('banner');
  const names = Object.keys(EMBEDDABLE).join(', ');
  const given = name === null ? 'no figure was named' : `“${name.slice(0, 40)}” is not one`;
  banner.textContent = `This view shows one figure of the page, named by ?figure= in its address: one of ${names}. Here ${given}. The link below opens the whole page.`;
  banner.hidden = false;
  slot.hidden = true;
}

function nameSlot(name, slot) {
  const { title } = EMBEDDABLE[name];
  slot.dataset.figure = name;
  document.getElementById('embedded-title').textContent = title;
  document.title = `${title} · Single attention head, live`;
}

// The link follows the state, which the figure rewrites in the address as it changes: it is
// brought up to date whenever it is about to be used.
function keepFullPageLink(link) {
  const refresh = () => {
    link.href = fullPageUrl(location.href, location.hash);
  };
  for (const type of ['pointerenter', 'focus', 'click', 'contextmenu']) {
    link.addEventListener(type, refresh);
  }
  refresh();
}

// The height of the whole view (html is as tall as its content: nothing here is sized by the
// viewport, which would feed the parent's resizing back into the height).
function postHeights(root, figure) {
  if (window.parent === window) return;
  let posted = 0;
  const post = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === posted) return;
    posted = height;
    window.parent.postMessage({ type: HEIGHT_MESSAGE, figure, height }, '*');
  };
  new ResizeObserver(post).observe(root);
}

function start() {
  const name = new URLSearchParams(location.search).get('figure');
  const slot = document.getElementById('embedded-figure');
  if (isEmbeddable(name)) nameSlot(name, slot);
  else refuse(name, slot);
  keepFullPageLink(document.getElementById('full-page'));
  postHeights(document.querySelector('main'), slot.dataset.figure ?? null);
}

start();
