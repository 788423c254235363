// Builds the page into dist/: index.html, app.js (one bundle, Chart.js tree-shaken), app.css,
// and attention-core.js (the single-file wasm module from scripts/build-wasm.sh).
// PyTorch's equivalence outputs are embedded from tests/fixtures at build time as base64
// float32 (exact, and a third smaller than decimal text), so the proof panel needs no request.
// The compute worker is bundled separately and embedded in app.js as text.
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const wasmModule = join(root, 'build/wasm/attention-core.js');

const base64Float32 = (values) => Buffer.from(new Float32Array(values).buffer).toString('base64');

const torchOutputs = {
  name: 'torch-outputs',
  setup(build) {
    build.onResolve({ filter: /^virtual:torch-outputs$/ }, (args) => ({
      path: args.path,
      namespace: 'torch',
    }));
    build.onLoad({ filter: /.*/, namespace: 'torch' }, () => {
      const fixture = JSON.parse(
        readFileSync(join(root, 'tests/fixtures/equivalence.json'), 'utf8'),
      );
      return {
        loader: 'json',
        contents: JSON.stringify({
          causalFalse: base64Float32(fixture.torch_out_causal_false),
          causalTrue: base64Float32(fixture.torch_out_causal_true),
        }),
      };
    });
  },
};

// The training figure's text: the start of Tiny Shakespeare, cut at a speaker's turn, so the
// page carries about 25 KB (gzipped) of it rather than the whole 1.1 MB corpus.
export const SHAKESPEARE_CHARACTERS = 60000;
const shakespeareSlice = {
  name: 'shakespeare',
  setup(build) {
    build.onResolve({ filter: /^virtual:shakespeare$/ }, (args) => ({
      path: args.path,
      namespace: 'shakespeare',
    }));
    build.onLoad({ filter: /.*/, namespace: 'shakespeare' }, () => {
      const corpus = readFileSync(join(root, 'data/tinyshakespeare.txt'), 'utf8');
      const cut = corpus.lastIndexOf('\n\n', SHAKESPEARE_CHARACTERS);
      return { loader: 'text', contents: corpus.slice(0, cut + 1) };
    });
  },
};

// The trained head as the page needs it: the map uses E, P, Wq, Wk and Wv only (see
// learned_head_from in cpp/bindings.cpp), so the output projection and the unembedding, two of
// its seven float16 matrices, stay out of the bundle.
const MAP_MATRICES = ['embedding', 'position', 'query', 'key', 'value'];
const learnedHeadForMap = {
  name: 'learned-head-for-map',
  setup(build) {
    build.onLoad({ filter: /learned-head\.json$/ }, (args) => {
      const head = JSON.parse(readFileSync(args.path, 'utf8'));
      const parameters = Object.fromEntries(
        MAP_MATRICES.map((name) => [name, head.parameters[name]]),
      );
      return { loader: 'json', contents: JSON.stringify({ ...head, parameters }) };
    });
  },
};

// The compute worker's bundle, as a string the page turns into a Blob URL (start-worker.js).
const workerSource = {
  name: 'worker-source',
  setup(build) {
    build.onResolve({ filter: /^virtual:worker-source$/ }, (args) => ({
      path: args.path,
      namespace: 'worker-source',
    }));
    build.onLoad({ filter: /.*/, namespace: 'worker-source' }, async () => {
      const worker = await esbuild.build({
        entryPoints: [join(root, 'web/src/compute/worker-main.js')],
        bundle: true,
        minify: true,
        format: 'iife',
        target: ['es2020'],
        write: false,
        legalComments: 'none',
      });
      return { loader: 'text', contents: worker.outputFiles[0].text };
    });
  },
};

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
await esbuild.build({
  entryPoints: { app: join(root, 'web/src/main.js') },
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['es2020'],
  outdir: dist,
  plugins: [torchOutputs, workerSource, shakespeareSlice, learnedHeadForMap],
  legalComments: 'none',
  logLevel: 'warning',
});
for (const file of ['index.html', 'favicon.svg'])
  copyFileSync(join(root, 'web', file), join(dist, file));
copyFileSync(wasmModule, join(dist, 'attention-core.js'));
console.log('built dist/ (index.html, favicon.svg, app.js, app.css, attention-core.js)');
