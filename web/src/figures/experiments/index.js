// "Things to try": one button per experiment. A click sets the map's whole state in one
// dispatch and brings the map into view, keeping it there while the figures around it redraw
// (lib/keep-in-view.js); the note (model.js) shows here and right under the map, which draws
// it with noteRenderer(), handed to it by main.js in its mount context.
import './experiments.css';
import { EXPERIMENTS, noteFor } from './model.js';
import { baselineOf } from './baseline.js';
import { renderNote } from './render.js';
import { keepInView } from '../../lib/keep-in-view.js';

let stopFollowing = () => {};

function showMap() {
  const map = document.querySelector('#map .map-canvas-wrap');
  stopFollowing();
  if (map) stopFollowing = keepInView(map);
}

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

export function mount(element, { core, dispatch }) {
  const root = document.createElement('div');
  root.className = 'experiments';
  const buttons = document.createElement('div');
  buttons.className = 'button-row';
  const note = document.createElement('div');
  note.className = 'experiment-note';
  note.setAttribute('aria-live', 'polite');
  note.hidden = true;
  root.append(buttons, note, printedList());
  element.prepend(root);

  for (const experiment of EXPERIMENTS) {
    const button = Object.assign(document.createElement('button'), {
      type: 'button',
      textContent: experiment.title,
    });
    button.dataset.experiment = experiment.id;
    button.setAttribute('aria-pressed', 'false');
    button.addEventListener('click', () => {
      dispatch({ type: 'set', fields: experiment.state, experiment: experiment.id });
      showMap();
    });
    buttons.append(button);
  }

  return {
    update(snapshot) {
      const shown = noteFor(snapshot, (experiment) => baselineOf(core, experiment));
      for (const button of buttons.children) {
        button.setAttribute('aria-pressed', String(button.dataset.experiment === shown?.id));
      }
      renderNote(note, shown, snapshot.result?.tokens ?? []);
    },
    destroy: () => root.remove(),
  };
}
