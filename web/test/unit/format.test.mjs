// lib/format.js on hand-written cases: a value that is not zero never prints as zero, zero can
// say "exactly 0", table cells read back as numbers, and nothing prints NaN.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  axisTick,
  cell,
  compact,
  exactly,
  fixed,
  scientific,
  significant,
  sharePhrase,
} from '../../src/lib/format.js';

const cases = (format, table) => {
  for (const [value, expected] of table) assert.equal(format(value), expected, `${value}`);
};

test('fixed keeps its decimals while they show the value', () => {
  cases(
    (value) => fixed(value, 2),
    [
      [0.8, '0.80'],
      [0.4549, '0.45'],
      [1, '1.00'],
      [0, '0.00'],
      [0.005, '0.01'], // rounds up: not zero
      [12.345, '12.35'],
      [-0.25, '-0.25'],
    ],
  );
  assert.equal(fixed(0.0283, 3), '0.028');
});

test('fixed never prints a value that is not zero as 0.00 or 0.0000', () => {
  // 1/d at d = 256 is 0.00390625: two significant digits, not "0.00".
  cases(
    (value) => fixed(value, 2),
    [
      [1 / 256, '0.0039'],
      [0.00012, '0.00012'],
      [0.0004999, '0.0005'],
      [0.00009, '< 0.0001'],
      [2.4e-7, '< 0.0001'],
      [-0.003, '-0.003'],
      [-2e-9, '> -0.0001'],
    ],
  );
  assert.equal(fixed(3.1e-5, 4), '< 0.0001');
  assert.equal(fixed(0.00031, 4), '0.0003'); // four decimals already show it
  assert.equal(fixed(0.3, 0), '0.3'); // a percentage under 1/2 is not "0"
});

test('significant gives two significant digits in plain decimals', () => {
  cases(significant, [
    [0.00390625, '0.0039'],
    [0.000123, '0.00012'],
    [0.45, '0.45'],
    [0.0300001, '0.03'],
  ]);
  assert.equal(significant(12345, 3), '12300');
});

test('table cells read back with Number(), and never as zero unless they are', () => {
  cases(
    (value) => cell(value, 3),
    [
      [0.804, '0.804'],
      [0, '0.000'],
      [0.00031, '0.00031'],
      [3.14e-7, '3.1e-07'],
      [-4e-6, '-4.0e-06'],
    ],
  );
  for (const value of [0.00031, 3.14e-7, 1e-30, 0.25]) {
    const read = Number(cell(value, 3));
    assert.ok(read !== 0 && Math.abs(read - value) <= 0.05 * value + 5e-4, `${value} → ${read}`);
  }
});

test('exactly says so for zero and formats anything else', () => {
  assert.equal(exactly(0), 'exactly 0');
  assert.equal(exactly(-0), 'exactly 0');
  assert.equal(
    exactly(2.4e-7, (value) => fixed(value, 4)),
    '< 0.0001',
  );
  assert.equal(
    exactly(0.0123, (value) => fixed(value, 3)),
    '0.012',
  );
});

test('compact prints 1/d at d = 256 as 0.0039, scores with a real minus sign', () => {
  cases(compact, [
    [0.00390625, '0.0039'],
    [0.2041, '0.20'],
    [0.005, '0.01'],
    [-0.002, '−0.002'],
    [-1, '−1.00'],
    [12.34, '12.3'],
    [123.4, '123'],
    [5e-5, '5.0e-05'],
    [12345, '1.2e+04'],
    [0, '0.00'],
    [-Infinity, '−∞'],
  ]);
});

test('scientific writes two exponent digits and a sign, like Python', () => {
  assert.equal(scientific(4.768e-7), '4.77e-07');
  assert.equal(scientific(1234.5, 1), '1.2e+03');
});

test('nothing prints NaN or undefined', () => {
  for (const format of [fixed, significant, cell, compact, scientific, exactly]) {
    for (const value of [Number.NaN, Infinity, undefined]) {
      assert.equal(format(value), '—', `${format.name}(${value})`);
    }
  }
});

test('axis ticks group thousands, drop float noise and keep a real minus sign', () => {
  cases(axisTick, [
    [0, '0'],
    [1150, '1,150'],
    [1234567, '1,235,000'],
    [0.30000000000000004, '0.3'],
    [2.25, '2.25'],
    [-0.5, '−0.5'],
    [Number.NaN, '—'],
  ]);
});

test('a share is never rounded to all or nothing', () => {
  const cases = [
    [1, 'all'],
    [0.9996, 'nearly all'],
    [0.994, '99%'],
    [0.5, '50%'],
    [0.006, '1%'],
    [0.004, 'under 1%'],
  ];
  for (const [share, words] of cases) assert.equal(sharePhrase(share), words, String(share));
});
