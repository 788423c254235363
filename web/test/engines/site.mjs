// A copy of the built page (dist/) prepared for the engine tests, in a fresh temporary folder:
// probe.js runs before any of the page's scripts, frame.html sits beside index.html for
// phone widths in WebKit, and `breakCore` truncates the wasm module to stand for a build
// whose core cannot load. Served over http by the project's one static server, and
// reachable as file:// too.
import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { serve } from '../../../scripts/serve.mjs';

const dist = fileURLToPath(new URL('../../../dist/', import.meta.url));
const here = (name) => fileURLToPath(new URL(name, import.meta.url));

function instrument(folder) {
  const indexFile = join(folder, 'index.html');
  const html = readFileSync(indexFile, 'utf8');
  const firstScript = html.indexOf('<script');
  if (firstScript < 0) throw new Error('dist/index.html has no <script>: was the page built?');
  const probe = '<script src="engine-probe.js"></script>\n  ';
  writeFileSync(indexFile, html.slice(0, firstScript) + probe + html.slice(firstScript));
  copyFileSync(here('probe.js'), join(folder, 'engine-probe.js'));
  copyFileSync(here('frame.html'), join(folder, 'frame.html'));
}

// Returns { http, file, close() }: the page's URL over http and from disk.
export async function makeSite({ breakCore = false } = {}) {
  const folder = mkdtempSync(join(tmpdir(), 'attention-engines-'));
  cpSync(dist, folder, { recursive: true });
  instrument(folder);
  if (breakCore) {
    const core = join(folder, 'attention-core.js');
    const source = readFileSync(core);
    writeFileSync(core, source.subarray(0, source.length >> 1));
  }
  const server = await serve(folder, 0);
  return {
    http: `http://127.0.0.1:${server.address().port}/index.html`,
    file: pathToFileURL(join(folder, 'index.html')).href,
    close() {
      server.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
