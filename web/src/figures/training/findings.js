// The sentences under the training figure, built from the live numbers of the four runs (runs
// as model.js keeps them). Each sentence is written only once the numbers it quotes exist, and
// its wording is chosen by those numbers, so it holds in every state a reader can reach. A
// difference between two runs is claimed only when it passes spread.js's rule (more than twice
// the seed spread that `npm run train -- --protocol page` measured natively on the page's own
// text and settings); otherwise the two are "about the same".
import { fixed } from '../../lib/format.js';
import { compareLosses, learningRateFor, spreadOf } from './spread.js';

const percent = (x) => `${Math.round(x * 100)}%`;
const byKey = (runs) => Object.fromEntries(runs.map((run) => [run.key, run]));
const NAMES = {
  sqrt: 'the 1/√d head',
  none: 'the unscaled head',
  d: 'the 1/d head',
  nohead: 'the model with no head',
};
const capital = (text) => `${text[0].toUpperCase()}${text.slice(1)}`;
const HEAD_KEYS = ['sqrt', 'none', 'd'];

function startSentence({ sqrt, none, d }) {
  return (
    `Before any training, each character gives its favourite earlier character ` +
    `${percent(none.start.meanPeak)} of its attention in the unscaled head, ` +
    `${percent(sqrt.start.meanPeak)} with 1/√d and ${percent(d.start.meanPeak)} with 1/d.`
  );
}

// The 1/d head's first gradient against the 1/√d head's. The scale multiplies the query's
// gradient on its way back (dq = scale · dS · K), so 1/d alone makes it 1/√d as large; when the
// ratio is that close, the factor, not the flatter softmax, is what makes it small.
function inverseDClause({ sqrt, none, d }, width) {
  const quoted = fixed(d.firstStep.query, 3);
  if (d.firstStep.query >= Math.min(sqrt.firstStep.query, none.firstStep.query))
    return ` The 1/d head's is ${quoted}.`;
  const ratio = d.firstStep.query / sqrt.firstStep.query;
  const factor = 1 / Math.sqrt(width);
  const first = `The 1/d head's is the smallest, ${quoted}, ${fixed(ratio, 2)} of the 1/√d head's`;
  if (!Number.isFinite(factor)) return ` ${first}.`;
  if (ratio >= 0.8 * factor && ratio <= 1.25 * factor)
    return (
      ` ${first}, close to 1/√${width} = ${fixed(factor, 3)}. The gradient flows back through ` +
      `the same scale, and 1/d is √${width} = ${fixed(Math.sqrt(width), 0)} times smaller than ` +
      `1/√d: that factor, more than its flat attention, makes the gradient small.`
    );
  return ` ${first}; the factor 1/d against 1/√d alone would make it ${fixed(factor, 3)}.`;
}

function gradientSentence({ sqrt, none, d }, width) {
  const ratio = none.firstStep.query / sqrt.firstStep.query;
  const quoted = `(${fixed(none.firstStep.query, 3)} against ${fixed(sqrt.firstStep.query, 3)})`;
  let first;
  if (ratio >= 1.05)
    first =
      `At the first step the unscaled head's gradient for its query weights is not smaller ` +
      `but ${fixed(ratio, 1)}× larger than the 1/√d head's ${quoted}: without the division, ` +
      `nothing scales the gradient down either, and that outweighs the saturation.`;
  else if (ratio <= 1 / 1.05)
    first =
      `At the first step the unscaled head's gradient for its query weights is ` +
      `${fixed(1 / ratio, 1)}× smaller than the 1/√d head's ${quoted}, as a saturated ` +
      `softmax predicts.`;
  else first = `At the first step the two heads' query gradients are about equal ${quoted}.`;
  return first + inverseDClause({ sqrt, none, d }, width);
}

function lossSentence({ sqrt, none, d, nohead }, vocabulary) {
  return (
    `After ${sqrt.step} steps the held-out loss (lower is better) is ` +
    `${fixed(sqrt.latest.heldOutLoss, 3)} with 1/√d, ${fixed(none.latest.heldOutLoss, 3)} ` +
    `unscaled, ${fixed(d.latest.heldOutLoss, 3)} with 1/d and ` +
    `${fixed(nohead.latest.heldOutLoss, 3)} with no head at all; guessing evenly among the ` +
    `${vocabulary} characters would score ${fixed(Math.log(vocabulary), 3)}.`
  );
}

// a compared with b, both runs at the common step: { verdict, gap, threshold } (spread.js).
function compared(a, b, spread) {
  return compareLosses(a.latest.heldOutLoss, b.latest.heldOutLoss, spread(a.key), spread(b.key));
}

// "2 × 0.0116 = 0.023": the rule's threshold as twice the seed spread, the spread to four
// decimals so that the product reads right at three.
const twiceTheSpread = (threshold) => `2 × ${fixed(threshold / 2, 4)} = ${fixed(threshold, 3)}`;

// How one run stands against another, as a clause: "is behind the 1/√d head by 0.190 nats,
// more than twice the seed spread (2 × 0.0165 = 0.033)".
function standing({ verdict, gap, threshold }, other) {
  const size = fixed(Math.abs(gap), 3);
  if (verdict === 'unknown')
    return `has a loss ${size} nats ${gap >= 0 ? 'below' : 'above'} ${other}'s (the seed spread that would say whether that is real did not load)`;
  if (verdict === 'same')
    return `is about the same as ${other} (the gap, ${size} nats, is not more than twice the seed spread: ${twiceTheSpread(threshold)})`;
  const way = verdict === 'lower' ? 'ahead of' : 'behind';
  return `is ${way} ${other} by ${size} nats, more than twice the seed spread (${twiceTheSpread(threshold)})`;
}

function verdictSentence(common, spread) {
  const result = compared(common.none, common.sqrt, spread);
  return `${capital(NAMES.none)} ${standing(result, NAMES.sqrt)}.`;
}

// Each head against no head at all: what the head buys over a model that only knows the
// current character and its position.
function baselineSentence(common, spread) {
  const clauses = HEAD_KEYS.map(
    (key) => `${NAMES[key]} ${standing(compared(common[key], common.nohead, spread), 'no head')}`,
  );
  return `Against no head at all: ${clauses.join('; ')}.`;
}

function collapseSentence({ sqrt, none }) {
  const peak = none.latest.meanPeak;
  const quoted =
    `The unscaled head's favourite character now takes ${percent(peak)} of each row's ` +
    `attention, against ${percent(sqrt.latest.meanPeak)} with 1/√d`;
  if (peak >= 0.9) return `${quoted}: its attention has collapsed onto one character per row.`;
  if (peak > sqrt.latest.meanPeak) return `${quoted}: sharper, but not collapsed.`;
  return `${quoted}: no sharper.`;
}

// Whether the runs train as the native runs behind the seed spread did: this text, the width's
// own learning rate and the same number of steps (width, batch, window and seed are fixed).
function measuredSetup(settings, results) {
  const rate = settings.learningRate ?? learningRateFor(results, settings.d);
  return (
    settings.source === 'shakespeare' &&
    settings.steps === results.page.steps &&
    rate === learningRateFor(results, settings.d)
  );
}

// What the seed spread is, and when it is only a rough guide: other settings than the native
// runs', or a step before the one it was measured at.
function spreadSentence(settings, results, step) {
  const page = results?.page;
  if (!page?.seeds || !settings) return null;
  const what =
    `The seed spread says how much the loss at step ${page.steps} moves when only the seed ` +
    `changes. It is the standard deviation of ${page.seeds.length} runs made outside the ` +
    `browser, on the page's Shakespeare at each width's own rate. A gap between two models is ` +
    `held to the larger of their two spreads.`;
  if (!measuredSetup(settings, results))
    return `${what} Your settings differ from those runs, so here it is only a rough guide.`;
  if (step < page.steps) return `${what} Until step ${page.steps} it is only a rough guide.`;
  return what;
}

// The runs as they were at the last step all of them were measured at (they are measured at
// the same steps): sentences never compare different steps.
function comparable(all) {
  const runs = Object.values(all);
  const step = Math.min(...runs.map((run) => run.latest?.step ?? -1));
  if (step <= 0) return null;
  const at = (run) => ({ ...run, step, latest: run.history.find((m) => m.step === step) });
  const common = Object.fromEntries(runs.map((run) => [run.key, at(run)]));
  return Object.values(common).every((run) => run.latest) ? common : null;
}

const complete = (all) => [...HEAD_KEYS, 'nohead'].every((key) => all[key]?.start);

// Sentences in reading order, each once the numbers it needs exist; failed runs say why.
// context: { results (learning-results.json or null), settings } for the seed spread.
export function findings(runs, vocabulary, { results = null, settings = null } = {}) {
  const failures = runs
    .filter((run) => run.status === 'failed')
    .map((run) => `${capital(NAMES[run.key])} stopped: ${run.error}`);
  if (failures.length > 0) return failures;
  const all = byKey(runs);
  if (!complete(all)) return [];
  const sentences = [startSentence(all)];
  const common = comparable(all);
  if (!common || !HEAD_KEYS.every((key) => all[key].firstStep)) return sentences;
  const spread = (key) => spreadOf(results, settings?.d, key);
  sentences.push(gradientSentence(all, settings?.d), lossSentence(common, vocabulary));
  sentences.push(verdictSentence(common, spread), baselineSentence(common, spread));
  sentences.push(collapseSentence(common));
  const caveat = spreadSentence(settings, results, common.sqrt.step);
  if (caveat) sentences.push(caveat);
  return sentences;
}

// How a head stands against no head, in a few words, by spread.js's rule: "better by 0.195",
// "about the same", "worse by 0.035" (or "0.195 lower" while the spread is unknown).
function versusNoHead({ verdict, gap }) {
  const size = fixed(Math.abs(gap), 3);
  if (verdict === 'same') return 'about the same';
  if (verdict === 'unknown') return `${size} ${gap >= 0 ? 'lower' : 'higher'} (spread unknown)`;
  return `${verdict === 'lower' ? 'better' : 'worse'} by ${size}`;
}

// The live note: at most two short sentences (45 words), the loss of each run and what each
// head buys over no head. Everything else findings() says goes in the folded block below it.
export function summary(runs, { results = null, settings = null } = {}) {
  const failures = runs.filter((run) => run.status === 'failed');
  if (failures.length > 0) return [`${capital(NAMES[failures[0].key])} stopped: see below.`];
  const all = byKey(runs);
  const common = complete(all) ? comparable(all) : null;
  if (!common) return [];
  const spread = (key) => spreadOf(results, settings?.d, key);
  const loss = (key) => fixed(common[key].latest.heldOutLoss, 3);
  const against = (key) => versusNoHead(compared(common[key], common.nohead, spread));
  return [
    `After ${common.sqrt.step} steps, held-out loss: ${loss('sqrt')} with 1/√d, ` +
      `${loss('d')} with 1/d, ${loss('none')} unscaled, ${loss('nohead')} with no head.`,
    `Against no head (a gap counts only above twice the seed spread), 1/√d is ` +
      `${against('sqrt')}, 1/d ${against('d')}, unscaled ${against('none')}.`,
  ];
}

// The chart's accessible name: what it shows, and the finding so far.
export function chartLabel(runs, { results = null, settings = null } = {}) {
  const base =
    'Held-out loss against step for the 1/√d, unscaled and 1/d heads and the model with no head.';
  const all = byKey(runs);
  const common = complete(all) ? comparable(all) : null;
  if (!common) return base;
  const spread = (key) => spreadOf(results, settings?.d, key);
  return `${base} After ${common.sqrt.step} steps: ${verdictSentence(common, spread)}`;
}
