// figure-imports.mjs: fails when a file in one figure's folder (web/src/figures/A/) imports
// from another's (web/src/figures/B/). What two figures share lives in web/src/lib/; what one
// figure tells another travels in the store's snapshot or the mount context (main.js).
// `npm run lint` runs it; every import, export-from and import() with a relative path counts.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'acorn';

const FIGURES = 'web/src/figures';

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

// The figure folder a path lies in, or null.
function figureOf(path, root) {
  const inside = relative(resolve(root), resolve(path));
  if (inside.startsWith('..')) return null;
  return inside.split(sep)[0];
}

function filesUnder(path) {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => filesUnder(join(path, name)));
}

// Every import from one figure's folder into another's: { file, imported }.
export function crossFigureImports(root = FIGURES) {
  const found = [];
  for (const file of filesUnder(root).filter((path) => /\.m?js$/.test(path))) {
    const own = figureOf(file, root);
    for (const imported of importedPaths(readFileSync(file, 'utf8'))) {
      if (!imported.startsWith('.')) continue;
      const target = figureOf(join(dirname(file), imported), root);
      if (target !== null && target !== own) found.push({ file, imported });
    }
  }
  return found;
}

function main(argv) {
  const root = argv[0] ?? FIGURES;
  const found = crossFigureImports(root);
  for (const { file, imported } of found)
    console.log(`${relative('.', file)}: imports ${imported}, another figure's file`);
  if (found.length) {
    console.log('figure imports: a figure imports only from web/src/lib/ and outside figures/');
    return 1;
  }
  console.log('figure imports: no figure imports another');
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  process.exit(main(process.argv.slice(2)));
