// The tree check on small made-up trees: a tree that follows the rules passes; a test without
// its source, a source without its test, a test file CMake would not build, a stale exemption,
// a folder of 13 source files and a test name with a ';' are each found, and the command fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { EXEMPT, sourceOf, testOf, treeFindings } from '../check-tree.mjs';

const script = new URL('../check-tree.mjs', import.meta.url).pathname;

// A fresh folder holding the given files (path → text).
function tree(files) {
  const root = mkdtempSync(join(tmpdir(), 'tree-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, dirname(path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const TEST = 'TEST_CASE("one adds one", "[one]") {}\n';

// A tree that follows every rule: a source with its test, a header, a JS file, an exempt main(),
// and tests/catch_main.cpp, which CMake lists by name.
const GOOD = {
  'cpp/head/one.cpp': '',
  'cpp/head/one.hpp': '',
  'cpp/head/glue.js': '',
  'cpp/head/kernel/fast.cpp': '',
  'cpp/tools/main.cpp': '',
  'tests/head/test_one.cpp': TEST,
  'tests/head/kernel/test_fast.cpp': TEST,
  'tests/catch_main.cpp': '',
  'tests/test_support.hpp': '',
  'tests/fixtures/numbers.json': '{}',
};
const GOOD_EXEMPT = { 'cpp/tools/main.cpp': 'a main(); a command test runs it' };

function run(root) {
  return spawnSync('node', [script, root], { encoding: 'utf8', timeout: 60_000 });
}

test('a test file and its source name each other through the mirrored path', () => {
  assert.equal(sourceOf('tests/attention/kernel/test_fused.cpp'), 'cpp/attention/kernel/fused.cpp');
  assert.equal(testOf('cpp/tutorial/scale_study.cpp'), 'tests/tutorial/test_scale_study.cpp');
  assert.equal(sourceOf('tests/learning/model_fixture.hpp'), null);
  assert.equal(sourceOf('tests/catch_main.cpp'), null);
});

test('a tree that follows the rules has no finding', () => {
  assert.deepEqual(treeFindings(tree(GOOD), { exempt: GOOD_EXEMPT }), []);
});

test('a test without its source and a source without its test are found', () => {
  const root = tree({
    ...GOOD,
    'tests/head/test_gone.cpp': TEST, // its source does not exist
    'tests/other/test_one.cpp': TEST, // its source does, in another folder
    'cpp/head/untested.cpp': '',
  });
  assert.deepEqual(treeFindings(root, { exempt: GOOD_EXEMPT }), [
    'tests/head/test_gone.cpp: its source cpp/head/gone.cpp does not exist (tests/F/test_NAME.cpp tests cpp/F/NAME.cpp)',
    'tests/other/test_one.cpp: its source cpp/other/one.cpp does not exist (tests/F/test_NAME.cpp tests cpp/F/NAME.cpp)',
    'cpp/head/untested.cpp: no test file; write tests/head/test_untested.cpp (or add it to EXEMPT in scripts/check-tree.mjs, with why)',
  ]);
  const command = run(root);
  assert.equal(command.status, 1);
  assert.match(command.stdout, /cpp\/head\/untested\.cpp: no test file/);
});

test('a source is found untested when its exemption is missing, and a stale exemption is found', () => {
  const stale = { ...GOOD_EXEMPT, 'cpp/tools/gone.cpp': 'was a main()' };
  assert.deepEqual(treeFindings(tree(GOOD), { exempt: stale }), [
    'scripts/check-tree.mjs: EXEMPT names cpp/tools/gone.cpp, which does not exist',
  ]);
  assert.deepEqual(treeFindings(tree(GOOD), { exempt: {} }), [
    'cpp/tools/main.cpp: no test file; write tests/tools/test_main.cpp (or add it to EXEMPT in scripts/check-tree.mjs, with why)',
  ]);
  const tested = tree({ ...GOOD, 'tests/tools/test_main.cpp': TEST });
  assert.deepEqual(treeFindings(tested, { exempt: GOOD_EXEMPT }), [
    'cpp/tools/main.cpp: has tests/tools/test_main.cpp; drop it from EXEMPT in scripts/check-tree.mjs',
  ]);
});

test('a .cpp under tests/ that CMake would not build is found', () => {
  const root = tree({ ...GOOD, 'tests/head/one_test.cpp': TEST, 'tests/test_top.cpp': TEST });
  assert.deepEqual(treeFindings(root, { exempt: GOOD_EXEMPT }), [
    'tests/head/one_test.cpp: not named tests/F/test_NAME.cpp, so tests/CMakeLists.txt never builds it',
    'tests/test_top.cpp: not named tests/F/test_NAME.cpp, so tests/CMakeLists.txt never builds it',
  ]);
});

test('a folder of 12 source files passes and one of 13 fails; other files do not count', () => {
  const folder = (count) =>
    Object.fromEntries(
      Array.from({ length: count }, (_, i) => [`cpp/big/part${i}.${['hpp', 'js'][i % 2]}`, '']),
    );
  const notes = { 'cpp/big/README.md': '', 'cpp/big/data.json': '' };
  assert.deepEqual(
    treeFindings(tree({ ...GOOD, ...folder(12), ...notes }), { exempt: GOOD_EXEMPT }),
    [],
  );
  const root = tree({ ...GOOD, ...folder(13), ...notes });
  assert.deepEqual(treeFindings(root, { exempt: GOOD_EXEMPT }), [
    'cpp/big/: 13 source files; at most 12 (split it by concern)',
  ]);
  assert.equal(run(root).status, 1);
  // The limit counts one folder's own files: 12 here and 12 in a subfolder pass.
  const nested = Object.fromEntries(
    Object.entries(folder(12)).map(([path]) => [path.replace('big/', 'big/sub/'), '']),
  );
  assert.deepEqual(
    treeFindings(tree({ ...GOOD, ...folder(12), ...nested }), { exempt: GOOD_EXEMPT }),
    [],
  );
});

test("a test name with a ';' is found, since CTest would split it in two", () => {
  const root = tree({
    ...GOOD,
    'tests/head/test_one.cpp': `${TEST}TEST_CASE("it grows; then it stops",\n          "[one]") {}\n`,
  });
  assert.deepEqual(treeFindings(root, { exempt: GOOD_EXEMPT }), [
    'tests/head/test_one.cpp: test "it grows; then it stops" has a \';\', which CTest splits into two names',
  ]);
});

test('every exemption says why', () => {
  for (const [path, reason] of Object.entries(EXEMPT)) {
    assert.match(path, /^cpp\/.+\.cpp$/);
    assert.ok(reason.length > 20, `${path} needs a reason`);
  }
});
