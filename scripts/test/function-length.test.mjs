// The function-length checker on hand-made sources: a function that is long only because of
// the closure nested in it fails at 81 lines and passes at 80, in JavaScript and in C++; each
// closure is also measured on its own; braces in comments, strings and initialisers do not
// count as functions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cxxFunctions, javascriptFunctions, longFunctions } from '../function-length.mjs';

const filler = (count, line) => Array.from({ length: count }, () => line);

// `lines` lines in all: a two-line function whose body is one nested closure.
function nestedJavaScript(lines) {
  return [
    'export function outer(step) {',
    '  return function inner(x) {',
    ...filler(lines - 4, '    x += step;'),
    '  };',
    '}',
  ].join('\n');
}

function nestedCxx(lines) {
  return [
    'namespace {',
    'int outer(int step) {',
    '    auto inner = [&](int x) {',
    ...filler(lines - 5, '        x += step;'),
    '        return x; };',
    '    return inner(1);',
    '}',
    '}  // namespace',
  ].join('\n');
}

function checked(name, source) {
  const folder = mkdtempSync(join(tmpdir(), 'function-length-'));
  writeFileSync(join(folder, name), source);
  return longFunctions([folder]).map(({ name: found, lines }) => `${found} ${lines}`);
}

test('a JavaScript function made long by its nested closure fails at 81 lines, passes at 80', () => {
  assert.deepEqual(checked('long.js', nestedJavaScript(81)), ['outer 81']);
  assert.deepEqual(checked('fits.js', nestedJavaScript(80)), []);
});

test('every JavaScript function is measured on its own, closures and methods included', () => {
  const source = [
    'const make = () => {', // 1
    '  const object = {', // 2
    '    method() {', // 3
    '      return [1].map((x) =>', // 4
    '        x + 1);', // 5
    '    },', // 6
    '  };', // 7
    '  return object;', // 8
    '};', // 9
  ].join('\n');
  assert.deepEqual(
    javascriptFunctions(source).map(({ name, line, lines }) => [name, line, lines]),
    [
      ['make', 1, 9],
      ['method', 3, 4],
      ['(arrow)', 4, 2],
    ],
  );
  assert.deepEqual(
    javascriptFunctions(nestedJavaScript(81)).map(({ name, lines }) => [name, lines]),
    [
      ['outer', 81],
      ['inner', 79],
    ],
  );
});

test('a C++ function made long by its lambda fails at 81 lines, passes at 80', () => {
  assert.deepEqual(checked('long.cpp', nestedCxx(81)), ['outer 81']);
  assert.deepEqual(checked('fits.cpp', nestedCxx(80)), []);
});

test('C++ functions at namespace and class scope are found; comments, strings, data are not', () => {
  const source = [
    '#define BLOCK { {',
    '// void not_a_function() {',
    'namespace attention {',
    'constexpr int kTable[] = {1, 2};',
    'struct Session {',
    '    std::vector<int> probe{1, 2};',
    '    Session() : probe{3}, name("{") {}',
    '    int size() const { return 1; }',
    '};',
    'template <typename F>',
    'val guarded(F&& compute) {',
    '    const char* brace = "}";',
    '    return compute();',
    '}',
    'extern "C" __attribute__((export_name("attend"))) void attend() {',
    '}',
    '}  // namespace attention',
  ].join('\n');
  assert.deepEqual(
    cxxFunctions(source).map(({ name, line, lines }) => [name, line, lines]),
    [
      ['Session', 7, 1],
      ['size', 8, 1],
      ['guarded', 10, 5],
      ['attend', 15, 2],
    ],
  );
});
