// The committed results of `npm run train -- --save-results` (web/assets/learning-results.json)
// against what the README and docs/learning.md say about them: every mean ± sd, learning rate
// and difference they quote is recomputed here from the per-seed losses, and every difference
// they call a difference is larger than twice the larger of the two spreads (otherwise the text
// must say "about the same"). The trained head's census (web/assets/trained-head.json) is checked
// the same way. Also that the file's "page" protocol is section 6's own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { corpusSentence } from '../src/figures/attention-map/trained-note.js';
import { FORMS_AT, growthModel } from '../src/figures/copying/model.js';
import * as trainingModel from '../src/figures/training/model.js';
import { DEFAULT_SETTINGS, FIXED, RUNS, WIDTHS } from '../src/figures/training/model.js';
import { GLOSSARY } from '../src/lib/glossary.js';
import { ALLOWED, committedForms, numbersIn, unexplained } from './quoted-numbers.mjs';
import { CONFIGS, LABELS, PAIRS } from '../../scripts/results-docs.mjs';

const root = new URL('../../', import.meta.url);
const read = (path) => readFileSync(new URL(path, root), 'utf8');
const results = JSON.parse(read('web/assets/learning-results.json'));
const head = JSON.parse(read('web/assets/trained-head.json'));
const docs = read('docs/learning.md');
const readme = read('README.md');

const mean = (values) => values.reduce((sum, v) => sum + v, 0) / values.length;
function sampleSd(values) {
  const m = mean(values);
  return Math.sqrt(values.reduce((sum, v) => sum + (v - m) ** 2, 0) / (values.length - 1));
}

const row = (protocol, width, config) => {
  const found = results[protocol].rows.find((r) => r.width === width && r.config === config);
  assert.ok(found, `${protocol} has a row for d = ${width}, ${config}`);
  return found;
};
const fixed = (x, digits = 3) => x.toFixed(digits);
const plusMinus = (r) => `${fixed(r.mean)} ± ${fixed(r.sd)}`;

// a − b between two rows of one protocol and width, and whether it counts as a difference.
function compare(protocol, width, a, b) {
  const first = row(protocol, width, a);
  const second = row(protocol, width, b);
  const difference = first.mean - second.mean;
  const threshold = 2 * Math.max(first.sd, second.sd);
  return { difference, threshold, real: Math.abs(difference) > threshold };
}

const seedsOf = (protocol) => (protocol === 'page' ? results.page.seeds : results.seeds);

test('every row is four configurations × three widths, with its mean and sd from the seeds', () => {
  for (const protocol of ['table', 'page']) {
    assert.ok(seedsOf(protocol).length >= 2, protocol);
    assert.equal(results[protocol].rows.length, CONFIGS.length * WIDTHS.length, protocol);
    for (const width of WIDTHS)
      for (const config of CONFIGS) {
        const r = row(protocol, width, config);
        assert.equal(r.losses.length, seedsOf(protocol).length);
        assert.ok(Math.abs(r.mean - mean(r.losses)) < 2e-6, `${protocol} ${width} ${config} mean`);
        assert.ok(Math.abs(r.sd - sampleSd(r.losses)) < 2e-6, `${protocol} ${width} ${config} sd`);
        assert.ok(
          r.mean > 1 && r.mean < Math.log(65) + 1,
          `${protocol} ${width} ${config} plausible`,
        );
      }
  }
});

// The page's text and its vocabulary are checked against the built page in
// training-protocol.test.mjs, which also trains seed 0 the page's way.
test("the page rows are section 6's protocol, and the table's held-out set is the whole tail", () => {
  const { page, table, heldOut } = results;
  assert.equal(page.steps, DEFAULT_SETTINGS.steps);
  assert.equal(page.batch, FIXED.batch);
  assert.equal(page.context, FIXED.context);
  assert.equal(page.heldOutWindows, 32, "the page trainer's held-out windows");
  assert.equal(page.heldOutPredictions, page.heldOutWindows * FIXED.context);
  assert.ok(page.characters < 65000 && page.vocabulary < 65, 'the start of the corpus only');
  for (const r of page.rows)
    assert.equal(r.learningRate, results.learningRates[r.width], `page d = ${r.width} ${r.config}`);
  assert.equal(table.context, FIXED.context);
  assert.ok(heldOut.predictions >= 50000, `${heldOut.predictions} held-out predictions`);
  assert.equal(heldOut.predictions, heldOut.windows * table.context);
  assert.equal(heldOut.note, 'the whole held-out tail');
});

test('the learning rate per width is the sweep’s choice', () => {
  const { sweep, learningRates } = results;
  for (const width of WIDTHS) {
    const score = (rate) =>
      mean(
        sweep.rows.filter((r) => r.width === width && r.rate === rate).map((r) => r.trainingLoss),
      );
    const best = sweep.rates.reduce((a, b) => (score(b) < score(a) ? b : a));
    assert.equal(learningRates[String(width)], best, `d = ${width}`);
    for (const config of CONFIGS)
      assert.equal(row('table', width, config).learningRate, best, `d = ${width} ${config}`);
  }
});

// Every row of every Markdown table in `text`, as trimmed cells.
const tableRows = (text) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );
function assertRow(text, cells, where) {
  const found = tableRows(text).some(
    (r) => r.length === cells.length && r.every((c, i) => c === cells[i]),
  );
  assert.ok(found, `${where} has the row | ${cells.join(' | ')} |`);
}

const sdOf = (values) => sampleSd(values);
const spreadOf = (values) => `${fixed(mean(values))} ± ${fixed(sdOf(values))}`;
const signed = (x) => `${x < 0 ? '−' : '+'}${fixed(Math.abs(x))}`;
const verdictRow = (protocol, width, a, b) => {
  const { difference, threshold, real } = compare(protocol, width, a, b);
  const verdict = real ? (difference < 0 ? 'lower' : 'higher') : 'about the same';
  return [
    String(width),
    `${LABELS[a]} − ${LABELS[b]}`,
    signed(difference),
    fixed(threshold),
    verdict,
  ];
};

test("docs/learning.md's tables are the results' numbers, and each verdict follows the rule", () => {
  for (const width of WIDTHS) {
    for (const config of CONFIGS) {
      const r = row('table', width, config);
      const head = config !== 'nohead';
      assertRow(
        docs,
        [
          String(width),
          LABELS[config],
          String(results.learningRates[width]),
          plusMinus(r),
          head ? spreadOf(r.queryGradientStep1) : '–',
          head ? fixed(mean(r.entropyEnd), 2) : '–',
          head ? `${fixed(mean(r.peakStart), 2)} → ${fixed(mean(r.peakEnd), 2)}` : '–',
        ],
        'the main table',
      );
    }
    const pageRow = CONFIGS.map((config) => plusMinus(row('page', width, config)));
    assertRow(
      docs,
      [String(width), String(results.learningRates[width]), ...pageRow],
      'the page table',
    );
    for (const [a, b] of PAIRS) {
      assertRow(docs, verdictRow('table', width, a, b), 'the differences');
      assertRow(docs, verdictRow('page', width, a, b), "the page's differences");
    }
    for (const rate of results.sweep.rates) {
      const losses = CONFIGS.map(
        (config) =>
          results.sweep.rows.find(
            (r) => r.width === width && r.rate === rate && r.config === config,
          ).trainingLoss,
      );
      const chosen = results.learningRates[width] === rate ? 'chosen' : '';
      assertRow(
        docs,
        [String(width), String(rate), ...losses.map((x) => fixed(x)), fixed(mean(losses)), chosen],
        'the sweep',
      );
    }
  }
});

test('the README table is the results’ numbers', () => {
  for (const width of WIDTHS) {
    const cells = CONFIGS.map((config) => plusMinus(row('table', width, config)));
    assertRow(readme, [String(width), String(results.learningRates[width]), ...cells], 'README');
  }
});

// A quoted difference "a − b" in the prose: its magnitude as written, and whether the rule
// lets the text call it a difference.
const gap = (width, a, b) => fixed(Math.abs(compare('table', width, a, b).difference));
const range = (values, digits) => {
  const low = fixed(Math.min(...values), digits);
  const high = fixed(Math.max(...values), digits);
  return low === high ? low : `${low}–${high}`;
};
const ratios = (width, config) => {
  const base = row('table', width, 'sqrt').queryGradientStep1;
  return row('table', width, config).queryGradientStep1.map((x, i) => x / base[i]);
};

test("the prose quotes the results' differences, and calls a difference only a real one", () => {
  const real = (width, a, b) => compare('table', width, a, b).real;
  // "With 1/√d the model ends 0.099 nats below the model without a head at d = 16, and 0.187
  // below it at d = 64 and at d = 256" (README: the d = 64 and 256 half).
  for (const width of WIDTHS) assert.ok(real(width, 'sqrt', 'nohead'), `${width}: sqrt vs no head`);
  assert.equal(gap(64, 'sqrt', 'nohead'), gap(256, 'sqrt', 'nohead'));
  assert.ok(
    docs.includes(
      `ends\n${gap(16, 'sqrt', 'nohead')} nats below the model without a head at d = 16, and ${gap(64, 'sqrt', 'nohead')} below it at d = 64 and at\nd = 256`,
    ),
  );
  assert.ok(
    readme.includes(
      `the head ends ${gap(64, 'sqrt', 'nohead')} nats below the model without a head at d = 64 and at d = 256.`,
    ),
  );
  // 1/d and 1/√d "about the same at every width".
  for (const width of WIDTHS) assert.ok(!real(width, 'd', 'sqrt'), `${width}: d vs sqrt`);
  // Unscaled: about the same as no head at 64, worse at 256, worse than 1/√d at 64 and 256.
  assert.ok(!real(64, 'none', 'nohead') && real(256, 'none', 'nohead'));
  assert.ok(compare('table', 256, 'none', 'nohead').difference > 0);
  const c64 = compare('table', 64, 'none', 'nohead');
  assert.ok(docs.includes(`(${signed(c64.difference)}, twice the sd ${fixed(c64.threshold)})`));
  assert.ok(
    docs.includes(
      `at d = 256 it ends worse than no head (${signed(compare('table', 256, 'none', 'nohead').difference)})`,
    ),
  );
  assert.ok(real(64, 'none', 'sqrt') && real(256, 'none', 'sqrt'));
  assert.ok(
    docs.includes(
      `It ends ${gap(64, 'none', 'sqrt')} (d = 64) and ${gap(256, 'none', 'sqrt')} (d = 256)`,
    ),
  );
  // d = 16: unscaled still below no head, about the same as 1/√d.
  assert.ok(real(16, 'none', 'nohead') && !real(16, 'none', 'sqrt'));
  const c16 = compare('table', 16, 'none', 'sqrt');
  assert.ok(docs.includes(`(${gap(16, 'none', 'nohead')} below no head)`));
  assert.ok(docs.includes(`(${signed(c16.difference)}, twice the sd ${fixed(c16.threshold)})`));
});

test('the prose quotes the first-step gradients, the peaks and the held-out set as measured', () => {
  const none = WIDTHS.map((width) => `${range(ratios(width, 'none'), 1)}×`);
  assert.ok(
    docs.includes(
      `${none[0]} the 1/√d head's at d = 16, ${none[1]} at d = 64 and ${none[2]} at d = 256`,
    ),
    `ratios ${none}`,
  );
  const inverse = WIDTHS.map((width) => range(ratios(width, 'd'), 2));
  assert.ok(
    docs.includes(`(${inverse[0]}, ${inverse[1]} and ${inverse[2]}\nof the 1/√d head's`),
    `${inverse}`,
  );
  // Each ratio is a real difference: the unscaled head's gradient is larger on every seed.
  for (const width of WIDTHS) assert.ok(Math.min(...ratios(width, 'none')) > 1);
  const peak = (width, config, key) => fixed(mean(row('table', width, config)[key]), 2);
  assert.ok(
    readme.includes(
      `(mean peak weight ${peak(64, 'none', 'peakStart')} at d = 64, ${peak(256, 'none', 'peakStart')} at d = 256)`,
    ),
  );
  assert.ok(docs.includes(`starts with a mean peak weight of ${peak(64, 'none', 'peakStart')}`));
  assert.ok(
    docs.includes(
      `ends at ${peak(64, 'none', 'peakEnd')}, entropy ${peak(64, 'none', 'entropyEnd')} nats`,
    ),
  );
  const sqrt = (key) => WIDTHS.map((width) => peak(width, 'sqrt', key));
  assert.ok(
    docs.includes(
      `Its peak starts at ${sqrt('peakStart')[0]}, ${sqrt('peakStart')[1]} and\n${sqrt('peakStart')[2]}`,
    ),
  );
  assert.ok(
    docs.includes(
      `ends at ${sqrt('peakEnd')[0]}, ${sqrt('peakEnd')[1]} and ${sqrt('peakEnd')[2]}.`,
    ),
  );
  assert.ok(
    docs.includes(`(${results.heldOut.windows.toLocaleString('en')} windows`) ||
      docs.includes(`${results.heldOut.windows.toLocaleString('en')} windows of 64 characters`),
  );
  assert.ok(docs.includes(`(${results.heldOut.predictions.toLocaleString('en')}\n  predictions)`));
  assert.ok(readme.includes(`(${results.heldOut.predictions.toLocaleString('en')}\npredictions)`));
});

test('every mean ± sd and signed difference in the docs and README is one of the results’', () => {
  const known = new Set();
  for (const protocol of ['table', 'page'])
    for (const r of results[protocol].rows) {
      known.add(plusMinus(r));
      if (r.queryGradientStep1) known.add(spreadOf(r.queryGradientStep1));
    }
  const differences = new Set();
  for (const protocol of ['table', 'page'])
    for (const width of WIDTHS)
      for (const [a, b] of PAIRS)
        differences.add(signed(compare(protocol, width, a, b).difference));
  // The SGD section's numbers come from another command (docs/learning.md says so).
  const adam = docs.replace(/\n## Plain SGD[\s\S]*?(?=\n## )/, '\n');
  assert.ok(adam.length < docs.length - 1000, 'the SGD section is there to leave out');
  for (const [name, text] of [
    ['docs/learning.md', adam],
    ['README.md', readme],
  ]) {
    for (const quoted of text.match(/\d+\.\d{3} ± \d+\.\d{3}/g) ?? [])
      assert.ok(known.has(quoted), `${name} quotes ${quoted}`);
    for (const quoted of text.match(/[+−]\d+\.\d{3}/g) ?? [])
      assert.ok(differences.has(quoted), `${name} quotes the difference ${quoted}`);
  }
});

test("the saved head's census and where it looks, as the README and docs quote them", () => {
  const { counts, rows, meanPreviousWeight } = head.peakCensus;
  const share = (name) => `${fixed((100 * counts[name]) / rows, 1)}%`;
  const names = ['previous', 'two back', 'itself', 'space', 'word start', 'elsewhere'];
  const labels = [
    'the previous character',
    'the character two back',
    "the query's own character",
    'a space or newline further back',
    "the first letter of the query's word",
    'anything else',
  ];
  for (const [i, name] of names.entries())
    assertRow(
      docs,
      [labels[i], counts[name].toLocaleString('en'), share(name)],
      'the census table',
    );
  assert.equal(rows, 6300);
  assert.ok(docs.includes(`(${rows.toLocaleString('en')} rows;`));
  assert.ok(readme.includes(`over ${rows.toLocaleString('en')} held-out rows`));
  assert.ok(
    readme.includes(
      `previous character in ${share('previous')} of rows, two back in\n${share('two back')}, on a space or newline further back in ${share('space')}, on the query's own character in ${share('itself')}\nand on the first letter of its word in ${share('word start')}; mean weight on the previous character ${fixed(meanPreviousWeight)}.`,
    ),
  );
  assert.ok(
    docs.includes(
      `Mean weight on the previous character over the same rows: ${fixed(meanPreviousWeight)}.`,
    ),
  );
  const [own, one, two, three, further] = head.meanWeightByOffset.map((x) => fixed(x));
  assert.ok(
    docs.includes(
      `fifth on: own character ${own}, one back ${one}, two back ${two}, three back ${three}, further back\n${further})`,
    ),
  );
  assert.ok(docs.includes(`its weights put ${one} on the previous character`));
  assert.ok(docs.includes(`held-out loss\n${fixed(head.heldOutLoss)})`));
  assert.equal(head.heldOutWindows, results.heldOut.windows);
  assert.equal(head.learningRate, results.learningRates[String(head.d)]);
});

// ---- Every number the page quotes -----------------------------------------------------------

// The committed results as quoted-numbers.mjs reads them: without the weights, the vocabularies
// and the fixtures' input and output tensors, whose thousands of digits no sentence quotes.
function committedFiles() {
  const fixture = (name) => JSON.parse(read(`tests/fixtures/${name}`));
  const { parameters: _weights, vocabulary: _head, ...trainedHead } = head;
  const {
    float16: _halves,
    tensors: _tensors,
    vocabulary: _copying,
    ...copying
  } = JSON.parse(read('web/assets/copying-head.json'));
  const equivalence = fixture('equivalence.json');
  return {
    'learning-results.json': results,
    'trained-head.json': trainedHead,
    'copying-head.json': copying,
    'scale_demo.json': fixture('scale_demo.json'),
    'equivalence.json': {
      causalFalse: equivalence.torch_manual_max_diff_causal_false,
      causalTrue: equivalence.torch_manual_max_diff_causal_true,
    },
  };
}

// Derived by a rule of its own, beyond quoted-numbers.mjs's forms: the census's shares (count
// over rows) and the copying run's native time (ms per step × steps, in whole seconds).
function derivedForms(known) {
  const { counts, rows } = head.peakCensus;
  for (const [name, count] of Object.entries(counts))
    known.set(`${fixed((100 * count) / rows, 1)}%`, `trained-head.json share ${name}`);
  const { training } = JSON.parse(read('web/assets/copying-head.json'));
  known.set(
    String(Math.round((training.msPerStep * training.steps) / 1000)),
    'copying run seconds',
  );
  return known;
}

const decode = (html) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

// Each block of web/index.html's body as { where, text }: paragraphs, list items, headings (their
// own number left out), captions and folded blocks' summaries; code is not prose.
function narrativeBlocks() {
  const html = read('web/index.html');
  const body = html.slice(html.indexOf('<body')).replace(/<code>[\s\S]*?<\/code>/g, '');
  const blocks = [];
  let where = 'header';
  const pattern = /<section id="([^"]+)"|<(p|li|h1|h2|figcaption|summary)\b[^>]*>([\s\S]*?)<\/\2>/g;
  for (const found of body.matchAll(pattern)) {
    if (found[1]) where = found[1];
    else
      blocks.push({
        where: `web/index.html #${where}`,
        text: decode(found[2] === 'h2' ? found[3].replace(/^\s*\d+\.\s*/, '') : found[3]),
      });
  }
  return blocks;
}

// Section 6's sentences that quote the committed spread, rendered with it: the spread sentence,
// and each "2 × sd = twice the sd" of a verdict (the gaps and losses are the reader's own).
function trainingQuotes() {
  const settings = { ...DEFAULT_SETTINGS, learningRate: null };
  const runs = RUNS.map(({ key }, i) => {
    const result = (step, loss) => ({ step, heldOutLoss: loss, meanPeak: 0.5, meanEntropy: 1 });
    const started = trainingModel.started(trainingModel.emptyRun(key), {
      ...result(0, 4),
      vocabulary: ['a', 'b'],
    });
    return trainingModel.stepped(
      started,
      {
        ...result(DEFAULT_SETTINGS.steps, 2.5 + i / 10),
        losses: [3],
        queryGradientNorms: [0.1],
        keyGradientNorms: [0.1],
      },
      DEFAULT_SETTINGS.steps,
    );
  });
  const sentences = trainingModel.findings(runs, 59, { results, settings });
  const spread = sentences.find((text) => text.startsWith('The seed spread says'));
  assert.ok(spread, 'section 6 says what the seed spread is');
  return [
    { where: 'section 6 findings: the spread', text: spread },
    ...sentences.flatMap((text) =>
      [...text.matchAll(/2 × [\d.]+ = [\d.]+/g)].map((found) => ({
        where: 'section 6 findings: a verdict',
        text: found[0],
      })),
    ),
  ];
}

// Every text of the page that quotes committed results, as { where, text }.
function quotingTexts() {
  const copying = growthModel(JSON.parse(read('web/assets/copying-head.json')));
  return [
    ...narrativeBlocks(),
    ...Object.entries(GLOSSARY).map(([term, text]) => ({ where: `glossary: ${term}`, text })),
    {
      where: 'map: the trained head over Shakespeare',
      text: corpusSentence(head.peakCensus, head.context),
    },
    { where: 'section 9: the chart’s label', text: copying.ariaLabel },
    { where: 'section 9: the timing', text: copying.timing },
    ...trainingQuotes(),
  ];
}

test('every number the page quotes is a committed result, or a phrase allowed for a reason', () => {
  const known = derivedForms(committedForms(committedFiles()));
  const allowed = [
    ...ALLOWED,
    {
      phrase: new RegExp(`\\bfirst reaches ${FORMS_AT} at step\\b|\\bforms: step\\b`),
      reason: 'the induction score at which the page says the head has formed, a threshold',
    },
  ];
  const unknown = [];
  let quoted = 0;
  for (const { where, text } of quotingTexts())
    for (const number of unexplained(text, allowed)) {
      quoted += 1;
      const context = text.slice(Math.max(0, number.index - 30), number.index + 20);
      if (!known.has(number.text)) unknown.push(`${where}: ${number.text} in “…${context}…”`);
    }
  console.log(`${quoted} quoted numbers checked against ${known.size} forms of the results`);
  assert.deepEqual(unknown, [], 'numbers that are no committed result and no allowed phrase');
});

test('the check finds a number that is no result, and passes one in an allowed phrase', () => {
  const known = committedForms(committedFiles());
  const made = 'the unscaled head is worse by 9.876 (twice the spread, 0.4321)';
  assert.deepEqual(
    unexplained(made)
      .map((n) => n.text)
      .filter((n) => !known.has(n)),
    ['9.876', '0.4321'],
  );
  assert.deepEqual(unexplained('float32 keeps about 7 digits; see section 6, seed 1'), []);
  assert.deepEqual(
    numbersIn('1/√d, C++17, float32, 59,804 characters, 76.8%').map((n) => n.text),
    ['59,804', '76.8%'],
  );
  assert.match(known.get(String(results.learningRates['256'])), /learningRates/);
});
