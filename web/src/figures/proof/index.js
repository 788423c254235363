// Section 6, the proof: the tutorial's equivalence check, run live in the browser. The core
// rebuilds PyTorch's seed-0 inputs, computes attention three ways and compares them with
// PyTorch's own outputs, which are embedded in the bundle at build time. No query/key pair
// of the map appears here, so it neither sends nor shows highlights.
import torchOutputs from 'virtual:torch-outputs';
import './proof.css';
import * as model from './model.js';
import { buildFigure, writeParts, writeTable } from './render.js';

// The build embeds each output as base64 of little-endian float32 (as wasm memory is).
function decodeFloat32(base64) {
  const bytes = Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
  return new Float32Array(bytes.buffer);
}

export function mount(element, { core }) {
  const parts = buildFigure(element);
  parts.tutorial.textContent = model.TUTORIAL_LINES.join('\n');
  parts.tutorialNote.textContent = model.COMPARES.tutorial;
  parts.oursNote.textContent = model.COMPARES.ours;

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
      parts.lines.textContent = `The check could not run: ${error.message}`;
      return;
    }
    const ms = performance.now() - started;
    parts.lines.textContent = model.ourLines(results).join('\n');
    parts.timing.textContent = model.timing(ms);
    writeParts(parts.why, model.whyDigitsDiffer(results, core.limits.equivalenceTolerance));
    writeTable(parts.details, model.detailTable(results));
  }

  parts.rerun.addEventListener('click', run);
  run();
  return {
    update() {}, // the check's inputs are fixed: the map's state does not change it
    destroy() {
      parts.rerun.removeEventListener('click', run);
      parts.root.remove();
    },
  };
}
