// The copying head's growth, as the native run recorded it (web/assets/copying-head.json's curve,
// written by `npm run grow`): the points to draw, the step the second head's induction score
// first reached 0.3 (attention-grow's own crossed03), and every sentence the figure prints.
// Pure: runs in Node. Nothing here trains; the page only replays the recording.
import { copyingNoteText, guessLine } from '../../lib/copying-note.js';
import { fixed, visibleToken } from '../../lib/format.js';
import { rowPeaks } from '../../lib/map-statistics.js';

export const FORMS_AT = 0.3; // the induction score at which the page says the head has formed
// How much slower a training step runs in wasm than natively: the one-head trainer's measured
// 11–13 ms against 5.8–7.0 ms per step (docs/learning.md). The two-layer model's wasm step is not
// measured; the page's estimate of a browser run scales the native time by this.
export const WASM_SLOWDOWN = 2;

// curve: { step, trainLoss, heldOutLoss, induction: [layer 1, layer 2] }; training: { crossed03,
// msPerStep, steps }.
export function growthModel({ curve, training }) {
  const points = (values) =>
    curve.step
      .map((x, i) => ({ x, y: values[i] }))
      .filter((point) => point.y !== null && point.y !== undefined);
  const formedAt = training.crossed03;
  const lastLoss = curve.trainLoss.at(-1);
  const nativeSeconds = (training.msPerStep * training.steps) / 1000;
  return {
    loss: points(curve.trainLoss),
    induction: points(curve.induction.at(-1)),
    formedAt,
    formedLabel: `head forms: step ${formedAt}`,
    lastStep: curve.step.at(-1),
    ariaLabel:
      `Recorded native run: the training loss falls from ${fixed(
        curve.trainLoss.find((y) => y !== null),
        2,
      )} ` +
      `to ${fixed(lastLoss, 2)} over ${training.steps} steps, and layer 2's induction score ` +
      `first reaches ${FORMS_AT} at step ${formedAt}.`,
    timing:
      `Recorded from the native run (npm run grow): ${training.steps.toLocaleString('en-US')} steps at ` +
      `${fixed(training.msPerStep, 0)} ms each took about ${Math.round(nativeSeconds)} s. A browser would take about ` +
      `${WASM_SLOWDOWN}× as long per step, about ${Math.round((WASM_SLOWDOWN * nativeSeconds) / 60)} minutes in all, ` +
      'so the page replays the recording instead of growing it live.',
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
