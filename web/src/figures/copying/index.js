// Section 9's figure: the recorded growth of the copying head (model.js), drawn once; it has no
// state to follow, so update() does nothing.
import { COPYING_HEAD } from '../../trained/copying-head.js';
import { numbersToggle } from '../../lib/numbers-toggle.js';
import './copying.css';
import { growthModel } from './model.js';
import { drawChart, tableMarkup } from './render.js';

export function mount(element) {
  const model = growthModel(COPYING_HEAD);
  const box = document.createElement('div');
  box.className = 'copying-growth';
  box.innerHTML = `
    <p class="copying-growth__legend"><span class="copying-growth__loss">— training loss</span> <span class="copying-growth__score">— layer 2's induction score</span></p>
    <div class="copying-growth__plot"><canvas role="img"></canvas></div>
    <p class="copying-growth__timing" data-role="timing"></p>
    <button type="button" aria-expanded="false">Show numbers</button>
    <div class="copying-growth__table sr-only"></div>`;
  element.querySelector('.needs-script')?.remove();
  element.prepend(box);
  const canvas = box.querySelector('canvas');
  canvas.setAttribute('aria-label', model.ariaLabel);
  box.querySelector('[data-role="timing"]').textContent = model.timing;
  const table = box.querySelector('.copying-growth__table');
  table.innerHTML = tableMarkup(model.table);
  numbersToggle(box.querySelector('button'), table);
  const chart = drawChart(canvas, model);
  return { update() {}, destroy: () => chart.destroy() };
}
