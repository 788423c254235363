// The copying head's growth, as the native run recorded it (web/assets/copying-head.json's curve,
// written by `npm run grow`): the points to draw, the step the second head's induction score
// first reached 0.3 (attention-grow's own crossed03), and every sentence the figure prints.
// Pure: runs in Node. Nothing here trains; the page only replays the recording.
import { fixed } from '../../lib/format.js';

export const FORMS_AT = 0.3; // the induction score at which the page says the head has formed
// How much slower a training step runs in wasm than natively: the one-head trainer's measured
// 11–13 ms against 5.8–7.0 ms per step (docs/learning.md). The two-layer model's wasm step is not
// measured; the page's estimate of a browser run scales the native time by this.
export const WASM_SLOWDOWN = 2;

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
const mixChangeOf = (training) => (training.laterStep >= 0 ? training.laterStep : null);

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
      `${fixed(training.msPerStep, 0)} ms each took ${aboutDuration(nativeSeconds)}. A browser would take about ` +
      `${WASM_SLOWDOWN}× as long per step, ${aboutDuration(WASM_SLOWDOWN * nativeSeconds)} in all, ` +
      'so the page replays the recording instead of growing it live.' +
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
