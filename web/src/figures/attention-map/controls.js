// The map's controls: their markup, the dispatches they send, and how they follow the
// store's requested state (a control holding a rejected value is left alone, so the person
// can fix it; its message shows beside it).
import { CUSTOM, customScale, namedScale, SCALE_CHOICES, scaleLabel } from '../../lib/scale.js';
import { COPYING_HEAD } from '../../trained/copying-head.js';
import { TRAINED_HEAD } from '../../trained/trained-head.js';
import { savedModelOf, widthRests } from '../../state.js';

// What the trained head decides for itself (state.js's withSavedModel): these controls rest.
const FIXED_BY_SAVED_MODEL = ['tokens', 'd', 'seed', 'scale', 'init', 'pos', 'causal'];

export function controlsMarkup(limits) {
  return `
  <div class="control wide">
    <label for="map-text">Text</label>
    <textarea id="map-text" rows="1" spellcheck="false" aria-describedby="map-text-message map-text-note"></textarea>
    <div class="message" id="map-text-message" aria-live="polite"></div>
    <div class="action-note" id="map-text-note" data-role="text-note" hidden></div>
  </div>
  <div class="control">
    <label for="map-tokens">One token per</label>
    <select id="map-tokens">
      <option value="chars">characters</option>
      <option value="words">words</option>
    </select>
  </div>
  <div class="control">
    <label for="map-vectors">One vector per</label>
    <select id="map-vectors">
      <option value="position">position</option>
      <option value="token">token</option>
      <option value="trained">token, trained</option>
      <option value="copying-1">two heads: layer 1, looks one back</option>
      <option value="copying-2">two heads: layer 2, copies what came next</option>
      <option value="grown-2">two heads you grow in section 9: layer 2</option>
    </select>
  </div>
  <p class="control wide hint" data-role="saved-fixed" hidden></p>
  <div class="control">
    <label for="map-d">Head width d (1–${limits.maxMapWidth})</label>
    <input id="map-d" type="text" inputmode="numeric" autocomplete="off" aria-describedby="map-d-message map-recipe-note">
    <div class="message" id="map-d-message" aria-live="polite"></div>
  </div>
  <div class="control">
    <label for="map-seed">Seed</label>
    <input id="map-seed" type="text" inputmode="numeric" autocomplete="off" aria-describedby="map-seed-message">
    <div class="message" id="map-seed-message" aria-live="polite"></div>
  </div>
  <div class="control">
    <label for="map-scale">Scale scores by</label>
    <select id="map-scale" aria-describedby="map-scale-message">
      ${SCALE_CHOICES.map(({ mode, text }) => `<option value="${mode}">${text}</option>`).join('\n      ')}
    </select>
    <div class="control-row" data-role="factor-control">
      <label class="sr-only" for="map-factor">Factor</label>
      <input id="map-factor" type="range" min="-3" max="1" step="0.01" aria-describedby="map-scale-message">
      <output for="map-factor" id="map-factor-value"></output>
    </div>
    <div class="message" id="map-scale-message" aria-live="polite"></div>
  </div>
  <div class="control">
    <label for="map-init">Weight recipe</label>
    <select id="map-init">
      <option value="tutorial">tutorial</option>
      <option value="standard">standard</option>
      <option value="trained" hidden>trained on Shakespeare</option>
    </select>
    <span class="hint">Wq, Wk = 0.5·randn or randn/√d</span>
  </div>
  <div class="control">
    <label for="map-pos">Positions</label>
    <select id="map-pos" aria-describedby="map-pos-message">
      <option value="none">none</option>
      <option value="sinusoidal">sinusoidal</option>
      <option value="rope">RoPE</option>
      <option value="learned" hidden>its own, learned</option>
    </select>
    <div class="message" id="map-pos-message" aria-live="polite"></div>
  </div>
  <div class="control checkboxes">
    <span class="label">Mask</span>
    <label><input id="map-causal" type="checkbox"> Causal mask</label>
  </div>
  <div class="control checkboxes">
    <span class="label">Colours</span>
    <label><input id="map-stretch" type="checkbox"> Stretch to this map</label>
  </div>`;
}

const factorFromSlider = (slider) => Number((10 ** Number(slider.value)).toPrecision(3));

// What the resting controls' hint says for each saved model.
const FIXED_HINTS = Object.freeze({
  trained: `While the trained head is on, the other settings rest: it reads one token per character and keeps what it was trained with, d = ${TRAINED_HEAD.d}, its own learned positions, scores scaled by 1/√d and the causal mask. Seed and weight recipe do not apply to it.`,
  copying: `While the two heads are on, the other settings rest: they read one token per character and keep what they grew with, d = ${COPYING_HEAD.d}, their own learned positions, scores scaled by 1/√d and the causal mask. Seed and weight recipe do not apply.`,
});

// Wires every control to dispatch; returns the inputs by field name.
export function wireControls(root, dispatch) {
  const $ = (id) => root.querySelector(`#map-${id}`);
  const inputs = Object.fromEntries(
    [
      'text',
      'tokens',
      'd',
      'seed',
      'scale',
      'factor',
      'vectors',
      'causal',
      'init',
      'pos',
      'stretch',
    ].map((field) => [field, $(field)]),
  );
  const set = (fields) => dispatch({ type: 'set', fields });
  for (const field of ['text', 'd', 'seed']) {
    inputs[field].addEventListener('input', () => set({ [field]: inputs[field].value }));
  }
  for (const field of ['tokens', 'vectors', 'init', 'pos']) {
    inputs[field].addEventListener('change', () => set({ [field]: inputs[field].value }));
  }
  for (const field of ['causal', 'stretch']) {
    inputs[field].addEventListener('change', () => set({ [field]: inputs[field].checked }));
  }
  const sliderScale = () => customScale(factorFromSlider(inputs.factor));
  inputs.scale.addEventListener('change', () => {
    const mode = inputs.scale.value;
    set({ scale: mode === CUSTOM ? sliderScale() : namedScale(mode) });
  });
  inputs.factor.addEventListener('input', () => set({ scale: sliderScale() }));
  return inputs;
}

function setValue(input, value, rejected) {
  if (!rejected && input.value !== value) input.value = value;
}

// Follows the requested state; errors: { field: message } from the snapshot.
export function syncControls(root, inputs, state, errors) {
  setValue(inputs.text, state.text, errors.text);
  setValue(inputs.d, String(state.d), errors.d);
  setValue(inputs.seed, String(state.seed), errors.seed);
  const saved = savedModelOf(state) !== null;
  for (const field of ['tokens', 'vectors']) inputs[field].value = state[field];
  // The trained head has no random recipe and brings its own positions: the resting controls
  // say so, while the state keeps the reader's choices for when they switch back.
  inputs.init.value = saved ? 'trained' : state.init;
  inputs.pos.value = saved ? 'learned' : state.pos;
  inputs.causal.checked = state.causal;
  inputs.stretch.checked = state.stretch;
  const custom = state.scale.mode === CUSTOM;
  inputs.scale.value = state.scale.mode;
  // The factor slider keeps its room while hidden, so choosing it never pushes the map.
  root.querySelector('[data-role="factor-control"]').classList.toggle('is-idle', !custom);
  for (const field of FIXED_BY_SAVED_MODEL) inputs[field].disabled = saved;
  // Under the tutorial's recipe the width rests too, read-only but still reached by Tab, so
  // a keyboard or screen-reader user lands on it and hears the recipe note that says why.
  const rests = widthRests(state) && !saved;
  inputs.d.readOnly = rests;
  inputs.d.setAttribute('aria-disabled', String(rests));
  const hint = root.querySelector('[data-role="saved-fixed"]');
  hint.hidden = !saved;
  hint.textContent = saved ? FIXED_HINTS[state.vectors === 'trained' ? 'trained' : 'copying'] : '';
  inputs.factor.disabled = !custom || saved;
  if (custom && document.activeElement !== inputs.factor) {
    inputs.factor.value = String(Math.log10(state.scale.factor));
  }
  root.querySelector('#map-factor-value').textContent = custom ? scaleLabel(state.scale) : '';
  for (const field of ['text', 'd', 'seed', 'scale', 'pos']) {
    root.querySelector(`#map-${field}-message`).textContent = errors[field] || '';
    inputs[field].setAttribute('aria-invalid', errors[field] ? 'true' : 'false');
  }
}
