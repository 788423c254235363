// The link preview's tags in the built index.html (scripts/build-web.mjs): Open Graph and
// Twitter card tags from the page's own title and description, its picture (preview.png,
// scripts/preview-image.mjs), and, when the build knows the address the page is served from,
// the canonical link and og:url. That address is PAGE_URL in the build's environment (the Pages
// workflow sets it to the address it deploys to); a build without it names no address at all,
// and its picture's path is relative to the page, which previewers that resolve URLs as a
// browser does accept (Open Graph asks for an absolute URL, so only a build with the address
// has one).
import { PREVIEW } from './preview-image.mjs';

// The page's address with the trailing slash its files hang from, or null when none is given.
// env: the build's environment.
export function pageAddress(env) {
  const given = (env.PAGE_URL ?? '').trim();
  if (given === '') return null;
  let url;
  try {
    url = new URL(given);
  } catch {
    url = null;
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash)
    throw new Error(
      `PAGE_URL must be the http(s) address the page is served from, such as https://example.org/attention/ (it is “${given}”)`,
    );
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
}

// The values are HTML already (the page's own title and description, as index.html writes
// them): only a double quote must change to sit in an attribute.
const attribute = (html) => String(html).replace(/"/g, '&quot;');

function headText(html, pattern, what) {
  const found = html.match(pattern);
  if (!found) throw new Error(`web/index.html has no ${what} for the link preview`);
  return found[1];
}

const ALT = 'The attention map of “To be, or not”, computed by the page, beside its title.';

// The tags for a page with this title and description, at `address` (or null: none).
export function previewTags({ title, description }, address) {
  const image = address ? new URL(PREVIEW.file, address).href : PREVIEW.file;
  const meta = (name, entries) =>
    Object.entries(entries).map(
      ([key, value]) => `<meta ${name}="${key}" content="${attribute(value)}">`,
    );
  return [
    ...(address ? [`<link rel="canonical" href="${attribute(address)}">`] : []),
    ...meta('property', {
      'og:type': 'website',
      'og:title': title,
      'og:description': description,
      ...(address ? { 'og:url': address } : {}),
      'og:image': image,
      'og:image:width': PREVIEW.width,
      'og:image:height': PREVIEW.height,
      'og:image:alt': ALT,
    }),
    ...meta('name', {
      'twitter:card': 'summary_large_image',
      'twitter:title': title,
      'twitter:description': description,
      'twitter:image': image,
      'twitter:image:alt': ALT,
    }),
  ];
}

// index.html with the tags added to the end of its <head>.
export function withPreviewTags(html, address) {
  const title = headText(html, /<title>([^<]*)<\/title>/, '<title>');
  const description = headText(
    html,
    /<meta name="description" content="([^"]*)">/,
    '<meta name="description" content="…">',
  );
  const tags = previewTags({ title, description }, address);
  return html.replace('</head>', `  ${tags.join('\n  ')}\n</head>`);
}
