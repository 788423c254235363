// layers.mjs: fails when a source imports from a folder above its own. The folders of cpp/ and
// web/src/ are layers, each allowed to use only the ones listed below it: programs and bindings
// on the library, the library's learning on its attention core, the saved models on both; the
// page's figures on lib/, the saved models and the app's small shared modules, and lib/ on
// nothing of the app. A figure never imports another figure's folder (what two share lives in
// lib/; what one tells another travels in the store's snapshot or the mount context). `npm run
// lint` runs it; every relative import, export-from and import() counts, and every #include "…".
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'acorn';

// cpp/: a folder may include from itself and from the folders listed. An #include "x/y.hpp" is
// resolved from cpp/.
export const CPP_LAYERS = {
  'cpp/attention': [],
  'cpp/attention/kernel': ['cpp/attention'],
  'cpp/tutorial': ['cpp/attention', 'cpp/attention/kernel'],
  'cpp/learning': ['cpp/attention', 'cpp/attention/kernel', 'cpp/tutorial'],
  'cpp/learning/layered': ['cpp/attention', 'cpp/attention/kernel', 'cpp/tutorial', 'cpp/learning'],
  'cpp/trained': [
    'cpp/attention',
    'cpp/attention/kernel',
    'cpp/tutorial',
    'cpp/learning',
    'cpp/learning/layered',
  ],
  'cpp/wasm': '*', // the bindings and the programs sit on top of everything
  'cpp/tools': '*',
};

// web/src/: a layer is a folder, or one of the app's modules at the top (named by its file).
// A figure's folder may import from itself and from these; the others as listed.
const APP_SHARED = ['web/src/state.js', 'web/src/link.js', 'web/src/theme.js'];
export const WEB_LAYERS = {
  'web/src/lib': [],
  'web/src/trained': ['web/src/lib', 'web/assets'],
  'web/src/compute': ['web/src/lib', 'web/src/core.js', 'web/src/learning-core.js'],
  'web/src/figures/*': [
    'web/src/lib',
    'web/src/trained',
    'web/src/compute',
    'web/assets',
    ...APP_SHARED,
  ],
  'web/src/embed': '*',
  // The modules at the top: the app's own (anything but the figures and the embedded view),
  // and its two entry points, which mount the figures.
  'web/src/*.js': [
    'web/src/lib',
    'web/src/trained',
    'web/src/compute',
    'web/assets',
    'web/src/*.js',
  ],
  'web/src/main.js': '*',
  'web/src/later-figures.js': '*',
};

// The module paths a source imports from.
export function importedPaths(source) {
  const paths = [];
  const visit = (node) => {
    const from = node.source?.value;
    const isImport = /^(ImportDeclaration|ExportNamedDeclaration|ExportAllDeclaration)$/;
    if (isImport.test(node.type) && typeof from === 'string') paths.push(from);
    if (node.type === 'ImportExpression' && typeof node.source.value === 'string')
      paths.push(node.source.value);
    for (const value of Object.values(node)) {
      const children = Array.isArray(value) ? value : [value];
      for (const child of children) if (child && typeof child.type === 'string') visit(child);
    }
  };
  visit(parse(source, { ecmaVersion: 'latest', sourceType: 'module' }));
  return paths;
}

function filesUnder(path) {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => filesUnder(join(path, name)));
}

const posix = (path) => path.split(sep).join('/');

// The layer a repository path belongs to under `layers`, or null.
export function layerOf(path, layers) {
  const folder = posix(dirname(path));
  if (Object.hasOwn(layers, path)) return path;
  const figure = folder.match(/^(web\/src\/figures)\/[^/]+/);
  if (figure && layers['web/src/figures/*']) return 'web/src/figures/*';
  if (folder === 'web/src' && layers['web/src/*.js']) return 'web/src/*.js';
  return Object.hasOwn(layers, folder) ? folder : null;
}

// May a file of layer `from` (file `file`) use `target` (a repository path)?
function allowed(layers, from, file, target) {
  const rule = layers[from];
  if (rule === '*' || rule.includes(target)) return true; // named file by file
  const to = layerOf(target, layers);
  if (from === 'web/src/figures/*') {
    const own = posix(dirname(file)).split('/').slice(0, 4).join('/');
    if (posix(target).startsWith(`${own}/`)) return true;
    if (to === 'web/src/figures/*') return false; // another figure's folder
  } else if (to === from) {
    return true;
  }
  if (to === null) return rule.some((layer) => posix(target).startsWith(`${layer}/`));
  return rule.includes(to);
}

// Every include or import that runs upward: { file, imported }. root: the repository.
export function upwardArrows(root, trees = ['cpp', 'web/src']) {
  const found = [];
  for (const tree of trees) {
    const layers = tree === 'cpp' ? CPP_LAYERS : WEB_LAYERS;
    const sources = filesUnder(join(root, tree)).filter((path) => /\.(m?js|[ch]pp)$/.test(path));
    for (const absolute of sources) {
      const file = posix(relative(root, absolute));
      const from = layerOf(file, layers);
      if (from === null) continue;
      for (const imported of targetsOf(readFileSync(absolute, 'utf8'), file)) {
        if (!allowed(layers, from, file, imported.target))
          found.push({ file, imported: imported.written });
      }
    }
  }
  return found;
}

// What a file names: { written, target } with target a repository path.
function targetsOf(source, file) {
  if (file.endsWith('pp')) {
    return [...source.matchAll(/^#include "([^"]+)"/gm)]
      .map(([, written]) => ({ written, target: posix(normalize(join('cpp', written))) }))
      .filter(({ written }) => written.includes('/'));
  }
  return importedPaths(source)
    .filter((written) => written.startsWith('.'))
    .map((written) => ({ written, target: posix(normalize(join(dirname(file), written))) }));
}

function main(argv) {
  const root = argv[0] ?? '.';
  const found = upwardArrows(root);
  for (const { file, imported } of found)
    console.log(`${file}: uses ${imported}, from a layer it may not (scripts/layers.mjs)`);
  if (found.length) return 1;
  console.log('layers: cpp/ and web/src/ import only downward, and no figure another');
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  process.exit(main(process.argv.slice(2)));
