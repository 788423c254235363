// The sentences under the training figure, built from the live numbers of the three runs
// (runs as model.js keeps them). Each sentence is written only once the numbers it quotes
// exist, and its wording (larger or smaller, behind or ahead, collapsed or not) is chosen by
// those numbers, so it holds in every state a reader can reach.
import { fixed } from '../../lib/format.js';

const percent = (x) => `${Math.round(x * 100)}%`;
const byKey = (runs) => Object.fromEntries(runs.map((run) => [run.key, run]));
const NAMES = { sqrt: 'the 1/√d head', none: 'the unscaled head', d: 'the 1/d head' };
const SAME_LOSS = 0.02; // nats: closer than this, the page calls two losses level

function startSentence({ sqrt, none, d }) {
  return (
    `Before any training, each character gives its favourite earlier character ` +
    `${percent(none.start.meanPeak)} of its attention in the unscaled head, ` +
    `${percent(sqrt.start.meanPeak)} with 1/√d and ${percent(d.start.meanPeak)} with 1/d.`
  );
}

function gradientSentence({ sqrt, none, d }) {
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
  const smallest = d.firstStep.query < Math.min(sqrt.firstStep.query, none.firstStep.query);
  const second = smallest
    ? ` The 1/d head's is the smallest, ${fixed(d.firstStep.query, 3)}: its scores are so ` +
      `small that moving them barely changes its attention.`
    : ` The 1/d head's is ${fixed(d.firstStep.query, 3)}.`;
  return first + second;
}

function lossSentence({ sqrt, none, d }, vocabulary) {
  return (
    `After ${sqrt.step} steps the held-out loss (lower is better) is ` +
    `${fixed(sqrt.latest.heldOutLoss, 3)} with 1/√d, ${fixed(none.latest.heldOutLoss, 3)} ` +
    `unscaled and ${fixed(d.latest.heldOutLoss, 3)} with 1/d; guessing evenly among the ` +
    `${vocabulary} characters would score ${fixed(Math.log(vocabulary), 3)}.`
  );
}

function verdictSentence({ sqrt, none }) {
  const gap = none.latest.heldOutLoss - sqrt.latest.heldOutLoss;
  if (gap > SAME_LOSS) return `The unscaled head is behind the 1/√d head by ${fixed(gap, 3)} nats.`;
  if (gap < -SAME_LOSS)
    return (
      `The unscaled head is ahead of the 1/√d head by ${fixed(-gap, 3)} nats: at this ` +
      `width and step, dividing by √d has not helped.`
    );
  return `The unscaled and 1/√d heads are level so far (within ${SAME_LOSS} nats).`;
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

// The three runs as they were at the last step all of them reached (they advance in equal
// chunks, so each has a measurement there): sentences never compare different steps.
function atCommonStep(all) {
  const step = Math.min(all.sqrt.latest.step, all.none.latest.step, all.d.latest.step);
  const at = (run) => ({ ...run, step, latest: run.history.find((m) => m.step === step) });
  return { sqrt: at(all.sqrt), none: at(all.none), d: at(all.d) };
}

function comparable(all) {
  const common = atCommonStep(all);
  return Object.values(common).every((run) => run.latest) ? common : null;
}

// Sentences in reading order, each once the numbers it needs exist; failed runs say why.
export function findings(runs, vocabulary) {
  const failures = runs
    .filter((run) => run.status === 'failed')
    .map(
      (run) => `${NAMES[run.key][0].toUpperCase()}${NAMES[run.key].slice(1)} stopped: ${run.error}`,
    );
  if (failures.length > 0) return failures;
  const all = byKey(runs);
  if (!all.sqrt?.start || !all.none?.start || !all.d?.start) return [];
  const sentences = [startSentence(all)];
  const common = comparable(all);
  if (runs.every((run) => run.firstStep) && common) {
    sentences.push(gradientSentence(all), lossSentence(common, vocabulary));
    sentences.push(verdictSentence(common), collapseSentence(common));
  }
  return sentences;
}

// The chart's accessible name: what it shows, and the finding so far.
export function chartLabel(runs) {
  const all = byKey(runs);
  const base = 'Training loss against step for the 1/√d, unscaled and 1/d heads.';
  if (!runs.every((run) => run.latest && run.step > 0)) return base;
  const common = comparable(all);
  return common ? `${base} After ${common.sqrt.step} steps: ${verdictSentence(common)}` : base;
}
