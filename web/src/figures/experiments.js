// "Things to try": one click sets the map to a prepared state; a note says what to look
// for, quoting numbers from the map the core just computed.
import './experiments.css';
import { DEFAULT_STATE } from '../state.js';
import { fixed } from '../lib/format.js';

function averages(result) {
  let peak = 0,
    effective = 0;
  for (let i = 0; i < result.T; i++) {
    peak += result.peakWeight[i];
    effective += result.effectiveTokens[i];
  }
  return { peak: peak / result.T, effective: effective / result.T };
}

// Largest |q_a - q_b| over the head's dimensions: 0 means identical queries.
function queryDifference(result, a, b) {
  let largest = 0;
  for (let c = 0; c < result.d; c++)
    largest = Math.max(largest, Math.abs(result.q[a * result.d + c] - result.q[b * result.d + c]));
  return largest;
}

const SAME_TOKEN = {
  text: 'the cat saw the dog',
  tokens: 'words',
  vectors: 'token',
  causal: true,
  scale: 'sqrt',
  d: 24,
  seed: 1,
};

const EXPERIMENTS = [
  {
    title: 'Remove the causal mask',
    state: { causal: false },
    note: (result) =>
      `The upper triangle fills in: every token now sees the whole text, before and after it. ` +
      `This is the pattern of an encoder such as BERT. Rows now spread over ${fixed(averages(result).effective, 2)} effective tokens on average.`,
  },
  {
    title: 'The same token at two positions',
    state: { ...SAME_TOKEN, pos: false },
    note: (result) =>
      `“the” appears at positions 0 and 3 and gets one vector, so its two queries are identical: ` +
      `the largest difference between query rows 0 and 3 is ${fixed(queryDifference(result, 0, 3), 4)}. ` +
      `Without positional information attention cannot tell the two apart. Try the next button.`,
  },
  {
    title: '…then add positions',
    state: { ...SAME_TOKEN, pos: true },
    note: (result) =>
      `With sinusoidal positions added to each token's vector, the two “the” queries now differ by up to ` +
      `${fixed(queryDifference(result, 0, 3), 3)} in a single dimension, so each can attend differently. ` +
      `This need is what positional encodings such as RoPE address.`,
  },
  {
    title: 'Scale by 1/d instead of 1/√d',
    state: { scale: 'd' },
    note: (result) =>
      `Dividing by d = ${result.d} shrinks the scores too much and the softmax under-sharpens: ` +
      `rows spread over ${fixed(averages(result).effective, 2)} effective tokens and the average peak weight is ` +
      `${fixed(averages(result).peak, 2)}. The exponent really is ½.`,
  },
  {
    title: 'No scaling at d = 512',
    state: { scale: 'none', d: 512 },
    note: (result) =>
      `With a 512-wide head and no scaling the softmax saturates: the average row puts ` +
      `${fixed(averages(result).peak, 2)} of its weight on one token (${fixed(averages(result).effective, 2)} effective tokens). ` +
      `A saturated softmax passes almost no gradient.`,
  },
  {
    title: "Back to the tutorial's figure",
    state: { ...DEFAULT_STATE },
    note: () =>
      'The tutorial’s map again: “To be, or not”, seed 1, d = 24, causal, scaled by 1/√d.',
  },
];

export function mount(element, { store }) {
  const root = document.createElement('div');
  root.className = 'experiments';
  const buttons = document.createElement('div');
  buttons.className = 'button-row';
  const note = document.createElement('p');
  note.className = 'experiment-note';
  note.setAttribute('aria-live', 'polite');
  root.append(buttons, note);
  element.prepend(root);

  let active = null;
  const reduceMotion = matchMedia('(prefers-reduced-motion: reduce)');

  for (const experiment of EXPERIMENTS) {
    const button = Object.assign(document.createElement('button'), {
      type: 'button',
      textContent: experiment.title,
    });
    button.setAttribute('aria-pressed', 'false');
    button.addEventListener('click', () => {
      active = experiment;
      for (const other of buttons.children)
        other.setAttribute('aria-pressed', String(other === button));
      const raw = Object.fromEntries(
        Object.entries(experiment.state).map(([key, value]) => [
          key,
          typeof value === 'boolean' ? value : String(value),
        ]),
      );
      store.update(raw);
      document
        .getElementById('map')
        .scrollIntoView({ behavior: reduceMotion.matches ? 'auto' : 'smooth', block: 'start' });
    });
    buttons.append(button);
  }

  // The note stays while the map shows the experiment's state; once a control moves the map
  // elsewhere, the note would no longer be true, so it goes.
  const shows = (experiment, state) =>
    Object.entries(experiment.state).every(([key, value]) => state[key] === value);
  const unsubscribe = store.subscribe((snapshot) => {
    if (!active || !snapshot.result) return;
    if (shows(active, snapshot.state)) {
      note.textContent = active.note(snapshot.result);
    } else if (Object.keys(snapshot.errors).length === 0) {
      active = null;
      note.textContent = '';
      for (const button of buttons.children) button.setAttribute('aria-pressed', 'false');
    }
  });
  return { destroy: unsubscribe };
}
