// Builds the page into dist/: index.html, app.js (one bundle, Chart.js tree-shaken), app.css,
// attention-core.js (the page's wasm module from scripts/build-wasm.sh), learning.js (the
// learning section's wasm module and data, loaded on first use: web/src/learning.js) and
// torch-outputs.js (PyTorch's outputs for the proof, loaded as its section comes near).
// The compute worker is bundled separately and embedded in app.js as text.
import * as esbuild from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { minify } from 'terser';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const wasmModule = join(root, 'build/wasm/attention-core.js');
const learningModule = join(root, 'build/wasm/attention-learning.js');

const base64Float32 = (values) => Buffer.from(new Float32Array(values).buffer).toString('base64');

// PyTorch's outputs for the proof's equivalence check (section 7), from tests/fixtures as base64
// float32 (exact, and a third smaller than decimal text), in a file of their own that the
// proof loads when its section comes near (web/src/lib/load-script.js): 8 KB gzipped that the
// first five sections do not need.
function torchOutputsScript() {
  const fixture = JSON.parse(readFileSync(join(root, 'tests/fixtures/equivalence.json'), 'utf8'));
  const outputs = {
    causalFalse: base64Float32(fixture.torch_out_causal_false),
    causalTrue: base64Float32(fixture.torch_out_causal_true),
  };
  return `globalThis.AttentionTorchOutputs = ${JSON.stringify(outputs)};\n`;
}

// The learning section's data, written into dist/learning.js after its module and loaded only
// when a reader needs it (web/src/learning.js): the trained head's weights, of which the map reads E, P,
// Wq, Wk and Wv only (learned_head_from in cpp/wasm/core_bindings.cpp; the output projection and the
// unembedding stay out), and the start of Tiny Shakespeare for section 6, cut at a speaker's
// turn (about 25 KB gzipped rather than the whole 1.1 MB corpus). The bundle's copy of the
// head's JSON keeps everything but the weights.
const SHAKESPEARE_CHARACTERS = 60000;
const MAP_MATRICES = ['embedding', 'position', 'query', 'key', 'value'];
const learnedHeadFile = join(root, 'web/assets/learned-head.json');

// A script minified by terser, after Emscripten 3.1.6 (which removes whitespace but keeps every
// name) or esbuild's minifier: a few KB less gzipped per script. The name `_scriptDir` stays: the compute
// worker rebuilds the core's factory from its source text and declares that one variable for
// it (web/src/compute/start-worker.js).
async function minified(file) {
  const { code } = await minify(readFileSync(file, 'utf8'), {
    compress: { passes: 2 },
    mangle: { reserved: ['_scriptDir'] },
  });
  return code;
}

// The native runs' table (`npm run train -- --save-results`): each width's learning rate and
// the seed spread that section 6's sentences hold a difference to. null when the file is not
// there: the page then says it cannot judge differences and asks for a learning rate.
const learningResultsFile = join(root, 'web/assets/learning-results.json');
function learningResults() {
  if (!existsSync(learningResultsFile)) return null;
  const { seeds, learningRates, page } = JSON.parse(readFileSync(learningResultsFile, 'utf8'));
  return { seeds, learningRates, page };
}

async function learningScript() {
  const head = JSON.parse(readFileSync(learnedHeadFile, 'utf8'));
  const corpus = readFileSync(join(root, 'data/tinyshakespeare.txt'), 'utf8');
  const cut = corpus.lastIndexOf('\n\n', SHAKESPEARE_CHARACTERS);
  const data = {
    parameters: Object.fromEntries(MAP_MATRICES.map((name) => [name, head.parameters[name]])),
    shakespeare: corpus.slice(0, cut + 1),
    results: learningResults(),
  };
  const module = await minified(learningModule);
  return `${module}\nglobalThis.AttentionLearningData = ${JSON.stringify(data)};\n`;
}

const learnedHeadWithoutWeights = {
  name: 'learned-head-without-weights',
  setup(build) {
    build.onLoad({ filter: /learned-head\.json$/ }, (args) => {
      const { parameters: _weights, ...head } = JSON.parse(readFileSync(args.path, 'utf8'));
      return { loader: 'json', contents: JSON.stringify(head) };
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
  plugins: [workerSource, learnedHeadWithoutWeights],
  legalComments: 'none',
  logLevel: 'warning',
});
for (const file of ['index.html', 'favicon.svg'])
  copyFileSync(join(root, 'web', file), join(dist, file));
writeFileSync(join(dist, 'app.js'), await minified(join(dist, 'app.js')));
writeFileSync(join(dist, 'attention-core.js'), await minified(wasmModule));
writeFileSync(join(dist, 'learning.js'), await learningScript());
writeFileSync(join(dist, 'torch-outputs.js'), torchOutputsScript());
console.log(
  'built dist/ (index.html, favicon.svg, app.js, app.css, attention-core.js, learning.js, torch-outputs.js)',
);
