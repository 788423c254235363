// "Things to try": one button per experiment. A click sets the map's whole state in one
// dispatch; this figure draws that map itself, with its note (model.js), right here, so the
// reader is never sent away: at most a short scroll brings the map and note into view
// (lib/keep-in-view.js). Section 4's map shows the same state and the same note, which it
// draws with noteRenderer(), handed to it by main.js in its mount context.
import './experiments.css';
import { EXPERIMENTS, noteFor } from './model.js';
import { baselineOf } from './baseline.js';
import { drawExperimentMap, renderNote } from './render.js';
import { keepInView } from '../../lib/keep-in-view.js';

// Draws the note for a snapshot into any box (empty and hidden when no experiment is on the map).
export function noteRenderer(core) {
  const baseline = (experiment) => baselineOf(core, experiment);
  return (box, snapshot) =>
    renderNote(box, noteFor(snapshot, baseline), snapshot.result?.tokens ?? []);
}

// On paper, where buttons do nothing: each experiment and what it shows.
function printedList() {
  const list = document.createElement('ul');
  list.className = 'print-only experiments-print';
  for (const { title, shows } of EXPERIMENTS) {
    const item = document.createElement('li');
    item.append(
      Object.assign(document.createElement('strong'), { textContent: title }),
      `: ${shows}`,
    );
    list.append(item);
  }
  return list;
}

function buildParts(element) {
  const root = document.createElement('div');
  root.className = 'experiments';
  const buttons = document.createElement('div');
  buttons.className = 'button-row';
  const shown = document.createElement('div');
  shown.className = 'experiment-shown';
  const scroller = document.createElement('div');
  scroller.className = 'experiment-scroller';
  const canvas = document.createElement('canvas');
  canvas.className = 'experiment-map';
  canvas.setAttribute('role', 'img');
  scroller.append(canvas);
  const note = document.createElement('div');
  note.className = 'experiment-note';
  note.setAttribute('aria-live', 'polite');
  note.hidden = true;
  shown.append(scroller, note);
  root.append(shown, buttons, printedList());
  element.prepend(root);
  return { root, buttons, shown, scroller, canvas, note };
}

export function mount(element, { core, dispatch }) {
  const { buttons, shown, scroller, canvas, note } = buildParts(element);
  const view = { snapshot: null, cache: {} };
  const draw = () =>
    view.snapshot && drawExperimentMap({ scroller, canvas }, view.snapshot, view.cache);
  new ResizeObserver(draw).observe(scroller);
  document.addEventListener('themechange', draw);
  let stopFollowing = () => {};

  for (const experiment of EXPERIMENTS) {
    const button = Object.assign(document.createElement('button'), {
      type: 'button',
      textContent: experiment.title,
    });
    button.dataset.experiment = experiment.id;
    button.setAttribute('aria-pressed', 'false');
    button.addEventListener('click', () => {
      dispatch({ type: 'set', fields: experiment.state, experiment: experiment.id });
      stopFollowing();
      stopFollowing = keepInView(shown, { block: 'nearest' });
    });
    buttons.append(button);
  }

  return {
    update(snapshot) {
      const current = noteFor(snapshot, (experiment) => baselineOf(core, experiment));
      for (const button of buttons.children) {
        button.setAttribute('aria-pressed', String(button.dataset.experiment === current?.id));
      }
      renderNote(note, current, snapshot.result?.tokens ?? []);
      view.snapshot = snapshot;
      draw();
    },
    destroy: () => element.querySelector('.experiments')?.remove(),
  };
}
