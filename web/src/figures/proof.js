// The proof panel: the tutorial's equivalence check, run live in the browser. The core
// rebuilds PyTorch's seed-0 inputs, computes attention three ways and compares them with
// PyTorch's own outputs, which are embedded in the bundle at build time.
import torchOutputs from 'virtual:torch-outputs';
import { scientific } from '../lib/format.js';

// The build embeds each output as base64 of little-endian float32 (as wasm memory is).
function decodeFloat32(base64) {
  const bytes = Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
  return new Float32Array(bytes.buffer);
}

export function mount(element, { core }) {
  const root = document.createElement('div');
  root.className = 'proof';
  const lines = document.createElement('pre');
  lines.className = 'readout proof-lines';
  lines.setAttribute('aria-live', 'polite');
  const details = document.createElement('table');
  details.className = 'numbers proof-details';
  const rerun = Object.assign(document.createElement('button'), {
    type: 'button',
    textContent: 'Run the check again',
  });
  root.append(lines, details, rerun);
  element.insertBefore(root, element.querySelector('figcaption'));

  function run() {
    const started = performance.now();
    let results;
    try {
      results = [false, true].map((causal) =>
        core.equivalence(
          causal,
          decodeFloat32(causal ? torchOutputs.causalTrue : torchOutputs.causalFalse),
        ),
      );
    } catch (error) {
      lines.textContent = `The check could not run: ${error.message}`;
      return;
    }
    const elapsed = performance.now() - started;
    lines.textContent =
      results.map((result) => result.line).join('\n') +
      `\n\n(${elapsed.toFixed(1)} ms in your browser; B = 2, T = 16, d = 32, seed 0)`;
    details.replaceChildren();
    details.createCaption().textContent =
      'Largest difference from the four-line formula, per comparison';
    const head = details.createTHead().insertRow();
    for (const title of ['mask', 'vs PyTorch', 'vs fused kernel', 'vs float64']) {
      head.append(
        Object.assign(document.createElement('th'), { textContent: title, scope: 'col' }),
      );
    }
    const body = details.createTBody();
    for (const result of results) {
      const row = body.insertRow();
      row.append(
        Object.assign(document.createElement('th'), {
          scope: 'row',
          textContent: result.causal ? 'causal' : 'no mask',
        }),
      );
      for (const value of [result.formulaVsTorch, result.formulaVsFused, result.formulaVsFloat64]) {
        row.insertCell().textContent = scientific(value);
      }
    }
  }

  rerun.addEventListener('click', run);
  run();
  return {
    destroy() {
      rerun.removeEventListener('click', run);
    },
  };
}
