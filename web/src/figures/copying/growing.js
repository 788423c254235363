// Section 9's "grow it yourself" panel: the button (grow, stop, go on), the seed and the number of
// steps (in the page's link), the sentence that says where the run is and when the head formed,
// and the live chart, drawn as the answers come (grower.js runs the loop in the worker).
// The run is the page's one grown head (grown-head.js), which section 4's map can show too.
// mountGrowing(box, { grown, link, onModel, showOnMap }) → { grower, load(settings), destroy() }.
import { COPYING_HEAD } from '../../trained/copying-head.js';
import { statusText } from './grower.js';
import { checkGrowSettings } from './link.js';
import { mixChangeOf } from './model.js';
import { drawChart, updateChart } from './render.js';

const MARKUP = `
  <h3 class="copying-grow__title">Grow it yourself</h3>
  <div class="copying-grow__controls">
    <button type="button" data-role="grow">Grow it</button>
    <label>seed <input type="number" data-role="seed" min="0" max="999999" step="1" inputmode="numeric"></label>
    <label>steps <input type="number" data-role="steps" min="100" max="5000" step="100" inputmode="numeric"></label>
    <button type="button" data-role="pause" hidden>Stop</button>
    <button type="button" data-role="map" hidden>Show it on the map</button>
  </div>
  <p class="field-message" data-role="message" aria-live="polite"></p>
  <p class="copying-grow__status" data-role="status" aria-live="polite">Your browser grows the same two layers from scratch, with the recipe of the recorded run below.</p>
  <div class="copying-growth__plot"><canvas role="img" aria-label="Your run: nothing grown yet."></canvas></div>
  <details class="copying-grow__how">
    <summary>How your browser grows it</summary>
    <p>The recipe is the recorded run's: two layers of width 48, batches of 16 windows of 96 characters from the first 60,000 characters of the Shakespeare text, and in 8 of the 16 windows a string repeated to fill it: random letters, and from step 1,000 on 2 of the 8 a snippet of Shakespeare. Adam at a rate of 0.01. The seed picks the starting weights and the batches. A worker thread takes the steps, so the page stays free (on four cores or more, two or four share each step, each a part of the batch, adding the parts in a fixed order so the run is the same); every 25 steps it measures layer 2's induction score on 32 random strings shown twice, and the head counts as formed once that reaches 0.3.</p>
  </details>`;

// The chart's model for the live run: the recorded chart's fields with the run's points. The run
// follows the recorded recipe, so its loss steps down where the recorded one does, for the same
// reason (Shakespeare joins the random strings), and the chart marks it the same way.
const MIX_AT = mixChangeOf(COPYING_HEAD.training);
function liveModel(growth) {
  const lastStep = growth?.settings.steps ?? 2000;
  const mixAt = MIX_AT !== null && MIX_AT < lastStep ? MIX_AT : null;
  return {
    loss: growth?.loss ?? [],
    induction: growth?.induction ?? [],
    formedAt: growth?.formedAt ?? null,
    formedLabel: growth?.formedAt == null ? '' : `formed: step ${growth.formedAt}`,
    mixAt,
    mixLabel: mixAt === null ? '' : 'Shakespeare joins',
    lastStep,
  };
}

function ariaLabel(growth) {
  if (!growth || growth.loss.length === 0) return 'Your run: nothing grown yet.';
  return `Your run, seed ${growth.settings.seed}: ${statusText(growth)}`;
}

function buttonLabels(parts, growth) {
  const running = growth && ['starting', 'growing', 'stopped'].includes(growth.status);
  parts.grow.textContent = running ? 'Start again' : 'Grow it';
  parts.pause.hidden = !growth || !['growing', 'stopped'].includes(growth.status);
  parts.pause.textContent = growth?.status === 'stopped' ? 'Go on' : 'Stop';
  parts.map.hidden = !growth || ['starting', 'failed'].includes(growth.status);
}

function panelParts(box) {
  box.innerHTML = MARKUP;
  const $ = (role) => box.querySelector(`[data-role="${role}"]`);
  return {
    grow: $('grow'),
    pause: $('pause'),
    map: $('map'),
    seed: $('seed'),
    steps: $('steps'),
    message: $('message'),
    status: $('status'),
    canvas: box.querySelector('canvas'),
  };
}

export function mountGrowing(box, { grown, link, onModel, showOnMap }) {
  const parts = panelParts(box);
  let settings = link.initial;
  const chart = drawChart(parts.canvas, liveModel(null));
  let frame = 0;
  const draw = (growth) => {
    frame ||= requestAnimationFrame(() => {
      frame = 0;
      updateChart(chart, liveModel(growth));
      parts.canvas.setAttribute('aria-label', ariaLabel(growth));
      parts.status.textContent = statusText(growth);
      buttonLabels(parts, growth);
    });
  };
  const { grower } = grown;
  const unlisten = grown.listen((kind, growth) => (kind === 'change' ? draw(growth) : onModel()));
  draw(grower.growth()); // a run started from the map before this panel mounted
  const show = (next) => {
    parts.seed.value = String(next.seed);
    parts.steps.value = String(next.steps);
  };
  parts.grow.addEventListener('click', () => {
    const checked = checkGrowSettings(parts.seed.value, parts.steps.value);
    parts.message.textContent = checked.error ?? '';
    if (checked.error) return;
    settings = checked.value;
    link.save(settings);
    grower.start(settings);
  });
  parts.pause.addEventListener('click', () => grower.stopOrGoOn());
  parts.map.addEventListener('click', showOnMap);
  show(settings);
  return {
    grower,
    load(next, messages) {
      settings = next;
      show(next);
      parts.message.textContent = messages.join(' ');
    },
    destroy() {
      cancelAnimationFrame(frame);
      unlisten();
      chart.destroy();
    },
  };
}
