// The first screen: a text box and a small live map of it. It shares the one store with the
// attention map of section 4: typing here changes that map too, and every change there shows
// here. mount(element, { dispatch }) → { update(snapshot) }.
import { heroModel } from './model.js';
import { drawHero } from './render.js';
import './hero.css';

function controls(dispatch) {
  const label = Object.assign(document.createElement('label'), { htmlFor: 'hero-text' });
  label.textContent = 'Your text';
  const input = Object.assign(document.createElement('input'), {
    id: 'hero-text',
    type: 'text',
    spellcheck: false,
    autocomplete: 'off',
  });
  input.setAttribute('aria-describedby', 'hero-text-message');
  input.addEventListener('input', () => dispatch({ type: 'set', fields: { text: input.value } }));
  const message = Object.assign(document.createElement('p'), {
    id: 'hero-text-message',
    className: 'field-message',
  });
  message.setAttribute('aria-live', 'polite');
  const row = Object.assign(document.createElement('div'), { className: 'hero-field' });
  row.append(label, input, message);
  return { row, input, message };
}

export function mount(element, { dispatch, pictures }) {
  element.querySelector('.needs-script')?.remove();
  const parts = controls(dispatch);
  const canvas = Object.assign(document.createElement('canvas'), { className: 'hero-map' });
  canvas.setAttribute('role', 'img');
  const line = Object.assign(document.createElement('p'), { className: 'hero-line' });
  line.dataset.note = 'hero';
  element.prepend(parts.row, canvas, line);
  const cache = {};
  let last = null;
  const draw = () => last && drawHero(canvas, last, element.clientWidth, cache, pictures);
  new ResizeObserver(draw).observe(element);
  return {
    update(snapshot) {
      const model = heroModel(snapshot);
      if (!model) return;
      if (document.activeElement !== parts.input) parts.input.value = model.text;
      parts.message.textContent = model.error ?? '';
      parts.input.setAttribute('aria-invalid', String(Boolean(model.error)));
      line.textContent = model.line;
      last = model;
      draw();
      performance.mark('hero-drawn'); // read by bench/page-speed.mjs
    },
  };
}
