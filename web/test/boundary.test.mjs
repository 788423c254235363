// The wasm boundary, export by export, in Node: every function either module exports (found by
// iterating the module, not by a list kept here) takes one request object, and a request with
// one bad field comes back as { error: { message, field } } naming that field. An export with
// no row below fails the first test: give it a row, a request with one bad field and that
// field's name (and, where the call needs something loaded first, a `before`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { copyingHead } from '../src/trained/copying-head.js';
import { trainedHead } from '../src/trained/trained-head.js';

const require = createRequire(import.meta.url);

// Exports that take nothing and cannot refuse: what the core's limits are, how much heap it uses.
const TAKES_NOTHING = Symbol('takes nothing');

const SCALE = Object.freeze({ mode: 'sqrt' });
const HEAD = Object.freeze({
  q: new Float32Array(2),
  k: new Float32Array(2),
  v: new Float32Array(2),
  T: 2,
  d: 1,
  dV: 1,
  scale: SCALE,
  causal: true,
});
const MAP = Object.freeze({
  text: 'To be',
  tokens: 'chars',
  d: 8,
  seed: 1,
  vectors: 'position',
  init: 'tutorial',
  pos: 'none',
  scale: SCALE,
  causal: true,
  detail: 'all',
});
const TRAINING = Object.freeze({
  name: 'boundary',
  text: 'to be or not to be, that is the question',
  config: 'head',
  d: 8,
  scale: SCALE,
  optimizer: 'adam',
  learningRate: 0.01,
  seed: 0,
  batch: 1,
  context: 4,
});

// The page's module (cpp/wasm/core_bindings.cpp): export → { request, field }.
const CORE_ROWS = {
  formula: { request: { ...HEAD, q: new Float32Array(3) }, field: 'q' },
  fused: { request: { ...HEAD, scale: { mode: 'cubic' } }, field: 'scale' },
  scoreOf: { request: { query: [1, 2], key: [1], scale: SCALE }, field: 'key' },
  randn: { request: { seed: 1, counts: [4, 2.5] }, field: 'counts' },
  attentionMap: { request: { ...MAP, init: 'xavier' }, field: 'init' },
  scaleStudy: {
    request: { widths: [4], T: 4, draws: 1, causal: 'no', seed: 0 },
    field: 'causal',
  },
  equivalence: {
    request: { causal: true, torchOutput: new Float32Array(3) },
    field: 'torchOutput',
  },
  studyMultiplyAdds: { request: { widths: [4], T: 0, draws: 1 }, field: 'T' },
  tokenCount: { request: { text: 'abc', tokens: 'bytes' }, field: 'tokens' },
  mapMultiplyAdds: { request: { T: 4, d: 0 }, field: 'd' },
  // The saved models (cpp/wasm/trained_bindings.cpp).
  trainedHeadLoad: { request: { ...trainedHead(), scale: null }, field: 'scale' },
  trainedHeadMap: {
    before: (module) => module.trainedHeadLoad(trainedHead()),
    request: { text: 'To be', detail: 'some' },
    field: 'detail',
  },
  copyingHeadLoad: { request: { ...copyingHead(), layers: 0 }, field: 'layers' },
  copyingHeadMap: {
    before: (module) => module.copyingHeadLoad(copyingHead()),
    request: { text: 'To be', layer: 2, detail: 'all', guesses: 99 },
    field: 'guesses',
  },
  limits: TAKES_NOTHING,
  heapInUse: TAKES_NOTHING,
};

// A small growth run (cpp/wasm/growth_bindings.cpp): two layers of width 8, the recipe's context
// (its held-out passages of 40 characters must fit twice) and string lengths, on a short text.
const GROWTH = Object.freeze({
  name: 'boundary-growth',
  text: 'to be or not to be, that is the question; whether tis nobler in the mind to suffer '.repeat(
    40,
  ),
  d: 8,
  context: 96,
  batch: 2,
  repeated: 1,
  random: 1,
  shortest: 16,
  longest: 64,
  learningRate: 0.01,
  warmup: 0,
  laterStep: -1,
  laterRandom: 0,
  seed: 0,
  shares: 1,
});
const growing = (module) => {
  module.growthStop({ name: GROWTH.name });
  const started = module.growthStart(GROWTH);
  assert.equal(started.error, undefined, started.error?.message);
};
const GROWTH_ROWS = {
  growthStart: { request: { ...GROWTH, shares: 0 }, field: 'shares' },
  growthSteps: {
    before: growing,
    request: { name: GROWTH.name, count: 0, measure: false },
    field: 'count',
  },
  growthShare: {
    before: growing,
    request: { name: GROWTH.name, first: 0, count: 0 },
    field: 'count',
  },
  growthApply: {
    before: growing,
    request: { name: GROWTH.name, blocks: 'one', measure: false },
    field: 'blocks',
  },
  growthMap: {
    before: growing,
    request: { name: GROWTH.name, text: 'to be', layer: 3, detail: 'all', guesses: 0 },
    field: 'layer',
  },
  growthStop: { request: { name: 42 }, field: 'name' },
};

// The learning section's module (cpp/wasm/learning_bindings.cpp).
const LEARNING_ROWS = {
  attentionBackward: {
    request: { ...HEAD, gradOutput: new Float32Array(1) },
    field: 'gradOutput',
  },
  trainingStart: { request: { ...TRAINING, optimizer: 'adamw' }, field: 'optimizer' },
  trainingSteps: { request: { name: 'nobody', count: 1, measure: true }, field: 'name' },
  trainingSample: { request: { name: 42, length: 10, seed: 0 }, field: 'name' },
  trainingStop: { request: { name: null }, field: 'name' },
  ...GROWTH_ROWS,
  heapInUse: TAKES_NOTHING,
};

const MODULES = [
  ['attention-core.js', CORE_ROWS],
  ['attention-learning.js', LEARNING_ROWS],
];

// The functions embind exported: embind gives each its argument count (argCount), which none
// of the Emscripten runtime's own functions on the module has.
function embindExports(module) {
  return Object.keys(module)
    .filter(
      (name) => typeof module[name] === 'function' && typeof module[name].argCount === 'number',
    )
    .sort();
}

for (const [file, rows] of MODULES) {
  const module = await require(`../../build/wasm/${file}`)();

  test(`${file}: every export has a row, and each takes one request object or nothing`, () => {
    const exported = embindExports(module);
    assert.deepEqual(
      exported,
      Object.keys(rows).sort(),
      'exports without a row, or rows without an export',
    );
    for (const name of exported)
      assert.equal(
        module[name].argCount,
        rows[name] === TAKES_NOTHING ? 0 : 1,
        `${name}'s arguments`,
      );
  });

  test(`${file}: a request with one bad field is refused with { error: { message, field } }`, () => {
    for (const [name, row] of Object.entries(rows)) {
      if (row === TAKES_NOTHING) continue;
      row.before?.(module);
      const { error } = module[name](row.request);
      assert.equal(typeof error?.message, 'string', `${name} refuses its bad ${row.field}`);
      assert.ok(error.message.length > 0, `${name} says why`);
      assert.equal(error.field, row.field, `${name}: ${error.message}`);
    }
  });

  test(`${file}: an export called with no request object says it takes one`, () => {
    for (const [name, row] of Object.entries(rows)) {
      if (row === TAKES_NOTHING) continue;
      for (const bad of [undefined, null, 42, 'text', [1, 2]]) {
        const { error } = module[name](bad);
        assert.match(error?.message ?? '', /takes one request object/, `${name}(${bad})`);
      }
    }
  });
}
