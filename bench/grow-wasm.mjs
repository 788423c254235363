// grow-wasm.mjs: the page's growth step in WebAssembly, timed in Node: the learning module as the
// page loads it (build/wasm/attention-learning.js, relaxed SIMD where Node is started with
// --experimental-wasm-relaxed-simd, as grow-speed.mjs starts it), the page's recipe and text,
// growthSteps without measuring. Prints { kernel, wallMsPerStep, cpuMsPerStep } as JSON after 5
// warm-up steps. Usage: node [--experimental-wasm-relaxed-simd] bench/grow-wasm.mjs [steps]
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { growthRequest } from '../web/src/figures/copying/grower.js';
import { wrapLearning } from '../web/src/learning-core.js';

const steps = Number(process.argv[2] ?? 100);
const factory = createRequire(import.meta.url)('../build/wasm/attention-learning.js');
const learning = wrapLearning(await factory());
const corpus = readFileSync(new URL('../data/tinyshakespeare.txt', import.meta.url), 'utf8');
// learning.js's slice (scripts/build-web.mjs): the text the page grows on.
const text = corpus.slice(0, corpus.lastIndexOf('\n\n', 60000) + 1);
learning.growthStart({ name: 'bench', text, ...growthRequest(0) });
learning.growthSteps({ name: 'bench', count: 5, measure: false });
const wall = performance.now();
const cpu = process.cpuUsage();
for (let done = 0; done < steps; done += 25)
  learning.growthSteps({ name: 'bench', count: Math.min(25, steps - done), measure: false });
const used = process.cpuUsage(cpu);
process.stdout.write(
  JSON.stringify({
    kernel: learning.simdKernel,
    wallMsPerStep: (performance.now() - wall) / steps,
    cpuMsPerStep: (used.user + used.system) / 1000 / steps,
  }),
);
