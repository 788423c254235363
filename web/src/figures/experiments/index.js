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
import { EVERYTHING_NEAR, everythingIsNear } from '../../lib/when-near.js';

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

// The map is drawn only while its section is within a screen of the viewport (or the page is
// printed): section 4's map changes with every keystroke and link, and drawing it here too,
// out of sight, cost a long task each time (a new canvas surface for each new length). It is
// drawn when the section comes near, and whenever it changes there. The box's width is read
// when the browser reports it resized, after its own layout, never in the middle of an update;
// the map that follows is drawn in the next frame, since a new size for the canvas can change
// the box's own (its scroll bars), which an observer must not hear in the same frame (Firefox
// reports "ResizeObserver loop completed with undelivered notifications" as an error).
function createDrawing(element, { scroller, canvas }) {
  const view = { snapshot: null, cache: {}, near: false, size: null, frame: 0 };
  const draw = () => {
    if (!view.snapshot || !view.size?.width) return;
    if (view.near || everythingIsNear(document))
      drawExperimentMap(canvas, view.snapshot, view.cache, view.size);
  };
  const drawNextFrame = () => {
    view.frame ||= requestAnimationFrame(() => {
      view.frame = 0;
      draw();
    });
  };
  const near = new IntersectionObserver(
    ([entry]) => {
      view.near = entry.isIntersecting;
      draw();
    },
    { rootMargin: '100% 0px' },
  );
  near.observe(element.closest('section') ?? element);
  const resized = new ResizeObserver(() => {
    view.size = { width: scroller.clientWidth, viewportHeight: window.innerHeight };
    drawNextFrame();
  });
  resized.observe(scroller);
  document.addEventListener('themechange', draw);
  document.addEventListener(EVERYTHING_NEAR, draw);
  return {
    show(snapshot) {
      view.snapshot = snapshot;
      draw();
    },
    destroy() {
      cancelAnimationFrame(view.frame);
      near.disconnect();
      resized.disconnect();
      document.removeEventListener('themechange', draw);
      document.removeEventListener(EVERYTHING_NEAR, draw);
    },
  };
}

export function mount(element, { core, dispatch }) {
  const { buttons, shown, scroller, canvas, note } = buildParts(element);
  const drawing = createDrawing(element, { scroller, canvas });
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
      drawing.show(snapshot);
    },
    destroy() {
      drawing.destroy();
      element.querySelector('.experiments')?.remove();
    },
  };
}
