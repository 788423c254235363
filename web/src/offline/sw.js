// The page's service worker: after a first visit over https (or from localhost), the page opens
// and every figure works with no network at all, on a train or in a classroom whose Wi-Fi
// dropped. scripts/service-worker.mjs copies this file into dist/sw.js with BUILD filled in:
// the build's version (a hash of dist's files) and each file the page may load with its own
// hash. It is not bundled: a service worker is its own script, beside the page.
//
// One version at a time, never a mix: a version's files are cached together when its worker
// installs, each checked against the hash the build wrote (a host caught between two deploys
// fails the install, and the browser tries again at a later visit); every file the page asks
// for comes from that one cache. A new deploy changes this file (its version), so the browser,
// which looks for a new service worker at every visit, installs the new version beside the old
// one; the old one keeps serving the pages open on it, and once they are closed the new one
// takes over (at the next visit) and deletes the old cache. Anything else (another origin, a
// file the build did not list) goes to the network as if there were no service worker.
const BUILD = { version: 'unbuilt', files: {} }; // filled in by scripts/service-worker.mjs

const PREFIX = 'attention-head-';
const CACHE = `${PREFIX}${BUILD.version}`;

const hex = (buffer) =>
  [...new Uint8Array(buffer)].map((byte) => byte.toString(16).padStart(2, '0')).join('');

// One file from the host, refused unless it is the build's: a mixed set is never cached.
async function fetchChecked(file) {
  const response = await fetch(new Request(file, { cache: 'reload' }));
  if (!response.ok) throw new Error(`${file}: HTTP ${response.status}`);
  const digest = await crypto.subtle.digest('SHA-256', await response.clone().arrayBuffer());
  if (hex(digest) !== BUILD.files[file]) throw new Error(`${file} is not this version's`);
  return response;
}

async function install() {
  const files = Object.keys(BUILD.files);
  const responses = await Promise.all(files.map(fetchChecked));
  const cache = await caches.open(CACHE);
  await Promise.all(files.map((file, index) => cache.put(file, responses[index])));
}

async function dropOtherVersions() {
  const names = await caches.keys();
  const others = names.filter((name) => name.startsWith(PREFIX) && name !== CACHE);
  await Promise.all(others.map((name) => caches.delete(name)));
}

// The build's name for a request to this worker's folder ('' is the folder's index.html), or
// null for anything else. The query is not part of it: embed.html?figure=map is embed.html.
function ownFile(request) {
  if (request.method !== 'GET') return null;
  const scope = new URL(self.registration.scope);
  const url = new URL(request.url);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return null;
  const file = url.pathname.slice(scope.pathname.length) || 'index.html';
  return Object.hasOwn(BUILD.files, file) ? file : null;
}

// From this version's cache; from the network only if the browser has dropped the cache.
async function fromCache(file, request) {
  const cached = await (await caches.open(CACHE)).match(file);
  return cached ?? fetch(request);
}

self.addEventListener('install', (event) => event.waitUntil(install()));
self.addEventListener('activate', (event) => event.waitUntil(dropOtherVersions()));
self.addEventListener('fetch', (event) => {
  const file = ownFile(event.request);
  if (file) event.respondWith(fromCache(file, event.request));
});
