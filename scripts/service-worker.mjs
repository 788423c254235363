// Writes dist/sw.js, the page's service worker, from web/src/offline/sw.js: its BUILD line
// filled in with the build's version and every file the page may load, each with its SHA-256.
// The version is a hash of those names and hashes, so any changed byte makes a new version,
// and sw.js itself changes with it, which is how a browser learns of a new deploy.
// build-web.mjs calls it last, once dist/ is complete; web/test/offline.test.mjs calls it on
// copies of dist/ that it changes, as a new deploy would.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const template = new URL('../web/src/offline/sw.js', import.meta.url);
export const SERVICE_WORKER = 'sw.js';
// In dist/ but never loaded by the page: the link preview's picture, fetched by other sites.
const NOT_THE_PAGES = new Set([SERVICE_WORKER, 'preview.png']);
const BUILD_LINE = /^const BUILD = .*$/m;

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

// The files of `dist` the page may load, each with its hash, in name order.
export function pageFiles(dist) {
  const names = readdirSync(dist)
    .filter((name) => !NOT_THE_PAGES.has(name))
    .sort();
  return Object.fromEntries(names.map((name) => [name, sha256(readFileSync(join(dist, name)))]));
}

// Writes `dist`/sw.js; returns { version, files }.
export function writeServiceWorker(dist) {
  const files = pageFiles(dist);
  const version = sha256(JSON.stringify(files)).slice(0, 16);
  const source = readFileSync(template, 'utf8');
  if (!BUILD_LINE.test(source)) throw new Error('web/src/offline/sw.js has no BUILD line to fill');
  const build = `const BUILD = ${JSON.stringify({ version, files })};`;
  writeFileSync(
    join(dist, SERVICE_WORKER),
    source.replace(BUILD_LINE, () => build),
  );
  return { version, files };
}
