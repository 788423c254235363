// The one static server (the page, its tests, the benchmark, the audit). Serves dist/ on
// http://localhost:PORT (default 8080) with no dependencies: GET/HEAD for files under one
// folder only, the right content types, gzip when the browser accepts it, and a
// revalidate-every-time cache policy (the files keep their names between builds). Each file is
// compressed once per version (its size and modification time), as a static host serves
// precompressed files: compressing the large scripts on every request delays the first map.
import { readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = fileURLToPath(new URL('../dist/', import.meta.url));
const port = Number(process.env.PORT || 8080);
const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
};

// Who may show a page in a frame: any page, for the embedded view of one figure (embed.html,
// made to sit in a teacher's page), and pages opened from disk too (slides often are; the
// policy's * leaves out file:); only the page itself for the rest. Sent as a header because
// a <meta> policy cannot say it; the <meta> policy in each page still applies.
const frameAncestors = (file) =>
  /(^|[\\/])embed\.html$/.test(file) ? 'frame-ancestors * file:' : "frame-ancestors 'self'";

const compressed = new Map(); // file -> { version, body }

// The file gzipped, read and compressed only when it is new or has changed since.
function gzipped(file) {
  const { size, mtimeMs } = statSync(file);
  const version = `${size}:${mtimeMs}`;
  if (compressed.get(file)?.version !== version)
    compressed.set(file, { version, body: gzipSync(readFileSync(file)) });
  return compressed.get(file).body;
}

function resolveFile(directory, urlPath) {
  const file = normalize(join(directory, urlPath));
  if (!file.startsWith(normalize(directory))) return null; // no escaping dist/ with ../
  return statSync(file, { throwIfNoEntry: false })?.isDirectory() ? join(file, 'index.html') : file;
}

// `only`: URL path prefixes that may be served (the benchmark serves the repository root
// but only its build/ and bench/ folders); by default everything under `directory`.
export function serve(directory = root, listenPort = port, { only = ['/'] } = {}) {
  const server = createServer((request, response) => {
    let file;
    try {
      const path = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
      const allowed = only.some((prefix) => normalize(path).startsWith(prefix));
      file = allowed ? resolveFile(directory, path) : null;
    } catch {
      file = null; // malformed %-encoding
    }
    if (
      !file ||
      !statSync(file, { throwIfNoEntry: false })?.isFile() ||
      !['GET', 'HEAD'].includes(request.method)
    ) {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not found\n');
      return;
    }
    const headers = {
      'content-type': types[extname(file)] || 'application/octet-stream',
      'cache-control': 'no-cache',
    };
    if (extname(file) === '.html') headers['content-security-policy'] = frameAncestors(file);
    const gzip = /\bgzip\b/.test(request.headers['accept-encoding'] || '');
    if (gzip) headers['content-encoding'] = 'gzip';
    const body = gzip ? gzipped(file) : readFileSync(file);
    headers['content-length'] = body.length;
    response.writeHead(200, headers);
    response.end(request.method === 'HEAD' ? undefined : body);
  });
  return new Promise((resolve) => server.listen(listenPort, '127.0.0.1', () => resolve(server)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const server = await serve();
  console.log(`Serving dist/ at http://localhost:${server.address().port}/  (Ctrl+C to stop)`);
}
