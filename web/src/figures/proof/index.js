// Section 7, the proof: the tutorial's equivalence check, run live in the browser. The core
// rebuilds PyTorch's seed-0 inputs, computes attention three ways and compares them with
// PyTorch's own outputs. Those come in torch-outputs.js (scripts/build-web.mjs writes it from
// tests/fixtures), fetched when the section comes near: they are 8 KB gzipped that a reader
// of the first five sections does not need. No query/key pair of the map appears here, so it
// neither sends nor shows highlights.
import './proof.css';
import { loadScript } from '../../lib/load-script.js';
import { whenNear } from '../../lib/when-near.js';
import * as model from './model.js';
import { buildFigure, writeParts, writeTable } from './render.js';

const OUTPUTS_FILE = 'torch-outputs.js';

// Each output is base64 of little-endian float32 (as wasm memory is).
function decodeFloat32(base64) {
  const bytes = Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
  return new Float32Array(bytes.buffer);
}

export function mount(element, { core }) {
  const parts = buildFigure(element);
  parts.tutorial.textContent = model.TUTORIAL_LINES.join('\n');
  parts.tutorialNote.textContent = model.COMPARES.tutorial;
  parts.oursNote.textContent = model.COMPARES.ours;

  // A sentence in place of the lines (it wraps), or the lines themselves.
  function say(sentence) {
    parts.lines.classList.add('proof-message');
    parts.lines.textContent = sentence;
  }

  // Busy until the first check has run or said why not (print.js waits for it).
  const done = () => parts.lines.removeAttribute('aria-busy');
  async function run() {
    let torchOutputs;
    try {
      torchOutputs = await loadScript(OUTPUTS_FILE, 'AttentionTorchOutputs', model.OUTPUTS);
    } catch (error) {
      say(model.couldNotLoad(error.message));
      done();
      return;
    }
    const started = performance.now();
    let results;
    try {
      results = [false, true].map((causal) =>
        core.equivalence({
          causal,
          torchOutput: decodeFloat32(causal ? torchOutputs.causalTrue : torchOutputs.causalFalse),
        }),
      );
    } catch (error) {
      say(model.couldNotRun(error.message));
      done();
      return;
    }
    const ms = performance.now() - started;
    parts.lines.classList.remove('proof-message');
    parts.lines.textContent = model.ourLines(results).join('\n');
    parts.timing.textContent = model.timing(ms);
    writeParts(parts.why, model.whyDigitsDiffer(results, core.limits.equivalenceTolerance));
    writeTable(parts.details, model.detailTable(results));
    done();
  }

  say(model.WAITING);
  parts.lines.setAttribute('aria-busy', 'true');
  parts.rerun.addEventListener('click', run);
  const stopWatching = whenNear(element, run);
  return {
    update() {}, // the check's inputs are fixed: the map's state does not change it
    destroy() {
      stopWatching();
      parts.rerun.removeEventListener('click', run);
      parts.root.remove();
    },
  };
}
