// Builds the page into dist/: index.html, app.js (the first screen, the map and the sections
// before it), later-figures.js (the later sections' figures with Chart.js, tree-shaken, loaded as
// they come near: web/src/later-figures.js lists them), app.css,
// attention-core.js (the page's wasm module from scripts/build-wasm.sh), learning.js (the
// learning section's wasm module and data, loaded on first use: web/src/learning.js) and
// torch-outputs.js (PyTorch's outputs for the proof, loaded as its section comes near), and
// the embedded view of one figure (embed.html, embed.js, embed.css: web/src/embed/), the link
// preview's tags in index.html and its picture (preview.png, scripts/preview-image.mjs).
// The compute worker is bundled separately and embedded in app.js as text.
import * as esbuild from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { minify } from 'terser';
import { PREVIEW, renderPreviewImage } from './preview-image.mjs';

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
// The copying head (web/assets/copying-head.json, section 9): its float16 weights as one base64
// string, decoded on the page (web/src/copying-head.js), without the last two tensors: the last
// layer's output projection and the unembedding only predict the next character, which no map
// reads, so they stay zero on the page (about 12 KB gzipped less).
const copyingHeadFile = join(root, 'web/assets/copying-head.json');
const COPYING_UNREAD = ['layer2.output', 'unembedding'];

function copyingHeadHalves() {
  const saved = JSON.parse(readFileSync(copyingHeadFile, 'utf8'));
  const last = saved.tensors.length - COPYING_UNREAD.length;
  const unread = saved.tensors.slice(last).map(({ name }) => name);
  if (unread.join() !== COPYING_UNREAD.join())
    throw new Error(`copying-head.json ends with ${unread}, not ${COPYING_UNREAD}`);
  const halves = saved.tensors.slice(0, last).reduce((sum, { rows, cols }) => sum + rows * cols, 0);
  return Buffer.from(saved.float16, 'base64')
    .subarray(0, 2 * halves)
    .toString('base64');
}

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
    copyingHead: copyingHeadHalves(),
    results: learningResults(),
  };
  const module = await minified(learningModule);
  return `${module}\nglobalThis.AttentionLearningData = ${JSON.stringify(data)};\n`;
}

const learnedHeadWithoutWeights = {
  name: 'learned-head-without-weights',
  setup(build) {
    build.onLoad({ filter: /(learned|copying)-head\.json$/ }, (args) => {
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
        // The worker never computes a saved head's map (the page does, with learning.js): it
        // carries their JSON without the weights, as the page's bundle does.
        plugins: [learnedHeadWithoutWeights],
      });
      return { loader: 'text', contents: worker.outputFiles[0].text };
    });
  },
};

// The page's address, from package.json's "homepage" (one setting; until the page has a host
// of its own it is a placeholder that says so), with the trailing slash the files hang from.
function homepage() {
  const { homepage: url } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  if (!/^https?:\/\//.test(url ?? ''))
    throw new Error('package.json needs "homepage": the page\'s URL');
  return url.endsWith('/') ? url : `${url}/`;
}

// The values are HTML already (the page's own title and description, as index.html writes
// them): only a double quote must change to sit in an attribute.
const attribute = (html) => html.replace(/"/g, '&quot;');

function headText(html, pattern, what) {
  const found = html.match(pattern);
  if (!found) throw new Error(`web/index.html has no ${what} for the link preview`);
  return found[1];
}

// Open Graph and Twitter card tags and the canonical link, from the page's own <title> and
// description, added to the end of its <head>: a shared link then shows a card with the map.
function withPreviewTags(html) {
  const title = headText(html, /<title>([^<]*)<\/title>/, '<title>');
  const description = headText(
    html,
    /<meta name="description" content="([^"]*)">/,
    '<meta name="description" content="…">',
  );
  const home = homepage();
  const image = `${home}${PREVIEW.file}`;
  const alt = 'The attention map of “To be, or not”, computed by the page, beside its title.';
  const tags = [
    `<link rel="canonical" href="${attribute(home)}">`,
    ...Object.entries({
      'og:type': 'website',
      'og:title': title,
      'og:description': description,
      'og:url': home,
      'og:image': image,
      'og:image:width': PREVIEW.width,
      'og:image:height': PREVIEW.height,
      'og:image:alt': alt,
    }).map(([key, value]) => `<meta property="${key}" content="${attribute(String(value))}">`),
    ...Object.entries({
      'twitter:card': 'summary_large_image',
      'twitter:title': title,
      'twitter:description': description,
      'twitter:image': image,
      'twitter:image:alt': alt,
    }).map(([key, value]) => `<meta name="${key}" content="${attribute(value)}">`),
  ];
  return html.replace('</head>', `  ${tags.join('\n  ')}\n</head>`);
}

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
  plugins: [workerSource, learnedHeadWithoutWeights],
  legalComments: 'none',
  logLevel: 'warning',
});
copyFileSync(join(root, 'web/favicon.svg'), join(dist, 'favicon.svg'));
writeFileSync(
  join(dist, 'index.html'),
  withPreviewTags(readFileSync(join(root, 'web/index.html'), 'utf8')),
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
console.log(
  'built dist/ (index.html, embed.html, favicon.svg, app.js, later-figures.js, app.css, embed.js, embed.css, attention-core.js, learning.js, torch-outputs.js)',
);
if (await renderPreviewImage(dist, join(dist, PREVIEW.file)))
  console.log(`drew dist/${PREVIEW.file}`);
