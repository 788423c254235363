// The docs' generated results tables: the Markdown pieces against tables written by hand, the
// tables against results small enough to work out by hand, and the check, which finds a stale,
// a missing and an unowned section. (web/test/learning-results.test.mjs holds the committed
// docs to the committed results on its own, row by row.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { markdownTable, replaceSection, sectionBody, sectionNames } from '../markdown.mjs';
import { copyingRunTable, differencesTable, findings, written } from '../results-docs.mjs';

test('a table pads each column to its widest cell, at least 3, and aligns the right ones right', () => {
  const table = markdownTable(
    [
      ['d', 'name', 'n'],
      ['16', '1/√d', '7'],
      ['256', 'no head', '12'],
    ],
    [2],
  );
  assert.equal(
    table,
    [
      '| d   | name    |   n |',
      '| --- | ------- | --: |',
      '| 16  | 1/√d    |   7 |',
      '| 256 | no head |  12 |',
    ].join('\n'),
  );
});

const DOC = 'intro\n<!-- results:a:start -->\nold\nrows\n<!-- results:a:end -->\nafter\n';

test('a generated section is read, replaced and named by its markers', () => {
  assert.equal(sectionBody(DOC, 'results:a'), 'old\nrows');
  assert.equal(sectionBody(DOC, 'results:b'), null);
  assert.equal(
    replaceSection(DOC, 'results:a', 'new'),
    'intro\n<!-- results:a:start -->\nnew\n<!-- results:a:end -->\nafter\n',
  );
  assert.throws(() => replaceSection(DOC, 'results:b', 'x'), /no section results:b/);
  const empty = '<!-- results:e:start -->\n<!-- results:e:end -->\n';
  assert.equal(sectionBody(empty, 'results:e'), '');
  assert.equal(
    replaceSection(empty, 'results:e', '| a |'),
    '<!-- results:e:start -->\n| a |\n<!-- results:e:end -->\n',
  );
  assert.deepEqual(sectionNames(`${DOC}<!-- prose:start -->\n\n<!-- prose:end -->`), [
    'results:a',
    'prose',
  ]);
});

// One width; losses whose means and sample sds are round: no head 2.00 ± 0.01, 1/√d 1.90 ±
// 0.02, 1/d 1.91 ± 0.01 and none 2.01 ± 0.03 (three seeds each: m − s, m, m + s).
const around = (m, s) => [m - s, m, m + s];
const RESULTS = {
  learningRates: { 16: 0.03 },
  table: {
    rows: [
      { width: 16, config: 'nohead', losses: around(2.0, 0.01) },
      { width: 16, config: 'sqrt', losses: around(1.9, 0.02) },
      { width: 16, config: 'd', losses: around(1.91, 0.01) },
      { width: 16, config: 'none', losses: around(2.01, 0.03) },
    ],
  },
};

test('each difference is held to twice the larger sd, worked by hand', () => {
  const rows = differencesTable(RESULTS, 'table').split('\n').slice(2);
  assert.deepEqual(rows, [
    // 1.90 − 2.00 = −0.100 against 2 × 0.02
    '| 16  | 1/√d − no head | −0.100     | 0.040               | lower          |',
    // 1.91 − 2.00 = −0.090 against 2 × 0.01
    '| 16  | 1/d − no head  | −0.090     | 0.020               | lower          |',
    // 2.01 − 2.00 = +0.010 against 2 × 0.03
    '| 16  | none − no head | +0.010     | 0.060               | about the same |',
    // 2.01 − 1.90 = +0.110 against 2 × 0.03
    '| 16  | none − 1/√d    | +0.110     | 0.060               | higher         |',
    // 1.91 − 1.90 = +0.010 against 2 × 0.02
    '| 16  | 1/d − 1/√d     | +0.010     | 0.040               | about the same |',
  ]);
});

test("the copying run's rows: every 400th step, Shakespeare joining, both crossings, the last", () => {
  const step = Array.from({ length: 21 }, (_, i) => 50 * i); // 0 … 1,000
  const series = (value) => step.map(() => value);
  const copying = {
    training: { laterStep: 600, crossed03: 650, crossed05: 700 },
    curve: {
      step,
      trainLoss: [null, ...series(3).slice(1)],
      heldOutLoss: series(2.5),
      induction: [series(0.01), series(0.5)],
      previousToken: [series(0.2), series(0.001)],
      firstCopyLoss: series(4.5),
      secondCopyLoss: series(1.25),
    },
  };
  const rows = copyingRunTable(copying).split('\n').slice(2);
  const steps = rows.map((line) => line.split('|')[1].trim());
  assert.deepEqual(steps, ['0', '400', '600', '650', '700', '800', '1,000']);
  assert.match(
    rows[0],
    /^\| 0 +\| – +\| 2\.500 +\| 0\.010 \/ 0\.200 +\| 0\.500 \/ 0\.001 +\| 4\.50 \/ 1\.25/,
  );
});

test('the check finds a stale, a missing and an unowned section, and --write mends the first', () => {
  const expected = [
    { file: 'a.md', name: 'results:a', body: 'new' },
    { file: 'b.md', name: 'results:b', body: 'b' },
  ];
  const texts = { 'a.md': DOC, 'b.md': '<!-- results:c:start -->\nc\n<!-- results:c:end -->\n' };
  assert.deepEqual(findings(texts, expected), [
    'a.md: results:a is not what the committed results give',
    'b.md: no section results:b',
    'b.md: results:c is written by nothing here',
  ]);
  const mended = written({ 'a.md': DOC }, expected.slice(0, 1));
  assert.deepEqual(findings(mended, expected.slice(0, 1)), []);
  assert.equal(sectionBody(mended['a.md'], 'results:a'), 'new');
});
