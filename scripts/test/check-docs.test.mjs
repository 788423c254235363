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

// Paths are built from parts, so that this file itself names none.
const path = (...parts) => parts.join('/');

test('a path named in a comment or a doc that exists passes, however it is written', () => {
  const root = tree({
    ...GOOD,
    [path('cpp', 'attention', 'formula.hpp')]: '',
    [path('cpp', 'attention', 'formula.cpp')]:
      `// See ${path('attention', 'formula.hpp')} and ./formula.hpp.\n`,
    [path('web', 'src', 'lib', 'grid.js')]: '',
    [path('web', 'test', 'grid.test.mjs')]:
      `// ${path('lib', 'grid.js')}: the painter (${path('web', 'src', 'lib', 'grid.js')}).\n`,
    'docs/more.md': `Read ${path('cpp', 'attention', 'formula.hpp')} and ${path('docs', 'guide.md')}.\n`,
  });
  assert.deepEqual(docFindings(root), []);
});

test('a path named in a comment or a doc that does not exist is found, and the command fails', () => {
  const root = tree({
    ...GOOD,
    'cpp/kernel.cpp': `// The fast path, beside ${path('cpp', 'kernel', 'gone.hpp')}.\nint x;\n`,
    'scripts/build.sh': `#!/bin/sh\n# writes what ${path('scripts', 'gone.mjs')} reads\n`,
    'web/src/main.js': `/* the grid: ${path('lib', 'grid.js')} */\n// and ./gone.js\nimport './main.js';\n`,
    [path('web', 'src', 'lib', 'format.js')]: '',
    'docs/more.md': `The map is drawn by ${path('web', 'src', 'map.js')}.\n`,
  });
  assert.deepEqual(docFindings(root), [
    `cpp/kernel.cpp: names ${path('cpp', 'kernel', 'gone.hpp')}, and ${path('cpp', 'kernel', 'gone.hpp')} does not exist`,
    `docs/more.md: names ${path('web', 'src', 'map.js')}, and ${path('web', 'src', 'map.js')} does not exist`,
    `scripts/build.sh: names ${path('scripts', 'gone.mjs')}, and ${path('scripts', 'gone.mjs')} does not exist`,
    `web/src/main.js: names ./gone.js, and ${path('web', 'src', 'gone.js')} does not exist`,
    `web/src/main.js: names ${path('lib', 'grid.js')}, and ${path('web', 'src', 'lib', 'grid.js')} does not exist`,
  ]);
  assert.equal(spawnSync('node', [script, root]).status, 1);
});

test('patterns, build outputs, URLs, code and words with a slash are not paths of the tree', () => {
  const root = tree({
    ...GOOD,
    'cpp/kernel.cpp': [
      `// ${path('tests', 'F', 'test_NAME.cpp')} tests ${path('cpp', 'F', 'NAME.cpp')}.`,
      `// ${path('cpp', 'kernel', 'relaxed')}-*.js and ${path('cpp', 'kernel')}/…`,
      `// ${path('build', 'wasm', 'attention-core.js')}, ${path('dist', 'app.js')}.`,
      `// https://example.com/${path('cpp', 'gone.cpp')} at 3 ms/step, <${path('nlohmann', 'json.hpp')}>`,
      `const char* where = "${path('cpp', 'gone.cpp')}";`,
      '',
    ].join('\n'),
  });
  assert.deepEqual(docFindings(root), []);
});

test('a file that opens with a file name names itself, or in a test the file it tests', () => {
  const root = tree({
    ...GOOD,
    'cpp/core.cpp': '// core.cpp: the core.\n',
    'cpp/bindings.cpp': '// glue.cpp: the glue.\n',
    [path('web', 'src', 'lib', 'grid.js')]: '',
    'web/test/grid.test.mjs': `// ${path('lib', 'grid.js')}: its painter.\n`,
    'web/test/gone.test.mjs': '// gone.js: its parts.\n',
  });
  assert.deepEqual(docFindings(root), [
    'cpp/bindings.cpp: opens as glue.cpp, which is neither this file nor one that exists',
    'web/test/gone.test.mjs: opens as gone.js, which is neither this file nor one that exists',
  ]);
});
