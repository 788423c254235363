// The numbers the page's prose may quote as measurements, and the few it may write that are not
// measurements. learning-results.test.mjs holds every number of the narrative, the folded
// blocks, the glossary and the sentences built from committed results to this: each is either
// one of a committed result's forms below (the map says where it comes from), or sits in a
// phrase of ALLOWED, which says why it is no measurement.
//
// The committed results are the files the runs wrote: web/assets/learning-results.json,
// trained-head.json and copying-head.json, and the PyTorch fixtures the tutorial's numbers are
// checked against (tests/fixtures/scale_demo.json, equivalence.json).
//
// The forms, the stated rules a quoted number may follow:
// - any number the file writes, as written, or rounded to 1, 2 or 3 decimals (an sd also to
//   4), or as a percent with 0 or 1 decimals; a whole number also with thousands commas;
// - any number written inside one of its strings ("the last 50 steps");
// - over the seeds of a learning-results row, for each per-seed list: its mean, least and
//   largest value, and how many seeds;
// - between two rows of one protocol and width: the difference of their means and twice the
//   larger of their sds; the ratio, seed by seed, of a head's first-step query gradient to the
//   1/√d head's;
// - the sweep: the mean over the configurations of a width and rate.

// A phrase whose numbers are not measurements, and why.
export const ALLOWED = Object.freeze([
  {
    phrase: /\b[01]\b(?![.,]\d)/,
    reason: '0 and 1: the ends of a weight’s range, a unit size, a seed, or one of something',
  },
  { phrase: /\bsections? \d+\b/, reason: 'a section’s number' },
  { phrase: /\b2 × (?=\d)/, reason: 'the factor of section 6’s rule: twice the seed spread' },
  {
    phrase: /\bd = 24\b|\b24-wide\b|\bits own width of 24\b/,
    reason: 'the tutorial’s width, a setting it chose',
  },
  { phrase: /\be \(about 2\.72\)/, reason: 'the constant e, the base of softmax’s powers' },
  { phrase: /\[\d+\]/, reason: 'a citation: the number of a source in the sources list' },
  { phrase: /\(\d{4}\),/, reason: 'a source’s year of publication' },
  {
    phrase: /\babout 40,000 lines of Shakespeare/,
    reason: 'the corpus’s own description (data/README.md), not a run',
  },
  {
    phrase: /\btwo batches of 16 tokens, width 32\b/,
    reason: 'the inputs of the tutorial’s check, settings it chose',
  },
  { phrase: /\b0\.01, 0\.1 and 1\b/, reason: 'the tick labels of the √d chart’s log axis' },
  {
    phrase: /\b4 means the row listens to about four tokens|\bon 4 tokens give exactly 4\b/,
    reason: 'a worked example of the definition: e raised to ln 4 is 4',
  },
  {
    phrase:
      /\babout (7|16)( correct)? digits\b|\bkeeps about 16\b|\b(32|64) bits\b|\bthis page uses, about 7\b|\bfloat64 about 16\b|\b16-bit numbers\b/,
    reason: 'IEEE 754: float32 and float64 keep 24 and 53 bits, about 7 and 16 decimal digits',
  },
  { phrase: /\b0\.00001\b/, reason: 'the proof’s pass mark, a setting of the check' },
  {
    phrase: /\b0\.0000001\b/,
    reason: 'float32’s rounding step near 1 (2⁻²³, about 1.2e-7): arithmetic, not a run',
  },
  { phrase: /\bC\+\+17\b|\bPyTorch 1\.13\b/, reason: 'the versions of the tools' },
  { phrase: /\blog base 2\b/, reason: 'the definition of bits' },
]);

// A number as prose writes it: digits with thousands commas or not, decimals, a percent sign,
// no sign. Not one that is part of a word or a name (float32, C++17) or the top of a fraction
// (1/√d).
const NUMBER = /(?<![\w.+/√])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?%?(?![\w/]|\.\d)/g;

// Every number of text, with where it stands: { text, index }.
export function numbersIn(text) {
  return [...text.matchAll(NUMBER)].map((found) => ({ text: found[0], index: found.index }));
}

// The numbers of text that no phrase of ALLOWED covers.
export function unexplained(text, allowed = ALLOWED) {
  const covered = [];
  for (const { phrase } of allowed)
    for (const found of text.matchAll(new RegExp(phrase.source, 'g')))
      covered.push([found.index, found.index + found[0].length]);
  return numbersIn(text).filter(
    ({ index, text: number }) =>
      !covered.some(([start, end]) => index >= start && index + number.length <= end),
  );
}

// ---- The committed results' forms -----------------------------------------------------------

function addForms(known, value, origin, { sd = false } = {}) {
  if (!Number.isFinite(value)) return;
  const add = (form) => {
    if (!known.has(form)) known.set(form, origin);
  };
  const size = Math.abs(value);
  if (Number.isInteger(size)) {
    add(String(size));
    add(size.toLocaleString('en'));
  } else {
    add(String(size));
    for (const digits of sd ? [1, 2, 3, 4] : [1, 2, 3]) add(size.toFixed(digits));
  }
  for (const digits of [0, 1]) add(`${(100 * size).toFixed(digits)}%`);
}

// Every number of a JSON value (and inside its strings), with its path.
function addLeaves(known, value, path) {
  if (typeof value === 'number') {
    addForms(known, value, path);
  } else if (typeof value === 'string') {
    const written = numbersIn(value).filter(({ text }) => !text.endsWith('%'));
    for (const { text } of written) addForms(known, Number(text.replace(/,/g, '')), path);
  } else if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) addLeaves(known, item, `${path}[${i}]`);
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) addLeaves(known, item, `${path}.${key}`);
  }
}

const mean = (values) => values.reduce((sum, v) => sum + v, 0) / values.length;
const PER_SEED = [
  'losses',
  'lossStart',
  'queryGradientStep1',
  'entropyEnd',
  'peakStart',
  'peakEnd',
];

function addRows(known, protocol, rows) {
  for (const row of rows) {
    const where = `${protocol} d = ${row.width} ${row.config}`;
    addForms(known, row.sd, `${where} sd`, { sd: true });
    for (const key of PER_SEED.filter((name) => Array.isArray(row[name]))) {
      addForms(known, mean(row[key]), `${where} mean ${key}`);
      addForms(known, Math.min(...row[key]), `${where} least ${key}`);
      addForms(known, Math.max(...row[key]), `${where} largest ${key}`);
      addForms(known, row[key].length, `${where} seeds`);
    }
    for (const other of rows.filter((r) => r.width === row.width && r !== row)) {
      const pair = `${protocol} d = ${row.width} ${row.config} − ${other.config}`;
      addForms(known, row.mean - other.mean, `${pair}: difference`);
      addForms(known, 2 * Math.max(row.sd, other.sd), `${pair}: twice the larger sd`);
      if (other.config !== 'sqrt' || !row.queryGradientStep1) continue;
      for (const [seed, norm] of row.queryGradientStep1.entries())
        addForms(known, norm / other.queryGradientStep1[seed], `${pair}: gradient ratio`);
    }
  }
}

function addSweep(known, sweep) {
  for (const width of new Set(sweep.rows.map((r) => r.width)))
    for (const rate of sweep.rates) {
      const losses = sweep.rows.filter((r) => r.width === width && r.rate === rate);
      addForms(known, mean(losses.map((r) => r.trainingLoss)), `sweep d = ${width} ${rate} mean`);
    }
}

// files: { name: parsed JSON }. A Map from each form to where it comes from.
export function committedForms(files) {
  const known = new Map();
  for (const [name, content] of Object.entries(files)) {
    addLeaves(known, content, name);
    if (name !== 'learning-results.json') continue;
    for (const protocol of ['table', 'page'])
      if (content[protocol]) addRows(known, `${name} ${protocol}`, content[protocol].rows);
    if (content.sweep) addSweep(known, content.sweep);
  }
  return known;
}
