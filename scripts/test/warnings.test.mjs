// warnings.mjs on hand-written compile commands and on real compiles: the rewrite drops CMake's
// `-o OBJECT` (and not a quoted define's " -o ") and keeps its escaped quotes; a source compiled
// twice by one compiler is checked once; a missing compiler is named with `npm run setup`; and a
// real entry of the gcc tree, configured here in a temporary folder and pointed at a temporary
// source, fails on a narrowing conversion, naming the file and the warning (with -Werror or
// without), and passes a clean one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  TREES,
  checkEntry,
  configure,
  inPool,
  missingTools,
  report,
  syntaxOnlyCommand,
  uniqueBySource,
} from '../warnings.mjs';

const LIMIT = { timeout: 120_000 };

test('the rewrite drops the object and adds -fsyntax-only, quotes untouched', LIMIT, () => {
  // As CMake 3.25 writes a target with DIR="/x/y" and NOTE="a -o b" (the JSON unescaped).
  const command = String.raw`/usr/bin/c++ -DDIR=\"/x/y\" -DNOTE="\"a -o b\"" -I/src/cpp -O3 -Werror -std=c++17 -o CMakeFiles/x.dir/cpp/a.cpp.o -c /src/cpp/a.cpp`;
  assert.equal(
    syntaxOnlyCommand(command),
    String.raw`/usr/bin/c++ -DDIR=\"/x/y\" -DNOTE="\"a -o b\"" -I/src/cpp -O3 -Werror -std=c++17 -c /src/cpp/a.cpp -fsyntax-only`,
  );
  assert.throws(() => syntaxOnlyCommand('/usr/bin/c++ -c a.cpp'), /no "-o OBJECT"/);
});

test('a source compiled twice by one compiler is checked once, as first listed', LIMIT, () => {
  const entries = [
    { file: '/src/cpp/a.cpp', command: 'em++ -O3 -o a.o -c /src/cpp/a.cpp' },
    { file: '/src/cpp/b.cpp', command: 'em++ -O3 -o b.o -c /src/cpp/b.cpp' },
    { file: '/src/cpp/a.cpp', command: 'em++ -Oz -o a2.o -c /src/cpp/a.cpp' },
  ];
  assert.deepEqual(uniqueBySource(entries), [entries[0], entries[1]]);
});

test('a compiler that is not installed is named, with npm run setup', LIMIT, () => {
  const tree = { name: 'clang', tools: ['sh', 'no-such-compiler-9'] };
  assert.deepEqual(missingTools([tree]), [
    'warnings: no-such-compiler-9 not found, which the clang tree needs; install it with `npm run setup`',
  ]);
});

test(
  'the pool runs every job once, at most `limit` at a time, results in order',
  LIMIT,
  async () => {
    let running = 0;
    let most = 0;
    const results = await inPool([5, 1, 4, 2, 3], 2, async (n) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((done) => setTimeout(done, n * 5));
      running -= 1;
      return n * 10;
    });
    assert.deepEqual(results, [50, 10, 40, 20, 30]);
    assert.equal(most, 2);
  },
);

// The gcc tree's entry for cpp/attention/formula.cpp, with its command pointed at `source`.
function pointedAt(entries, source) {
  const entry = entries.find(({ file }) => file.endsWith('/cpp/attention/formula.cpp'));
  assert.ok(entry, 'the gcc tree compiles cpp/attention/formula.cpp');
  assert.match(entry.command, / -Wconversion .*-Werror /, 'the project warning flags');
  return { ...entry, file: source, command: entry.command.replace(entry.file, source) };
}

test(
  'a real gcc command fails on a narrowing conversion and passes a clean file',
  LIMIT,
  async () => {
    const folder = mkdtempSync(join(tmpdir(), 'warnings-'));
    try {
      const gcc = TREES.find(({ name }) => name === 'gcc');
      const entries = await configure(gcc, join(folder, 'gcc'));
      const narrowing = join(folder, 'narrowing.cpp');
      const clean = join(folder, 'clean.cpp');
      writeFileSync(narrowing, 'int f(long x) { return x; }\n');
      writeFileSync(clean, 'int f(long x) { return static_cast<int>(x); }\n');

      const bad = { label: 'g++', ...(await checkEntry(pointedAt(entries, narrowing))) };
      assert.equal(bad.ok, false);
      // g++ names the flag as -Werror turns it into an error.
      assert.match(bad.output, /narrowing\.cpp:1:\d+: error: .*\[-Werror=conversion\]/);
      // Without -Werror the compile succeeds, and the warning it prints still fails the unit.
      const lenient = pointedAt(entries, narrowing);
      const warned = await checkEntry({
        ...lenient,
        command: lenient.command.replace(' -Werror', ''),
      });
      assert.equal(warned.ok, false);
      assert.match(warned.output, /narrowing\.cpp:1:\d+: warning: .*\[-Wconversion\]/);
      const good = { label: 'g++', ...(await checkEntry(pointedAt(entries, clean))) };
      assert.deepEqual(good, { label: 'g++', file: clean, ok: true, output: '' });

      const failed = report([bad, good], ['g++', 'em++'], 3.2);
      assert.equal(failed.ok, false);
      assert.match(failed.text, /^== g\+\+: .*narrowing\.cpp\n.*\[-Werror=conversion\]/s);
      assert.doesNotMatch(failed.text, /clean\.cpp/);
      assert.match(failed.text, /\nwarnings: 1 of 2 translation units warn \(g\+\+ 1\) in 3 s/);
      assert.deepEqual(report([good], ['g++', 'em++'], 3.6), {
        ok: true,
        text: 'warnings: none in 1 translation unit (g++ 1) in 4 s',
      });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  },
);
