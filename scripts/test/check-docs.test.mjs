// The docs check on small made-up trees: links, anchors and cited headings that exist pass;
// a link to a missing file, an anchor or a cited heading the doc lacks, and an issue named by
// its number are each found, and the command fails. The cited forms are built from parts, so
// that this file itself cites nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { anchorOf, docFindings, headingsOf, LINE_BUDGETS } from '../check-docs.mjs';

const script = new URL('../check-docs.mjs', import.meta.url).pathname;

function tree(files) {
  const root = mkdtempSync(join(tmpdir(), 'docs-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, dirname(path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const DOC = 'docs/guide.md';
const afterComma = (heading) => `${DOC}, "${heading}"`;
const inBrackets = (heading) => `${DOC} ("${heading}")`;
const issue = (n) => ['iss', `ue ${n}`].join('');

const GOOD = {
  [DOC]: '# Guide\n\n## The fused kernel: how it is built\n\n```sh\n# not a heading\n```\n',
  'README.md':
    'See [the guide](docs/guide.md#the-fused-kernel-how-it-is-built) and [top](#readme).\n\n# Readme\n',
  'cpp/kernel.hpp': `// Why 3 x 3 (${afterComma('The fused kernel: how it is built')}).\n`,
  'CMakeLists.txt': `# emmalloc: ${inBrackets('the fused kernel: how it is built')}\n`,
  'web/README.md':
    'The table: [here](../README.md#readme); [a site](https://example.com/x.md#y).\n',
};

test('headings and their anchors are read as GitHub reads them', () => {
  assert.deepEqual(headingsOf(GOOD[DOC]), ['Guide', 'The fused kernel: how it is built']);
  assert.equal(
    anchorOf('The relaxed-SIMD kernel: how it is built and chosen'),
    'the-relaxed-simd-kernel-how-it-is-built-and-chosen',
  );
  assert.equal(anchorOf('`npm run train`, step by step'), 'npm-run-train-step-by-step');
});

test('links, anchors and cited headings that exist pass', () => {
  assert.deepEqual(docFindings(tree(GOOD)), []);
});

test('a missing file, anchor or cited heading is found, and the command fails', () => {
  const root = tree({
    ...GOOD,
    'README.md':
      '# Readme\n\nSee [gone](docs/gone.md) and [the guide](docs/guide.md#build-choices).\n',
    'cpp/kernel.hpp': `// (${afterComma('Build choices')})\n// (${inBrackets('The bindings')})\n`,
  });
  assert.deepEqual(docFindings(root), [
    'README.md: links docs/gone.md, and docs/gone.md does not exist',
    'README.md: links docs/guide.md#build-choices, and docs/guide.md has no heading #build-choices',
    `cpp/kernel.hpp: cites ${afterComma('Build choices')}, a heading it does not have`,
    `cpp/kernel.hpp: cites ${afterComma('The bindings')}, a heading it does not have`,
  ]);
  assert.equal(spawnSync('node', [script, root], { timeout: 60_000 }).status, 1);
});

test('an issue named by its number is found, in code and in prose', () => {
  const root = tree({
    ...GOOD,
    'docs/guide.md': `${GOOD[DOC]}\nAs asked in ${issue(9)}.\n`,
    'web/src/main.js': `// the page rows (${issue('#10')})\n`,
  });
  assert.deepEqual(docFindings(root), [
    'docs/guide.md:9: names an issue by number; name the thing',
    'web/src/main.js:1: names an issue by number; name the thing',
  ]);
});

test('node_modules, build and dist are not read', () => {
  const root = tree({
    ...GOOD,
    'node_modules/x/README.md': `[gone](nowhere.md) ${issue(1)}`,
    'build/notes.txt': issue(2),
    'web/dist/app.js': issue(3),
  });
  assert.deepEqual(docFindings(root), []);
});

test('a reference doc over its line budget is found; at the budget it passes', () => {
  const budget = LINE_BUDGETS['docs/benchmarks.md'];
  const lines = (n) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
  assert.deepEqual(docFindings(tree({ ...GOOD, 'docs/benchmarks.md': lines(budget) })), []);
  assert.deepEqual(docFindings(tree({ ...GOOD, 'docs/benchmarks.md': lines(budget + 1) })), [
    `docs/benchmarks.md: ${budget + 1} lines, over its budget of ${budget}`,
  ]);
});
