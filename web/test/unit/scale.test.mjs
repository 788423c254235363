// lib/scale.js: the scale's modes, how the page prints them, and its link form, on hand-written
// cases, including every form a link has ever written (sqrt, d, none, a number).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CUSTOM,
  customScale,
  formatScale,
  INVERSE_D,
  INVERSE_SQRT_D,
  NAMED_MODES,
  namedScale,
  parseScale,
  SCALE_CHOICES,
  scaleLabel,
  STANDARD_SCALE,
  UNSCALED,
} from '../../src/lib/scale.js';

test('the modes are the core’s names, and the standard scale is 1/√d', () => {
  assert.deepEqual([INVERSE_SQRT_D, INVERSE_D, UNSCALED, CUSTOM], ['sqrt', 'd', 'none', 'custom']);
  assert.deepEqual([...NAMED_MODES], ['sqrt', 'd', 'none']);
  assert.deepEqual({ ...STANDARD_SCALE }, { mode: 'sqrt', factor: 1 });
  assert.deepEqual({ ...namedScale('d') }, { mode: 'd', factor: 1 });
  assert.deepEqual({ ...customScale(0.25) }, { mode: 'custom', factor: 0.25 });
  assert.ok(Object.isFrozen(customScale(2)));
});

test('labels read as the page prints them, with the factor the core applied when given', () => {
  assert.equal(scaleLabel({ mode: 'sqrt', factor: 1 }, 0.5), '1/√d = 0.50');
  assert.equal(scaleLabel({ mode: 'custom', factor: 3.16 }, 3.16), '× 3.16');
  assert.equal(scaleLabel({ mode: 'none', factor: 1 }, 1), 'no scaling');
  assert.equal(scaleLabel(STANDARD_SCALE), '1/√d');
  assert.equal(scaleLabel(namedScale('d')), '1/d');
  assert.equal(scaleLabel(namedScale('d'), 1 / 24), '1/d = 0.04');
  assert.equal(scaleLabel(customScale(5e-4)), '× 0.0005');
  assert.equal(scaleLabel(namedScale('d'), 1 / 256), '1/d = 0.0039'); // not 0.00
  assert.deepEqual(
    SCALE_CHOICES.map(({ mode, text }) => `${mode}: ${text}`),
    ['sqrt: 1/√d (standard)', 'd: 1/d', 'none: nothing', 'custom: my factor'],
  );
});

test('every link form of the scale parses to { mode, factor }, and the words format back', () => {
  const cases = [
    // [as a link writes it, the scale, as the link is written again]
    ['sqrt', { mode: 'sqrt', factor: 1 }, 'sqrt'],
    ['d', { mode: 'd', factor: 1 }, 'd'],
    ['none', { mode: 'none', factor: 1 }, 'none'],
    ['3.16', { mode: 'custom', factor: 3.16 }, '3.16'],
    ['1e-3', { mode: 'custom', factor: 0.001 }, '0.001'],
    ['1E3', { mode: 'custom', factor: 1000 }, '1000'],
    ['2e+2', { mode: 'custom', factor: 200 }, '200'],
    ['.5', { mode: 'custom', factor: 0.5 }, '0.5'],
    ['5.', { mode: 'custom', factor: 5 }, '5'],
    ['+2', { mode: 'custom', factor: 2 }, '2'],
    [' 2 ', { mode: 'custom', factor: 2 }, '2'], // a "+" in a URL reads back as a space
    ['1', { mode: 'custom', factor: 1 }, '1'],
  ];
  for (const [link, scale, written] of cases) {
    const parsed = parseScale(link);
    assert.deepEqual({ ...parsed.value }, scale, link);
    assert.equal(formatScale(parsed.value), written, link);
  }
});

test('a control’s { mode, factor } parses the same way, and bad forms get one message', () => {
  assert.deepEqual({ ...parseScale({ mode: 'd', factor: 7 }).value }, { mode: 'd', factor: 1 });
  assert.deepEqual(
    { ...parseScale({ mode: 'custom', factor: 0.2 }).value },
    { mode: 'custom', factor: 0.2 },
  );
  for (const bad of ['0', '-1', 'abc', '', 'custom', 'Infinity', '1e400', '1e', '0x10', 'NaN']) {
    assert.equal(
      parseScale(bad).error,
      'scale must be sqrt, d, none, or a positive number (the factor).',
      bad,
    );
  }
  assert.match(parseScale({ mode: 'custom', factor: -2 }).error, /positive number/);
});
