// The tables of docs/learning.md and the README that show committed results, written from those
// results and from nothing else: web/assets/learning-results.json (`npm run train --
// --save-results`), trained-head.json (`--save-head`) and copying-head.json (`npm run grow --
// --save`). Each table is a generated section (<!-- results:NAME:start --> … :end -->, see
// scripts/markdown.mjs). `node scripts/results-docs.mjs` (part of `npm run lint`) fails when a
// section differs from what the committed results give, or when a file has a results section
// this script does not write; `--write` rewrites them. After regenerating results, run it with
// --write, then read the prose around each table: web/test/learning-results.test.mjs holds
// the numbers that prose quotes.
import { readFileSync, writeFileSync } from 'node:fs';
import { markdownTable, replaceSection, sectionBody, sectionNames } from './markdown.mjs';

// The docs' names for the four configurations, and the differences each protocol's verdict
// table lists, a − b (learning-results.test.mjs checks the docs' rows by these too).
export const CONFIGS = ['nohead', 'sqrt', 'd', 'none'];
export const LABELS = { nohead: 'no head', sqrt: '1/√d', d: '1/d', none: 'none' };
export const PAIRS = [
  ['sqrt', 'nohead'],
  ['d', 'nohead'],
  ['none', 'nohead'],
  ['none', 'sqrt'],
  ['d', 'sqrt'],
];

const mean = (values) => values.reduce((sum, v) => sum + v, 0) / values.length;
function sampleSd(values) {
  const m = mean(values);
  return Math.sqrt(values.reduce((sum, v) => sum + (v - m) ** 2, 0) / (values.length - 1));
}
const fixed = (x, digits = 3) => x.toFixed(digits);
const spread = (values) => `${fixed(mean(values))} ± ${fixed(sampleSd(values))}`;
const signed = (x) => `${x < 0 ? '−' : '+'}${fixed(Math.abs(x))}`;
const thousands = (n) => n.toLocaleString('en');

const widthsOf = (results) => Object.keys(results.learningRates).map(Number);
function row(results, protocol, width, config) {
  const found = results[protocol].rows.find((r) => r.width === width && r.config === config);
  if (!found) throw new Error(`${protocol} has no row for d = ${width}, ${config}`);
  return found;
}

// The sweep: each width and rate, the four configurations' training loss and their mean.
export function sweepTable(results) {
  const { sweep, learningRates } = results;
  const lines = [['d', 'rate', ...CONFIGS.map((c) => LABELS[c]), 'mean', '']];
  for (const width of widthsOf(results))
    for (const rate of sweep.rates) {
      const losses = CONFIGS.map(
        (config) =>
          sweep.rows.find((r) => r.width === width && r.rate === rate && r.config === config)
            .trainingLoss,
      );
      const chosen = learningRates[width] === rate ? 'chosen' : '';
      lines.push([
        String(width),
        String(rate),
        ...losses.map((x) => fixed(x)),
        fixed(mean(losses)),
        chosen,
      ]);
    }
  return markdownTable(lines);
}

// The corpus protocol's rows: loss, first-step query gradient, entropy and peak, over the seeds.
export function mainTable(results) {
  const lines = [
    ['d', 'configuration', 'lr', 'loss end', '‖dWq‖ at step 1', 'entropy end', 'peak start → end'],
  ];
  for (const width of widthsOf(results))
    for (const config of CONFIGS) {
      const r = row(results, 'table', width, config);
      const head = config !== 'nohead';
      lines.push([
        String(width),
        LABELS[config],
        String(r.learningRate),
        spread(r.losses),
        head ? spread(r.queryGradientStep1) : '–',
        head ? fixed(mean(r.entropyEnd), 2) : '–',
        head ? `${fixed(mean(r.peakStart), 2)} → ${fixed(mean(r.peakEnd), 2)}` : '–',
      ]);
    }
  return markdownTable(lines);
}

// One protocol's held-out loss per width and configuration (the README's and section 6's).
export function lossTable(results, protocol) {
  const lines = [['d', 'lr', ...CONFIGS.map((c) => LABELS[c])]];
  for (const width of widthsOf(results))
    lines.push([
      String(width),
      String(results.learningRates[width]),
      ...CONFIGS.map((config) => spread(row(results, protocol, width, config).losses)),
    ]);
  return markdownTable(lines);
}

// Each difference a − b of one protocol against twice the larger sd, and the verdict it allows.
export function differencesTable(results, protocol) {
  const lines = [['d', 'compared', 'difference', 'twice the larger sd', 'verdict']];
  for (const width of widthsOf(results))
    for (const [a, b] of PAIRS) {
      const first = row(results, protocol, width, a).losses;
      const second = row(results, protocol, width, b).losses;
      const difference = mean(first) - mean(second);
      const threshold = 2 * Math.max(sampleSd(first), sampleSd(second));
      const verdict =
        Math.abs(difference) > threshold ? (difference < 0 ? 'lower' : 'higher') : 'about the same';
      const compared = `${LABELS[a]} − ${LABELS[b]}`;
      lines.push([String(width), compared, signed(difference), fixed(threshold), verdict]);
    }
  return markdownTable(lines);
}

// Section 6's protocol seed by seed at one width.
export function seedsTable(results, width) {
  const lines = [['seed', ...CONFIGS.map((c) => LABELS[c])]];
  for (const [i, seed] of results.page.seeds.entries())
    lines.push([
      String(seed),
      ...CONFIGS.map((config) => fixed(row(results, 'page', width, config).losses[i])),
    ]);
  return markdownTable(lines);
}

// Where the saved one-layer head's rows put their largest weight (trained-head.json).
export function censusTable(head) {
  const { counts, rows } = head.peakCensus;
  const names = [
    ['previous', 'the previous character'],
    ['two back', 'the character two back'],
    ['itself', "the query's own character"],
    ['space', 'a space or newline further back'],
    ['word start', "the first letter of the query's word"],
    ['elsewhere', 'anything else'],
  ];
  const lines = [['largest weight on', 'rows', 'share']];
  for (const [name, label] of names)
    lines.push([label, thousands(counts[name]), `${fixed((100 * counts[name]) / rows, 1)}%`]);
  return markdownTable(lines);
}

// The saved copying run's recording (copying-head.json's curve) at every 400th step, the step
// Shakespeare joins, the two crossings of layer 2's score and the last.
export function copyingRunTable(copying) {
  const { curve, training } = copying;
  const last = curve.step[curve.step.length - 1];
  const marks = [training.laterStep, training.crossed03, training.crossed05, last];
  const steps = curve.step.filter((step) => step % 400 === 0 || marks.includes(step));
  const pair = (a, b, digits) => `${fixed(a, digits)} / ${fixed(b, digits)}`;
  const lines = [
    [
      'step',
      'training loss',
      'held-out loss',
      'layer 1 induction / previous',
      'layer 2 induction / previous',
      'loss on 1st / 2nd copy',
    ],
  ];
  for (const step of steps) {
    const i = curve.step.indexOf(step);
    const [one, two] = [0, 1].map((layer) =>
      pair(curve.induction[layer][i], curve.previousToken[layer][i], 3),
    );
    const training = curve.trainLoss[i];
    lines.push([
      thousands(step),
      training === null ? '–' : fixed(training),
      fixed(curve.heldOutLoss[i]),
      one,
      two,
      pair(curve.firstCopyLoss[i], curve.secondCopyLoss[i], 2),
    ]);
  }
  return markdownTable(lines);
}

// The saved copying head's census (copying-head.json): on each kind of text, the share of
// second-copy rows whose layer-2 peak is on the copy, layer 1's share one back, and the loss on
// each copy; in natural text, the share of rows with an earlier occurrence that peak after it.
export function copyingCensusTable(copying) {
  const { heldOutPassages, randomStrings, readerPhrases, naturalText } = copying.census;
  const percent = (share) => `${fixed(100 * share, 1)}%`;
  const lines = [
    ['text', 'rows', 'layer 2 on the copy', 'layer 1 one back', 'loss on 1st copy', '2nd copy'],
  ];
  const kinds = [
    ['held-out passages', heldOutPassages],
    ['random strings', randomStrings],
    ['phrases typed twice', readerPhrases],
  ];
  for (const [label, kind] of kinds)
    lines.push([
      label,
      thousands(kind.rows),
      percent(kind.layers[1].inductionShare),
      percent(kind.layers[0].previousShare),
      fixed(kind.firstCopyLoss),
      fixed(kind.secondCopyLoss),
    ]);
  lines.push([
    'natural held-out text',
    thousands(naturalText.rows),
    percent(naturalText.share),
    '–',
    '–',
    '–',
  ]);
  return markdownTable(lines);
}

// Every generated results section: its file, its name and its body from the committed files.
export function sections({ results, head, copying }) {
  const learning = 'docs/learning.md';
  return [
    { file: 'README.md', name: 'results:table', body: lossTable(results, 'table') },
    { file: learning, name: 'results:sweep', body: sweepTable(results) },
    { file: learning, name: 'results:table', body: mainTable(results) },
    { file: learning, name: 'results:differences', body: differencesTable(results, 'table') },
    { file: learning, name: 'results:page', body: lossTable(results, 'page') },
    { file: learning, name: 'results:page-differences', body: differencesTable(results, 'page') },
    { file: learning, name: 'results:page-seeds', body: seedsTable(results, 64) },
    { file: learning, name: 'results:census', body: censusTable(head) },
    { file: learning, name: 'results:copying-run', body: copyingRunTable(copying) },
    { file: learning, name: 'results:copying-census', body: copyingCensusTable(copying) },
  ];
}

// What is wrong with texts ({ file: text }) against the sections: a section missing or stale,
// or a results section that nothing writes. [] when they hold.
export function findings(texts, expected) {
  const found = [];
  for (const { file, name, body } of expected) {
    const held = sectionBody(texts[file], name);
    if (held === null) found.push(`${file}: no section ${name}`);
    else if (held !== body) found.push(`${file}: ${name} is not what the committed results give`);
  }
  for (const [file, text] of Object.entries(texts))
    for (const name of sectionNames(text).filter((n) => n.startsWith('results:')))
      if (!expected.some((s) => s.file === file && s.name === name))
        found.push(`${file}: ${name} is written by nothing here`);
  return found;
}

// texts with every section's body written.
export function written(texts, expected) {
  const out = { ...texts };
  for (const { file, name, body } of expected) out[file] = replaceSection(out[file], name, body);
  return out;
}

function main(args) {
  const root = new URL('../', import.meta.url);
  const read = (path) => readFileSync(new URL(path, root), 'utf8');
  const json = (name) => JSON.parse(read(`web/assets/${name}`));
  const expected = sections({
    results: json('learning-results.json'),
    head: json('trained-head.json'),
    copying: json('copying-head.json'),
  });
  const files = [...new Set(expected.map((s) => s.file))];
  const texts = Object.fromEntries(files.map((file) => [file, read(file)]));
  const write = args.includes('--write');
  const out = write ? written(texts, expected) : texts;
  if (write)
    for (const file of files)
      if (out[file] !== texts[file]) writeFileSync(new URL(file, root), out[file]);
  const problems = findings(out, expected);
  for (const problem of problems) console.error(`results-docs: ${problem}`);
  if (problems.length) {
    console.error('results-docs: node scripts/results-docs.mjs --write rewrites the tables');
    process.exitCode = 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main(process.argv.slice(2));
