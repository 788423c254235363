// Builds the page into dist/: index.html, app.js (the first screen, the map and the sections
// before it), later-figures.js (the later sections' figures with Chart.js, tree-shaken, loaded as
// they come near: web/src/later-figures.js lists them), app.css,
// attention-core.js (the page's wasm module from scripts/build-wasm.sh), copying-head.js and
// trained-head.js (the saved models' weights), learning.js (the
// learning section's wasm module and data, loaded on first use: web/src/learning.js) and
// torch-outputs.js (PyTorch's outputs for the proof, loaded as its section comes near), and
// the embedded view of one figure (embed.html, embed.js, embed.css: web/src/embed/), the link
// preview's tags in index.html (scripts/link-preview.mjs: with the canonical link and og:url
// when PAGE_URL names the address the page is served from) and its picture (preview.png,
// scripts/preview-image.mjs), and the service worker that keeps the page working offline
// (sw.js, scripts/service-worker.mjs).
// The compute worker is bundled separately and embedded in app.js as text.
import * as esbuild from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { minify } from 'terser';
import { pageAddress, withPreviewTags } from './link-preview.mjs';
import { PREVIEW, renderPreviewImage } from './preview-image.mjs';
import { writeServiceWorker } from './service-worker.mjs';

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

// The saved models' weights, each in a classic script of its own that defines one global
// (web/src/trained/weights.js): loaded from file:// and under the CSP, and cached apart from the
// code. copying-head.js, every tensor of the copying head (the first screen shows its maps and its
// next-character guesses; index.html loads it with the page); trained-head.js, the five matrices
// of the trained head a map reads (x = E + P, q, k, v: trained_bindings.cpp; the output
// projection and the unembedding stay out), loaded when a reader first picks it. The bundles
// carry each JSON without its weights (savedModelsWithoutWeights).
const TRAINED_MAP_MATRICES = ['embedding', 'position', 'query', 'key', 'value'];
const savedModel = (name) =>
  JSON.parse(readFileSync(join(root, `web/assets/${name}.json`), 'utf8'));
const globalScript = (name, value) => `globalThis.${name} = ${JSON.stringify(value)};\n`;

function copyingHeadScript() {
  return globalScript('AttentionCopyingHead', savedModel('copying-head').float16);
}

function trainedHeadScript() {
  const { parameters } = savedModel('trained-head');
  const matrices = Object.fromEntries(TRAINED_MAP_MATRICES.map((name) => [name, parameters[name]]));
  return globalScript('AttentionTrainedHead', matrices);
}

// The learning section's data, written into dist/learning.js after its module and loaded only
// when a reader needs it (web/src/learning.js): the start of Tiny Shakespeare for section 6, cut
// at a speaker's turn (about 25 KB gzipped rather than the whole 1.1 MB corpus), and the native
// runs' results. attention-train's page protocol cuts the same text (page_text in
// cpp/tools/train.cpp; web/test/training-protocol.test.mjs checks that they agree).
const SHAKESPEARE_CHARACTERS = 60000;

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

// The native runs' table (`npm run train -- --save-results`, and `-- --protocol page
// --save-results` for "page"): each width's learning rate, and the seed spread of section 6's own
// protocol that its sentences hold a difference to. Of each page row the page reads the mean
// and sd only; every seed's numbers stay out of the bundle. null when the file is not there: the
// page then says it cannot judge differences and asks for a learning rate.
const learningResultsFile = join(root, 'web/assets/learning-results.json');
const PAGE_ROW_FIELDS = ['width', 'config', 'mean', 'sd'];
function learningResults() {
  if (!existsSync(learningResultsFile)) return null;
  const { learningRates, page } = JSON.parse(readFileSync(learningResultsFile, 'utf8'));
  const rows = page.rows.map((row) =>
    Object.fromEntries(PAGE_ROW_FIELDS.map((field) => [field, row[field]])),
  );
  return { learningRates, page: { ...page, rows } };
}

async function learningScript() {
  const corpus = readFileSync(join(root, 'data/tinyshakespeare.txt'), 'utf8');
  const cut = corpus.lastIndexOf('\n\n', SHAKESPEARE_CHARACTERS);
  const data = { shakespeare: corpus.slice(0, cut + 1), results: learningResults() };
  const module = await minified(learningModule);
  return `${module}\nglobalThis.AttentionLearningData = ${JSON.stringify(data)};\n`;
}

const savedModelsWithoutWeights = {
  name: 'saved-models-without-weights',
  setup(build) {
    build.onLoad({ filter: /(trained|copying)-head\.json$/ }, (args) => {
      const {
        parameters: _weights,
        float16: _halves,
        ...head
      } = JSON.parse(readFileSync(args.path, 'utf8'));
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
        // The worker never computes a saved model's map (the page does): it carries their JSON
        // without the weights, as the page's bundle does.
        plugins: [savedModelsWithoutWeights],
      });
      return { loader: 'text', contents: worker.outputFiles[0].text };
    });
  },
};

// The embedded view runs under the page's own Content-Security-Policy (index.html holds it).
function embedPage() {
  const policy = readFileSync(join(root, 'web/index.html'), 'utf8').match(
    /<meta http-equiv="Content-Security-Policy"[^>]*>/,
  );
  if (!policy) throw new Error('web/index.html has no Content-Security-Policy meta to copy');
  return readFileSync(join(root, 'web/embed.html'), 'utf8').replace(
    /<!-- The page's Content-Security-Policy meta[^>]*-->/,
    () => policy[0],
  );
}

const address = pageAddress(process.env); // before anything is removed: a bad PAGE_URL stops here
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
await esbuild.build({
  entryPoints: {
    app: join(root, 'web/src/main.js'),
    'later-figures': join(root, 'web/src/later-figures.js'),
    embed: join(root, 'web/src/embed/main.js'),
  },
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['es2020'],
  outdir: dist,
  plugins: [workerSource, savedModelsWithoutWeights],
  legalComments: 'none',
  logLevel: 'warning',
});
copyFileSync(join(root, 'web/favicon.svg'), join(dist, 'favicon.svg'));
writeFileSync(
  join(dist, 'index.html'),
  withPreviewTags(readFileSync(join(root, 'web/index.html'), 'utf8'), address),
);
writeFileSync(join(dist, 'embed.html'), embedPage());
for (const bundle of ['app.js', 'later-figures.js', 'embed.js'])
  writeFileSync(join(dist, bundle), await minified(join(dist, bundle)));
// One stylesheet: the later figures' few rules join the page's, so no second request.
writeFileSync(
  join(dist, 'app.css'),
  readFileSync(join(dist, 'app.css'), 'utf8') +
    readFileSync(join(dist, 'later-figures.css'), 'utf8'),
);
rmSync(join(dist, 'later-figures.css'));
writeFileSync(join(dist, 'attention-core.js'), await minified(wasmModule));
writeFileSync(join(dist, 'learning.js'), await learningScript());
writeFileSync(join(dist, 'torch-outputs.js'), torchOutputsScript());
writeFileSync(join(dist, 'copying-head.js'), copyingHeadScript());
writeFileSync(join(dist, 'trained-head.js'), trainedHeadScript());
console.log(
  'built dist/ (index.html, embed.html, favicon.svg, app.js, later-figures.js, app.css, embed.js, embed.css, attention-core.js, copying-head.js, trained-head.js, learning.js, torch-outputs.js)',
);
console.log(
  address
    ? `link preview at ${address} (PAGE_URL)`
    : 'link preview without an address: set PAGE_URL for a canonical link and og:url',
);
if (await renderPreviewImage(dist, join(dist, PREVIEW.file)))
  console.log(`drew dist/${PREVIEW.file}`);
// Last, once every file it lists is written: the service worker that keeps this version offline.
console.log(`wrote dist/sw.js (version ${writeServiceWorker(dist).version})`);
