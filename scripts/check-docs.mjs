// check-docs.mjs: fails when a pointer into the docs leads nowhere. Every Markdown link to a
// file in the tree names a file that exists, and its #anchor a heading of that file; a comment
// that cites a section by the doc's path and the heading in quotes, after a comma or in
// brackets, cites a heading that doc has; every path a comment or a doc names exists (cpp/…,
// web/src/…, docs/….md from the root; a path from the file's own folder; attention/formula.hpp
// from an include root), and a file whose opening comment starts with a file name names itself
// (or, in a test, what it tests); nothing refers to an issue by its number, which a reader of
// the repository cannot open (name the thing instead); and a reference doc with a length budget
// stays within it. `npm run lint` runs it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { pathToFileURL } from 'node:url';

const SKIPPED = new Set(['.git', 'node_modules', 'build', 'dist']);
const TEXT =
  /\.(md|js|mjs|cjs|cpp|hpp|h|sh|py|txt|html|css|yml|yaml|cmake)$|^CMakeLists\.txt$|^commit-msg$/;

// Every text file under root, as a path relative to root with '/' separators.
function textFiles(root, folder = '') {
  return readdirSync(join(root, folder))
    .sort()
    .flatMap((name) => {
      const path = folder ? `${folder}/${name}` : name;
      if (SKIPPED.has(name)) return [];
      if (statSync(join(root, path)).isDirectory()) return textFiles(root, path);
      return TEXT.test(name) ? [path] : [];
    });
}

// GitHub's anchor for a heading: lower case, punctuation dropped, spaces to '-'.
export function anchorOf(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

// The headings of a Markdown file (outside code blocks).
export function headingsOf(markdown) {
  const headings = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^(```|~~~)/.test(line)) fenced = !fenced;
    const match = !fenced && /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (match) headings.push(match[1].replace(/`/g, ''));
  }
  return headings;
}

function linkFindings(root, file, text, headingsAt) {
  const findings = [];
  const links = text.replace(/```[\s\S]*?```/g, '').matchAll(/\]\(([^)\s]+)\)/g);
  for (const [, target] of links) {
    if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
    const [path, anchor] = target.split('#');
    const resolved = path ? normalize(join(dirname(file), path)).replace(/\\/g, '/') : file;
    if (!existsSync(join(root, resolved)))
      findings.push(`${file}: links ${target}, and ${resolved} does not exist`);
    else if (
      anchor &&
      resolved.endsWith('.md') &&
      !headingsAt(resolved).map(anchorOf).includes(anchor)
    )
      findings.push(`${file}: links ${target}, and ${resolved} has no heading #${anchor}`);
  }
  return findings;
}

function citationFindings(root, file, text, headingsAt) {
  const findings = [];
  for (const [, doc, heading] of text.matchAll(/\b(docs\/[\w-]+\.md)(?:,\s*|\s+\()"([^"]+)"/g)) {
    if (!existsSync(join(root, doc))) findings.push(`${file}: cites ${doc}, which does not exist`);
    else if (!headingsAt(doc).some((name) => name.toLowerCase() === heading.toLowerCase()))
      findings.push(`${file}: cites ${doc}, "${heading}", a heading it does not have`);
  }
  return findings;
}

// ---- Paths named in comments and docs ----------------------------------------------------------

// What a reader reads as prose in each kind of file: a Markdown file whole (its links are
// checked above, so they are left out here); a source file's comments (// and /* */, or #, or a
// Python docstring), where a path is a pointer for the reader. Code is left out: the build and
// the tests already fail on a path in code that leads nowhere.
function proseOf(file, text) {
  if (file.endsWith('.md')) return text.replace(/\]\([^)\s]*\)/g, ']()');
  const lines = text.split('\n');
  if (/\.(c|h|cpp|hpp|js|mjs|cjs|css)$/.test(file)) {
    const blocks = [...text.matchAll(/\/\*[\s\S]*?\*\//g)].map(([comment]) => comment);
    return [...lines.map((line) => /(?:^|\s)\/\/(.*)$/.exec(line)?.[1] ?? ''), ...blocks].join(
      '\n',
    );
  }
  if (/\.(sh|py|cmake|yml|yaml)$|(^|\/)(CMakeLists\.txt|commit-msg)$/.test(file)) {
    const docstrings = file.endsWith('.py')
      ? [...text.matchAll(/"""[\s\S]*?"""/g)].map(([d]) => d)
      : [];
    return [
      ...lines.map((line) => /(?:^|\s)#(?!!)(.*)$/.exec(line)?.[1] ?? ''),
      ...docstrings,
    ].join('\n');
  }
  return '';
}

// Outputs of the builds and of npm, never committed: a path under them names what a build
// writes (build/wasm/attention-core.js, dist/app.js), so it is not looked for in the tree.
export const GENERATED = Object.freeze(['build', 'dist', 'node_modules']);
// Where a path that starts inside a folder is written from: C++ includes from cpp/
// ("attention/formula.hpp"), the page's modules from web/src/ ("lib/grid.js").
const INCLUDE_ROOTS = ['cpp', 'web/src'];

// A path-like token: folder/…/name, not inside a longer word, URL or path.
const PATH = /(?<![\w.@/\\-])(?:(?:\.\.?\/)+[\w.-]+(?:\/[\w.-]+)*|[\w.-]*\w(?:\/[\w.-]+)+)\/?/g;
// A pattern rather than a path, when no such file exists: a placeholder in capitals
// (tests/F/test_NAME.cpp), or a glob, template or elision right after it (relaxed-*.js,
// ${name}, tests/…).
const PLACEHOLDER = /(^|[/_.-])[A-Z]+(?=$|[/_.-])/;
const PATTERN_NEXT = /^([*{$<…]|\.\.\.)/;

// The folders a name written in `file` may be relative to: the file's own, those above it,
// and the include roots.
function basesOf(file) {
  const bases = [];
  for (let folder = dirname(file); folder !== '.'; folder = dirname(folder)) bases.push(folder);
  return [...bases, ...INCLUDE_ROOTS];
}

// Where `path`, named in `file`, should be and is not; null when it is there, or when it is no
// path of the tree (ms/step, nlohmann/json.hpp) or one a build writes.
export function missingPath(root, file, path, topFolders) {
  const [first] = path.split('/');
  const at = (base) => existsSync(join(root, base, path));
  if (GENERATED.includes(first)) return null;
  if (first === '.' || first === '..') {
    const resolved = normalize(join(dirname(file), path)).replace(/\\/g, '/');
    return existsSync(join(root, resolved)) ? null : resolved;
  }
  if (topFolders.has(first)) return at('') ? null : path;
  const from = basesOf(file).filter((base) => existsSync(join(root, base, first)));
  if (from.length === 0 || from.some(at)) return null;
  return `${from[0]}/${path}`;
}

function pathFindings(root, file, text, topFolders) {
  const findings = [];
  for (const line of proseOf(file, text).split('\n'))
    for (const match of line.matchAll(PATH)) {
      const named = match[0].replace(/[.,:;]+$/, '');
      const missing = missingPath(root, file, named, topFolders);
      const pattern =
        PLACEHOLDER.test(named) || PATTERN_NEXT.test(line.slice(match.index + match[0].length));
      if (missing && !pattern)
        findings.push(`${file}: names ${named}, and ${missing} does not exist`);
    }
  return findings;
}

// A file whose opening comment starts with a file name ("// fused.cpp: the fast path") names
// itself, or, in a test, the file it tests ("// lib/scale.js: …" in scale.test.mjs): either
// way a file that exists, beside it, above it or in an include root.
function selfNameFindings(root, file, text, topFolders) {
  const named = /^(?:\/\/|#)\s*([\w/.-]+\.[a-z]+):/.exec(text)?.[1];
  if (!named || named === file.split('/').pop()) return [];
  const found = named.includes('/')
    ? missingPath(root, file, named, topFolders) === null
    : basesOf(file).some((base) => existsSync(join(root, base, named)));
  return found
    ? []
    : [`${file}: opens as ${named}, which is neither this file nor one that exists`];
}

// Reference docs that are read whole, and the most lines each may have: the benchmarks page
// is a reference (method, the latest table, what limits each missed target), not a log.
export const LINE_BUDGETS = Object.freeze({ 'docs/benchmarks.md': 250 });

function budgetFindings(file, text) {
  const budget = LINE_BUDGETS[file];
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  return budget && lines > budget ? [`${file}: ${lines} lines, over its budget of ${budget}`] : [];
}

// "issue" and a number, spelled so that this file does not match itself.
const ISSUE_NUMBER = new RegExp(['\\bissues?', '\\s+#?\\d'].join(''), 'i');

// Every pointer under root that leads nowhere, as one message each.
export function docFindings(root = '.') {
  const cache = new Map();
  const headingsAt = (path) => {
    if (!cache.has(path)) cache.set(path, headingsOf(readFileSync(join(root, path), 'utf8')));
    return cache.get(path);
  };
  const topFolders = new Set(
    readdirSync(root).filter(
      (name) => !SKIPPED.has(name) && statSync(join(root, name)).isDirectory(),
    ),
  );
  const findings = [];
  for (const file of textFiles(root)) {
    const text = readFileSync(join(root, file), 'utf8');
    if (file.endsWith('.md')) findings.push(...linkFindings(root, file, text, headingsAt));
    findings.push(...pathFindings(root, file, text, topFolders));
    findings.push(...selfNameFindings(root, file, text, topFolders));
    findings.push(...citationFindings(root, file, text, headingsAt));
    findings.push(...budgetFindings(file, text));
    text.split('\n').forEach((line, index) => {
      if (ISSUE_NUMBER.test(line))
        findings.push(`${file}:${index + 1}: names an issue by number; name the thing`);
    });
  }
  return findings;
}

function main(argv) {
  const findings = docFindings(argv[0] ?? '.');
  for (const finding of findings) console.log(finding);
  if (findings.length) {
    console.log(
      'docs: every link, cited heading, path and name must lead somewhere a reader can go',
    );
    return 1;
  }
  console.log('docs: every link, cited heading and named path exists, no issue numbers');
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  process.exit(main(process.argv.slice(2)));
