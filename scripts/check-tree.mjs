// check-tree.mjs: fails when the tree stops showing the architecture. Tests mirror sources:
// cpp/F/NAME.cpp is tested by tests/F/test_NAME.cpp, so every test file names a source that
// exists, and every source has its test file unless EXEMPT says why not. No folder under cpp/
// holds more than 12 source files (.cpp, .hpp, .js). `npm run lint` runs it.
//
// Header-only code (kernel/fused_kernel.hpp, kernel/products.hpp) is tested through the .cpp that
// includes it, so only .cpp files need a test file of their own.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const MAX_SOURCES_PER_FOLDER = 12;

// Sources without a Catch2 test file of their own, and what tests them instead.
export const EXEMPT = {
  'cpp/tools/tutorial.cpp':
    'main() of attention-tutorial: CTest runs it (tutorial_command_reproduces_the_run); what it prints comes from tested functions',
  'cpp/tools/train.cpp':
    'main() of attention-train: tests/trained/test_trained_head.cpp checks the head it saves',
  'cpp/tools/grow.cpp':
    'main() of attention-grow: tests/learning/layered/ test the model and the growth run, tests/trained/test_copying_head.cpp the copying head it saves',
  'cpp/wasm/core_bindings.cpp':
    "embind glue of the page's module: web/test/core.test.mjs and hostile.test.mjs call it through the built module",
  'cpp/wasm/learning_bindings.cpp':
    "embind glue of the learning section's module: web/test/learning.test.mjs and training.test.mjs call it",
  'cpp/wasm/growth_bindings.cpp':
    "embind glue of section 9's growth runs in the learning module: web/test/growth.test.mjs calls it",
  'cpp/wasm/trained_bindings.cpp':
    "embind glue of the saved models in the page's module: web/test/saved-models.test.mjs calls it through the built module",
  'cpp/attention/kernel/relaxed_kernel.cpp':
    'a standalone relaxed-SIMD wasm module of fused_kernel.hpp: web/test/kernel.test.mjs checks it against float64',
};

// Every file under root/folder, as a path relative to root with '/' separators.
function filesUnder(root, folder) {
  const path = join(root, folder);
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [folder];
  return readdirSync(path)
    .sort()
    .flatMap((name) => filesUnder(root, `${folder}/${name}`));
}

// tests/F/test_NAME.cpp → cpp/F/NAME.cpp, or null for a file that is not a test file.
export function sourceOf(test) {
  const match = /^tests\/(.+\/)test_([^/]+)\.cpp$/.exec(test);
  return match ? `cpp/${match[1]}${match[2]}.cpp` : null;
}

// cpp/F/NAME.cpp → tests/F/test_NAME.cpp.
export function testOf(source) {
  const match = /^cpp\/(.+\/)([^/]+)\.cpp$/.exec(source);
  return match ? `tests/${match[1]}test_${match[2]}.cpp` : null;
}

function mirrorFindings(sources, tests, exempt) {
  const findings = [];
  for (const file of tests.filter(
    (path) => path.endsWith('.cpp') && path !== 'tests/catch_main.cpp',
  )) {
    const source = sourceOf(file);
    if (source === null)
      findings.push(
        `${file}: not named tests/F/test_NAME.cpp, so tests/CMakeLists.txt never builds it`,
      );
    else if (!sources.includes(source))
      findings.push(
        `${file}: its source ${source} does not exist (tests/F/test_NAME.cpp tests cpp/F/NAME.cpp)`,
      );
  }
  for (const source of sources.filter((path) => path.endsWith('.cpp'))) {
    const test = testOf(source);
    if (source in exempt) {
      if (tests.includes(test))
        findings.push(`${source}: has ${test}; drop it from EXEMPT in scripts/check-tree.mjs`);
    } else if (!tests.includes(test)) {
      findings.push(
        `${source}: no test file; write ${test} (or add it to EXEMPT in scripts/check-tree.mjs, with why)`,
      );
    }
  }
  for (const path of Object.keys(exempt))
    if (!sources.includes(path))
      findings.push(`scripts/check-tree.mjs: EXEMPT names ${path}, which does not exist`);
  return findings;
}

function folderFindings(sources, limit) {
  const counts = new Map();
  for (const path of sources.filter((file) => /\.(cpp|hpp|js)$/.test(file))) {
    const folder = path.slice(0, path.lastIndexOf('/'));
    counts.set(folder, (counts.get(folder) ?? 0) + 1);
  }
  return [...counts]
    .filter(([, count]) => count > limit)
    .map(
      ([folder, count]) =>
        `${folder}/: ${count} source files; at most ${limit} (split it by concern)`,
    );
}

// CTest runs each Catch2 test by its name, which CMake keeps in a list: a ';' splits the name
// into two entries that match no test, and the test silently never runs under CTest.
function nameFindings(root, tests) {
  const findings = [];
  for (const file of tests.filter((path) => path.endsWith('.cpp'))) {
    const source = readFileSync(join(root, file), 'utf8');
    for (const [, name] of source.matchAll(/TEST_CASE\(\s*"((?:[^"\\]|\\.)*)"/g))
      if (name.includes(';'))
        findings.push(`${file}: test "${name}" has a ';', which CTest splits into two names`);
  }
  return findings;
}

// Every way the tree at root breaks the rules above, as one message each.
export function treeFindings(root = '.', { exempt = EXEMPT, limit = MAX_SOURCES_PER_FOLDER } = {}) {
  const sources = filesUnder(root, 'cpp');
  const tests = filesUnder(root, 'tests');
  return [
    ...mirrorFindings(sources, tests, exempt),
    ...folderFindings(sources, limit),
    ...nameFindings(root, tests),
  ];
}

function main(argv) {
  const findings = treeFindings(argv[0] ?? '.');
  for (const finding of findings) console.log(finding);
  if (findings.length) {
    console.log('tree: tests mirror cpp/ one file per source (CONTRIBUTING.md, "The tree")');
    return 1;
  }
  console.log('tree: every source has its test file, every test its source, no folder too full');
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  process.exit(main(process.argv.slice(2)));
