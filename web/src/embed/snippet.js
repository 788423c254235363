// The <iframe> snippet a teacher pastes into a course page, and the addresses it is built
// from. Pure: no DOM, so Node tests it (web/test/unit/embed-snippet.test.mjs).
//
// The snippet is an iframe that fits a fixed aspect ratio on its own, followed by a
// five-line script that, when the host page allows scripts, sets the iframe's height to
// the one the embedded view reports (HEIGHT_MESSAGE), so nothing scrolls inside it.
import { EMBEDDABLE, HEIGHT_MESSAGE } from './figures.js';

// The embedded view of `figure` beside `pageHref` (the full page's address), carrying the
// link's state (`hash`, the same #text=…&d=… the full page reads).
export function embedUrl(pageHref, figure, hash) {
  const url = new URL('embed.html', pageHref);
  url.search = `?figure=${encodeURIComponent(figure)}`;
  url.hash = hash;
  return url.href;
}

// The full page for an embedded view's address (`embedHref`), with the same state.
export function fullPageUrl(embedHref, hash) {
  const url = new URL('index.html', embedHref);
  url.hash = hash;
  return url.href;
}

const escapeAttribute = (text) =>
  String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

// Five lines, so that a teacher can read what they paste: only a height message from one
// of these iframes is heeded, and only as a height in CSS pixels.
const RESIZE_SCRIPT = [
  '<script>',
  'addEventListener("message", function (event) {',
  '  var frame = [].find.call(document.querySelectorAll("iframe[data-attention-head]"), function (f) { return f.contentWindow === event.source; });',
  `  if (!frame || !event.data || event.data.type !== "${HEIGHT_MESSAGE}") return;`,
  '  frame.style.aspectRatio = "auto"; frame.style.height = Number(event.data.height) + "px";',
  '});',
  '</script>',
];

export function snippet(figure, src) {
  const { title, aspect } = EMBEDDABLE[figure];
  const iframe =
    `<iframe src="${escapeAttribute(src)}" title="${escapeAttribute(title)}" ` +
    `data-attention-head loading="lazy" ` +
    `style="display:block;width:100%;aspect-ratio:${aspect};border:1px solid #ccc;border-radius:8px"></iframe>`;
  return [iframe, ...RESIZE_SCRIPT].join('\n');
}
