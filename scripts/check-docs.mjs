// check-docs.mjs: fails when a pointer into the docs leads nowhere. Every Markdown link to a
// file in the tree names a file that exists, and its #anchor a heading of that file; a comment
// that cites a section by the doc's path and the heading in quotes, after a comma or in
// brackets, cites a heading that doc has; nothing refers to an issue by its number, which
// a reader of the repository cannot open (name the thing instead); and a reference doc with a
// length budget stays within it. `npm run lint` runs it.
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
  const findings = [];
  for (const file of textFiles(root)) {
    const text = readFileSync(join(root, file), 'utf8');
    if (file.endsWith('.md')) findings.push(...linkFindings(root, file, text, headingsAt));
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
    console.log('docs: every link, cited heading and name must lead somewhere a reader can go');
    return 1;
  }
  console.log('docs: every link and cited heading exists, no issue numbers');
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  process.exit(main(process.argv.slice(2)));
