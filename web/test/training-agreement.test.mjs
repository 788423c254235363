// `npm run train` (the native attention-train) and the page's trainer (the wasm core's
// trainingStart/trainingSteps) agree for the same seed: held-out loss after 3 steps and the
// first step's gradient norms, at d = 16 for the three scales and the model without its head, on
// the whole corpus, measured on the page's 32 held-out windows.
// Compared to a relative 1e-5, not bit for bit: the CSV prints 6 significant digits, and the
// native build compiles the model with -march=native (fused multiply-adds) where wasm rounds
// each product, so the last float32 bits may differ. Also: the page's trainer writes seeded
// samples and measures the held-out windows only when asked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadLearning } from './cores.mjs';

const root = new URL('../../', import.meta.url);
const core = await loadLearning();
const STEPS = 3;

function nativeRows() {
  const out = mkdtempSync(join(tmpdir(), 'attention-train-'));
  execFileSync(
    new URL('build/native/attention-train', root).pathname,
    [
      '--steps',
      String(STEPS),
      '--widths',
      '16',
      '--seeds',
      '0',
      '--lr',
      '0.01',
      '--configs',
      'sqrt,none,d,nohead',
      '--held-out-windows',
      '32',
      '--out',
      out,
      '--corpus',
      new URL('data/tinyshakespeare.txt', root).pathname,
    ],
    { stdio: 'ignore' },
  );
  const [header, ...lines] = readFileSync(join(out, 'learning.csv'), 'utf8').trim().split('\n');
  const names = header.split(',');
  return lines.map((line) =>
    Object.fromEntries(line.split(',').map((cell, i) => [names[i], cell])),
  );
}

const close = (mine, theirs, what) =>
  assert.ok(
    Math.abs(mine - theirs) <= 1e-5 * Math.abs(theirs),
    `${what}: page ${mine}, native ${theirs}`,
  );

test('the page trainer and npm run train give the same losses and gradients for the same seed', () => {
  const text = readFileSync(new URL('data/tinyshakespeare.txt', root), 'utf8');
  const rows = nativeRows();
  assert.equal(rows.length, 4);
  for (const row of rows) {
    const name = `agreement-${row.config}`;
    const headless = row.config === 'nohead';
    const start = core.trainingStart({
      name,
      text,
      d: 16,
      config: headless ? 'nohead' : 'head',
      scale: { mode: headless ? 'sqrt' : row.config },
      seed: 0,
    });
    close(start.heldOutLoss, Number(row.loss_start), `${row.config} start loss`);
    const after = core.trainingSteps({ name, count: STEPS });
    close(after.heldOutLoss, Number(row.loss_end), `${row.config} loss after ${STEPS} steps`);
    if (!headless) {
      close(
        after.queryGradientNorms[0],
        Number(row.query_gradient_norm_step1),
        `${row.config} |dWq|`,
      );
      close(after.keyGradientNorms[0], Number(row.key_gradient_norm_step1), `${row.config} |dWk|`);
    }
    core.trainingStop({ name });
  }
});

test('a learning rate that diverges ends the run with a message, never a NaN', () => {
  const text = readFileSync(new URL('data/tinyshakespeare.txt', root), 'utf8').slice(0, 20000);
  core.trainingStart({ name: 'wild', text, d: 16, learningRate: 1e6, optimizer: 'sgd' });
  assert.throws(() => {
    for (let i = 0; i < 20; i++) core.trainingSteps({ name: 'wild', count: 10 });
  }, /diverged at step \d+.*smaller learning rate/);
  assert.throws(
    () => core.trainingSteps({ name: 'wild', count: 1 }),
    /no training run is called "wild"/,
  );
});

test('a run writes a seeded sample in its own alphabet, and measures only when asked', () => {
  const text = readFileSync(new URL('data/tinyshakespeare.txt', root), 'utf8').slice(0, 20000);
  const start = core.trainingStart({ name: 'writer', text, d: 16 });
  const first = core.trainingSample({ name: 'writer' });
  assert.equal(first.step, 0);
  assert.equal([...first.text].length, 81, 'the first character and 80 more');
  assert.equal(first.text[0], text[0]);
  for (const character of first.text) assert.ok(start.vocabulary.includes(character), character);
  assert.equal(core.trainingSample({ name: 'writer' }).text, first.text, 'the same seed');
  assert.notEqual(core.trainingSample({ name: 'writer', seed: 1 }).text, first.text);
  const quiet = core.trainingSteps({ name: 'writer', count: 2, measure: false });
  assert.equal(quiet.step, 2);
  assert.equal(quiet.heldOutLoss, undefined);
  assert.equal(quiet.weights, undefined);
  const measured = core.trainingSteps({ name: 'writer', count: 1 });
  assert.equal(measured.step, 3);
  assert.ok(Number.isFinite(measured.heldOutLoss) && measured.heldOutLoss < start.heldOutLoss);
  assert.equal(measured.weights.length, start.weights.length);
  assert.throws(() => core.trainingSample({ name: 'writer', length: 401 }), /length/);
  core.trainingStop({ name: 'writer' });
});
