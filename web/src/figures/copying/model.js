// The copying head's growth, as the native run recorded it (web/assets/copying-head.json's curve,
// written by `npm run grow`): the points to draw, the step the second head's induction score
// first reached 0.3 (attention-grow's own crossed03), and every sentence the figure prints.
// Pure: runs in Node. Nothing here trains; the page only replays the recording.
import { copyingNoteText, guessLine } from '../../lib/copying-note.js';
import { fixed, visibleToken } from '../../lib/format.js';
import { rowPeaks } from '../../lib/map-statistics.js';

export const FORMS_AT = 0.3; // the induction score at which the page says the head has formed
// A duration in seconds as the timing sentence says it: seconds up to a minute and a half, then
// minutes.
export function aboutDuration(seconds) {
  return seconds < 90
    ? `about ${Math.round(seconds)} s`
    : `about ${Math.round(seconds / 60)} minutes`;
}

// The step from which snippets of the text joined the random strings (training.laterStep, absent
// or −1 when the recipe kept one mix), or null. The loss drops there for another reason than the
// head: a snippet of Shakespeare is easier to guess than a random string.
export const mixChangeOf = (training) => (training.laterStep >= 0 ? training.laterStep : null);

// curve: { step, trainLoss, heldOutLoss, induction: [layer 1, layer 2] }; training: { crossed03,
// msPerStep, steps, laterStep }.
export function growthModel({ curve, training }) {
  const points = (values) =>
    curve.step
      .map((x, i) => ({ x, y: values[i] }))
      .filter((point) => point.y !== null && point.y !== undefined);
  const formedAt = training.crossed03;
  const lastLoss = curve.trainLoss.at(-1);
  const nativeSeconds = (training.msPerStep * training.steps) / 1000;
  const mixAt = mixChangeOf(training);
  return {
    loss: points(curve.trainLoss),
    induction: points(curve.induction.at(-1)),
    formedAt,
    formedLabel: `head forms: step ${formedAt}`,
    mixAt,
    mixLabel: 'Shakespeare joins',
    lastStep: curve.step.at(-1),
    ariaLabel:
      `Recorded native run: the training loss falls from ${fixed(
        curve.trainLoss.find((y) => y !== null),
        2,
      )} ` +
      `to ${fixed(lastLoss, 2)} over ${training.steps} steps` +
      (mixAt === null
        ? ''
        : ` (it steps down at ${mixAt}, where snippets of Shakespeare join the random strings)`) +
      `, and layer 2's induction score first reaches ${FORMS_AT} at step ${formedAt}.`,
    timing:
      `Recorded from the native run (npm run grow): ${training.steps.toLocaleString('en-US')} steps at ` +
      `${fixed(training.msPerStep, 0)} ms each took ${aboutDuration(nativeSeconds)} of one core.` +
      (mixAt === null
        ? ''
        : ` From step ${mixAt.toLocaleString('en-US')} on, ${training.repeatedWindows - training.laterRandomWindows} of every ` +
          `${training.repeatedWindows} repeated strings are Shakespeare instead of random characters.`),
    table: curve.step.map((step, i) => [
      String(step),
      curve.trainLoss[i] === null ? '–' : fixed(curve.trainLoss[i], 3),
      fixed(curve.induction.at(-1)[i], 3),
    ]),
  };
}

// The live reading above the chart: one layer of the copying head on the reader's text
// (copyingHeadMap's result), with the note the map gives it and the model's guess for the next
// letter. Pure.
export function readingModel(result) {
  return {
    T: result.T,
    weights: result.weights,
    labels: result.tokens.map(visibleToken),
    causal: true,
    note: copyingNoteText(result),
    guesses: guessLine(result.next),
    peaks: rowPeaks(result),
  };
}
