// Section 9's growth runs in the learning module (cpp/wasm/growth_bindings.cpp), in Node.
//
// The wasm trainer follows `attention-grow --losses 50` (the native reference path, each step
// taken in shares as the page takes it) to a relative 1e-4 at every one of 50 steps: the simd128
// products here, and the relaxed-SIMD ones in a child node started with Node 20's flag (this same
// file, given --relaxed-losses), as training-agreement.test.mjs does for the one-layer trainer.
// A step taken by two workers (growthShare on each, growthApply with both blocks) gives the same
// losses and maps bit for bit as one worker's growthSteps. Bad requests are refused with the
// field named. And a head grown here from the page's recipe and text, once formed (growthSteps'
// measure.formed: layer 2's score at least 0.3 and 60% of held-out second-copy rows on the copy,
// attention-grow's test), copies: at least 60% of the second-copy rows of repeated random strings peak on
// the character after the first copy's (counted here from the map's weights, not by the core).
// The page's grower (figures/copying/grower.js) taking each step on one, two or four workers
// (modules of their own here, as learning.js pins the channels 'grow@w') gives the same losses,
// scores and map bit for bit.
import { generator } from './random-changes.mjs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createGrower, growthRequest } from '../src/figures/copying/grower.js';
import { wrapLearning } from '../src/learning-core.js';
import { loadLearning } from './cores.mjs';

const root = new URL('../../', import.meta.url);
const RELAXED_FLAG = '--experimental-wasm-relaxed-simd';
const STEPS = 50;
const CHILD_LIMIT_MS = 300_000; // a native run or child node that hangs fails its test
const GROW_LIMIT_MS = 600_000; // growing to the head: about 1,500 steps
const corpus = () => readFileSync(new URL('data/tinyshakespeare.txt', root), 'utf8');

// attention-grow's first STEPS training losses of seed 0, with the recipe the page grows.
function nativeLosses() {
  const { d, context, batch, repeated, random, shortest, longest, learningRate, warmup } =
    growthRequest(0);
  const { laterStep, laterRandom } = growthRequest(0);
  const recipe =
    `d=${d},context=${context},batch=${batch},repeated=${repeated},random=${random},` +
    `lengths=${shortest}-${longest},lr=${learningRate},warmup=${warmup},then=${laterRandom}@${laterStep}`;
  const out = execFileSync(
    new URL('build/native/attention-grow', root).pathname,
    ['--losses', String(STEPS), '--seeds', '0', '--recipe', recipe],
    { encoding: 'utf8', timeout: CHILD_LIMIT_MS },
  );
  return JSON.parse(out).losses;
}

function wasmLosses(learning) {
  learning.growthStart({ name: 'agree', text: corpus(), ...growthRequest(0) });
  const { losses } = learning.growthSteps({ name: 'agree', count: STEPS, measure: false });
  learning.growthStop({ name: 'agree' });
  return Array.from(losses);
}

function worstStep(losses, native) {
  let worst = { relative: -1 };
  losses.forEach((loss, s) => {
    const relative = Math.abs(loss - native[s]) / Math.abs(native[s]);
    if (relative > worst.relative) worst = { relative, step: s + 1, loss, native: native[s] };
  });
  return worst;
}

function assertFollows(losses, native, what) {
  assert.equal(losses.length, STEPS);
  const worst = worstStep(losses, native);
  console.log(`${what}: max relative |wasm - native| = ${worst.relative.toExponential(2)}`);
  assert.ok(
    worst.relative <= 1e-4,
    `step ${worst.step}: wasm ${worst.loss}, native ${worst.native}`,
  );
}

// The child: the relaxed-SIMD module's losses and which products it ran, as JSON on stdout.
async function printRelaxedLosses() {
  const factory = createRequire(import.meta.url)('../../build/wasm/attention-learning.js');
  const learning = wrapLearning(await factory());
  process.stdout.write(
    JSON.stringify({ kernel: learning.simdKernel, losses: wasmLosses(learning) }),
  );
}

function relaxedLosses() {
  const child = spawnSync(
    process.execPath,
    [RELAXED_FLAG, fileURLToPath(import.meta.url), '--relaxed-losses'],
    { encoding: 'utf8', maxBuffer: 16 << 20, timeout: CHILD_LIMIT_MS },
  );
  assert.equal(child.status, 0, `child node failed: ${child.error?.message ?? child.stderr}`);
  return JSON.parse(child.stdout);
}

// Of the second copy's rows P + 1 … 2P − 1 of `count` random strings shown twice, how many put
// their largest layer-2 weight on i − P + 1, and how many rows there were.
function copyingRows(learning, name, letters, count) {
  const next = generator(7);
  let copying = 0;
  let rows = 0;
  for (let n = 0; n < count; n++) {
    const P = 20 + Math.floor(next() * 21);
    const string = Array.from({ length: P }, () => letters[Math.floor(next() * letters.length)]);
    const { T, weights } = learning.growthMap({ name, text: string.join('').repeat(2), layer: 2 });
    assert.equal(T, 2 * P);
    for (let i = P + 1; i < T; i++) {
      let best = 0;
      for (let j = 1; j <= i; j++) if (weights[i * T + j] > weights[i * T + best]) best = j;
      copying += best === i - P + 1 ? 1 : 0;
      rows += 1;
    }
  }
  return { copying, rows };
}

// The text the page grows on: learning.js's slice of Shakespeare (scripts/build-web.mjs cuts it
// at the last blank line before 60,000 characters).
function pageText() {
  const text = corpus();
  return text.slice(0, text.lastIndexOf('\n\n', 60000) + 1);
}

// A learning section with one module per worker, as learning.js routes the channels: 'grow@w'
// and 'grow@w/…' to worker w. Each call answers as the compute client does; every step's losses
// are kept in order as the workers reported them.
function pinnedCompute(modules) {
  const losses = [];
  return {
    losses,
    describe: () => ({ mode: 'worker' }),
    async run(channel, method, request) {
      const worker = Number(/^grow@(\d+)/.exec(channel)[1]);
      try {
        const value = modules[worker % modules.length][method](request);
        if (method === 'growthSteps') losses.push(...value.losses);
        if (method === 'growthApply' && worker === 0) losses.push(Math.fround(value.loss));
        return { value };
      } catch (error) {
        return { error: error.message };
      }
    },
  };
}

// A run of `steps` steps of seed 1 through the grower with `workers` workers: its per-step losses,
// the grower's induction points and worker 0's map, before the run is freed.
async function grownThrough(modules, workers, steps) {
  const compute = pinnedCompute(modules);
  let finished;
  const done = new Promise((resolve) => {
    finished = resolve;
  });
  const grower = createGrower({
    compute,
    workers,
    textFor: async () => pageText(),
    onChange: (growth) => ['done', 'failed'].includes(growth.status) && finished(growth),
    onModel: () => {},
  });
  grower.start({ seed: 1, steps });
  const growth = await done;
  assert.equal(growth.status, 'done', growth.error);
  const { request } = grower.mapRequest({ text: 'to be or not to be', layer: 2 });
  const map = modules[0].growthMap(request);
  grower.destroy();
  return { losses: compute.losses, induction: growth.induction, map };
}

if (process.argv.includes('--relaxed-losses')) {
  await printRelaxedLosses();
} else {
  const learning = await loadLearning();
  const native = nativeLosses();

  test('the simd128 growth run follows attention-grow to 1e-4 for 50 steps', () => {
    assert.equal(learning.simdKernel, 'simd128', 'Node without the flag runs the simd128 products');
    assertFollows(wasmLosses(learning), native, 'simd128');
  });

  test('the relaxed-SIMD growth run follows attention-grow to 1e-4 for 50 steps', () => {
    const child = relaxedLosses();
    assert.equal(child.kernel, 'relaxed-simd');
    assertFollows(child.losses, native, 'relaxed SIMD');
  });

  test('two workers taking a step together give one worker’s losses and map bit for bit', () => {
    const text = pageText();
    const request = growthRequest(3);
    for (const name of ['one', 'left', 'right']) learning.growthStart({ name, text, ...request });
    for (let step = 0; step < 3; step++) {
      const { losses } = learning.growthSteps({ name: 'one', count: 1, measure: false });
      const half = request.shares / 2;
      const blocks = [
        learning.growthShare({ name: 'left', first: 0, count: half }),
        learning.growthShare({ name: 'right', first: half, count: half }),
      ];
      for (const name of ['left', 'right']) {
        const { loss } = learning.growthApply({ name, blocks, measure: false });
        assert.equal(Math.fround(loss), losses[0], `step ${step + 1}, ${name}`);
      }
    }
    const map = (name) => learning.growthMap({ name, text: 'to be or not to be', layer: 2 });
    assert.deepEqual(map('left').weights, map('one').weights);
    assert.deepEqual(map('right').next, map('one').next);
    assert.equal(map('one').step, 3);
    for (const name of ['one', 'left', 'right']) learning.growthStop({ name });
  });

  test('the page’s grower on one, two or four workers: the same losses, scores and map, bit for bit', {
    timeout: CHILD_LIMIT_MS,
  }, async () => {
    const modules = [learning, await loadLearning()];
    const steps = 40; // two calls: one of STEPS_PER_CALL, one shorter
    const one = await grownThrough(modules, 1, steps);
    assert.equal(one.losses.length, steps);
    for (const workers of [2, 4]) {
      const many = await grownThrough(modules, workers, steps);
      assert.deepEqual(many.losses, one.losses, `${workers} workers: losses`);
      assert.deepEqual(many.induction, one.induction, `${workers} workers: scores`);
      assert.deepEqual(many.map.weights, one.map.weights, `${workers} workers: map`);
      assert.equal(many.map.step, steps);
    }
  });

  test('the growth calls refuse bad requests, naming the field', () => {
    const text = pageText();
    assert.throws(() => learning.growthSteps({ name: 'nobody', count: 1 }), /no growth run/);
    assert.throws(
      () => learning.growthStart({ name: 'bad', text, ...growthRequest(0), shares: 3 }),
      /shares = 3 must be a power of two/,
    );
    learning.growthStart({ name: 'bad', text, ...growthRequest(0) });
    assert.throws(
      () => learning.growthShare({ name: 'bad', first: 1, count: 2 }),
      (error) => error.field === 'count' && /aligned block/.test(error.message),
    );
    assert.throws(() => learning.growthApply({ name: 'bad', blocks: [] }), /no gradient was taken/);
    assert.throws(
      () => learning.growthMap({ name: 'bad', text: 'x'.repeat(97), layer: 2 }),
      (error) => error.field === 'text',
    );
    assert.deepEqual(learning.growthStop({ name: 'bad' }), { stopped: true });
    assert.deepEqual(learning.growthStop({ name: 'bad' }), { stopped: false });
  });

  test('a head grown from the page’s recipe, once formed, copies in 60% of second-copy rows', {
    timeout: GROW_LIMIT_MS,
  }, () => {
    const text = pageText();
    const start = learning.growthStart({ name: 'grown', text, ...growthRequest(0) });
    let measure = start.measure;
    while (!measure.formed && measure.step < 3000)
      ({ measure } = learning.growthSteps({ name: 'grown', count: 50, measure: true }));
    console.log(
      `grown: layer-2 score ${measure.induction[1].toFixed(3)} at step ${measure.step}; ` +
        `held-out share ${measure.heldOutShare}`,
    );
    assert.ok(measure.formed, `no head by step ${measure.step}`);
    assert.ok(measure.induction[1] >= 0.3 && measure.heldOutShare >= 0.6);
    const letters = start.vocabulary.filter((c) => c !== '\n');
    const { copying, rows } = copyingRows(learning, 'grown', letters, 40);
    console.log(`grown: ${copying} of ${rows} second-copy rows peak on the copy`);
    assert.ok(copying >= 0.6 * rows, `${copying} of ${rows}`);
    learning.growthStop({ name: 'grown' });
  });
}
