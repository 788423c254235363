// The note beside the map while it shows layer 2 of the head the reader grows (vectors=grown-2).
// The map's result carries `grown` (main.js): { seed, steps, step, status } for the page's run
// of the seed and steps the link names, or { seed, steps, standIn: true } while the page has no
// such run and the saved head's layer 2 stands in. Opening a link never starts a run: the note
// offers it. Pure.
import { copyRows } from '../../lib/copying-note.js';

const thousands = (n) => n.toLocaleString('en-US');

// "layer 2 of the head you grow from seed 3, at step 600 of 2,000"
export function grownDescription({ seed, steps, step, status }) {
  const stopped = status === 'stopped' ? ', stopped' : '';
  return `layer 2 of the head you grow from seed ${seed}, at step ${thousands(step)} of ${thousands(steps)}${stopped}`;
}

// { text, button?, command? }: the note, and with a stand-in the button that grows the run.
export function grownNote(result) {
  const { grown } = result;
  if (!grown.standIn) {
    const text = `${grownDescription(grown)}. ${copyRows(result)}`;
    return { text: text[0].toUpperCase() + text.slice(1) };
  }
  return {
    text:
      `The map asks for layer 2 of the head grown from seed ${grown.seed} for ${thousands(grown.steps)} steps, ` +
      'which this page has not grown, so the saved head’s layer 2 stands in. Grow it here: the map follows it as it grows.',
    button: 'Grow it',
    command: { type: 'grow', settings: { seed: grown.seed, steps: grown.steps } },
  };
}
