// The soak: 2000 random valid and invalid changes to the map's controls (text, tokens, d, seed,
// scale, mask, vectors, recipe, positions) at full speed in Chromium, with the compute worker
// taking the large maps. Every so often the page is left to settle and checked against an
// independent computation: the map it draws must be the map of the state its link names (the
// wasm core in Node, from the link alone), and when no control shows a message that state must
// be the latest one the controls asked for, so no stale figure survives. At the end the
// default state is set through the controls: the figure equals PyTorch's fixture, the core's
// allocated bytes (page and worker) are back where they started, and nothing was logged.
// A second test kills the worker mid-computation: the page says so, restarts it, and recovers.
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCores } from './cores.mjs';
import { createChecks, parseHash } from '../src/state.js';
import { useChromium, watchProblems } from './chromium.mjs';
import { applyInPage, generator, randomChange, randomText } from './random-changes.mjs';
import { poll } from './waits.mjs';

const chromium = useChromium();
const { core } = await loadCores();
const checks = createChecks(core.limits);
const fixture = JSON.parse(
  readFileSync(new URL('../../tests/fixtures/attention_map.json', import.meta.url), 'utf8'),
);

const CHANGES = 2000;
const SETTLE_EVERY = 100;
const SEED = Number(process.env.SOAK_SEED ?? 2026);
// The allocator's bytes in use may differ by bookkeeping between two idle moments; a leak of
// even one map's result (T² floats) would be far above this.
const HEAP_BOUND_BYTES = 64 * 1024;

async function openPage(hash = '') {
  const page = await chromium.newPage({ viewport: { width: 1280, height: 900 } });
  const problems = await watchProblems(page);
  await page.goto(chromium.url(hash));
  await poll(() => page.$('#map-table table'), { message: 'the map never drew its numbers table' });
  await poll(() => page.evaluate(() => document.documentElement.dataset.compute === 'worker'), {
    message: 'the compute worker never started',
  });
  return { page, problems };
}

// What the page shows once nothing is computing and the link has stopped changing.
async function settled(page, why) {
  let last = '';
  return poll(
    async () => {
      const view = await page.evaluate(() => {
        const rows = [...document.querySelectorAll('#map-table tbody tr')];
        const header = [...document.querySelectorAll('#map-table thead th')];
        const messages = [...document.querySelectorAll('.attention-map .message')]
          .map((m) => m.textContent)
          .filter(Boolean);
        const value = (id) => document.querySelector(`#map-${id}`).value;
        return {
          busy: !document.querySelector('[data-role="computing"]').hidden,
          hash: location.hash,
          messages,
          controls: {
            text: value('text'),
            tokens: value('tokens'),
            d: value('d'),
            seed: value('seed'),
            scale: value('scale'),
            vectors: value('vectors'),
            init: value('init'),
            pos: value('pos'),
            causal: document.querySelector('#map-causal').checked,
          },
          tokens: header.slice(1, 1 + rows.length).map((th) => th.textContent),
          weights: rows.map((row) =>
            [...row.querySelectorAll('td')]
              .slice(0, rows.length)
              .map((td) => Number(td.textContent)),
          ),
        };
      });
      const key = JSON.stringify(view);
      const still = !view.busy && key === last;
      last = key;
      return still && view;
    },
    { timeout: 60_000, message: `the page did not settle (${why})` },
  );
}

// The map the page shows is the map of the state its link names, computed here from the link.
function assertMapMatchesLink(view, why) {
  const { state } = parseHash(view.hash, checks);
  const result = core.attentionMap({ ...state, detail: 'weights' });
  const shown = view.weights.length;
  assert.equal(shown, Math.min(result.T, 24), `${why}: rows in the numbers table`);
  for (let i = 0; i < shown; i++) {
    for (let j = 0; j < shown; j++) {
      const difference = Math.abs(view.weights[i][j] - result.weights[i * result.T + j]);
      assert.ok(
        difference <= 5e-4,
        `${why}: weight ${i},${j} is not the link's map (${view.hash.slice(0, 120)})`,
      );
    }
  }
  return state;
}

// With no message beside any control, the state shown is the one the controls ask for.
// Returns whether it could check (a message means the last good figure is kept on purpose).
function assertLatest(view, state, why) {
  if (view.messages.length > 0) return false;
  const { controls } = view;
  const asked = {
    text: state.text,
    tokens: state.tokens,
    d: String(state.d),
    seed: String(state.seed),
    scale: state.scale.mode,
    vectors: state.vectors,
    // The trained head's resting controls show what it uses, not the kept recipe.
    init: state.vectors === 'trained' ? 'trained' : state.init,
    pos: state.vectors === 'trained' ? 'learned' : state.pos,
    causal: state.causal,
  };
  assert.deepEqual(controls, asked, `${why}: the figure is not the latest request`);
  return true;
}

test('2000 random changes at full speed, then the default state: fixture map, no leak, no error', async () => {
  const { page, problems } = await openPage();
  // The trained head stays loaded in the page's core once used, and the worker declares its
  // heap after its first map: both happen before the baseline.
  await page.evaluate(applyInPage, [
    { selector: '#map-vectors', kind: 'select', value: 'trained' },
  ]);
  await settled(page, 'after loading the trained head');
  await page.evaluate(applyInPage, [
    { selector: '#map-vectors', kind: 'select', value: 'position' },
  ]);
  await settled(page, 'the d control no longer rests');
  await page.evaluate(applyInPage, [{ selector: '#map-d', kind: 'fill', value: '256' }]);
  await poll(() => page.evaluate(() => 'workerHeapInUse' in document.documentElement.dataset), {
    message: 'the worker never declared its heap',
  });
  await page.evaluate(applyInPage, [
    { selector: '#map-d', kind: 'fill', value: '24' },
    { selector: '#map-init', kind: 'select', value: 'tutorial' },
  ]);
  await settled(page, 'back to the default state');
  const heapBefore = await page.evaluate(() => ({ ...document.documentElement.dataset }));

  const random = generator(SEED);
  let done = 0;
  let latestChecked = 0;
  while (done < CHANGES) {
    const batch = Array.from({ length: 1 + Math.floor(random() * 8) }, () => randomChange(random));
    await page.evaluate(applyInPage, batch);
    done += batch.length;
    const pause = random();
    if (pause < 0.3) await page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
    else if (pause < 0.4) await page.waitForTimeout(Math.floor(random() * 40));
    if (Math.floor(done / SETTLE_EVERY) !== Math.floor((done - batch.length) / SETTLE_EVERY)) {
      const why = `seed ${SEED}, after ${done} changes`;
      const view = await settled(page, why);
      if (assertLatest(view, assertMapMatchesLink(view, why), why)) latestChecked += 1;
    }
  }
  // Most settle points have no message: the stale check must really have run.
  assert.ok(latestChecked >= 5, `only ${latestChecked} settle points could check the latest state`);

  // The default state, as a learner would set it back.
  await page.evaluate(applyInPage, [
    { selector: '#map-vectors', kind: 'select', value: 'position' },
  ]);
  await settled(page, 'the trained head is off');
  await page.evaluate(applyInPage, [
    { selector: '#map-text', kind: 'fill', value: 'To be, or not' },
    { selector: '#map-tokens', kind: 'select', value: 'chars' },
    { selector: '#map-d', kind: 'fill', value: '24' },
    { selector: '#map-seed', kind: 'fill', value: '1' },
    { selector: '#map-scale', kind: 'select', value: 'sqrt' },
    { selector: '#map-pos', kind: 'select', value: 'none' },
    { selector: '#map-init', kind: 'select', value: 'tutorial' },
  ]);
  if (!(await page.isChecked('#map-causal'))) await page.click('#map-causal');
  const view = await settled(page, 'the default state');
  assert.deepEqual(view.messages, []);
  const tutorial = fixture.cases.find(
    (c) =>
      c.text === 'To be, or not' &&
      c.seed === 1 &&
      c.d === 24 &&
      c.causal &&
      c.init === 'tutorial' &&
      c.pos === 'none',
  );
  assert.deepEqual(
    view.tokens.map((t) => t.replace('␣', ' ')),
    [...'To be, or not'],
  );
  for (const [i, row] of view.weights.entries()) {
    for (const [j, w] of row.entries()) {
      const torch = tutorial.weights[i * 13 + j];
      assert.ok(Math.abs(w - torch) <= 5e-4, `default map, weight ${i},${j}: ${w} vs ${torch}`);
    }
  }

  const heapAfter = await page.evaluate(() => ({ ...document.documentElement.dataset }));
  for (const key of ['heapInUse', 'workerHeapInUse']) {
    const grew = Number(heapAfter[key]) - Number(heapBefore[key]);
    assert.ok(
      Number.isFinite(grew),
      `${key} was not declared (${heapBefore[key]}, ${heapAfter[key]})`,
    );
    assert.ok(grew <= HEAP_BOUND_BYTES, `${key} grew by ${grew} bytes over the soak`);
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test('a worker that dies mid-computation is restarted with a message, and the figure recovers', async () => {
  const { page, problems } = await openPage('#d=512');
  const [worker] = page.workers();
  assert.ok(worker, 'the page has a compute worker');
  // A large map is on its way when the worker fails with an error nobody catches.
  await page.fill('#map-text', randomText(generator(1), 900));
  await worker.evaluate(() =>
    setTimeout(() => {
      throw new Error('a test killed this worker');
    }),
  );
  await poll(async () => /stopped .*and was restarted/.test(await page.textContent('#banner')), {
    message: 'no message said the background computation stopped and restarted',
  });
  const view = await settled(page, 'after the restart');
  assertLatest(view, assertMapMatchesLink(view, 'after the restart'), 'after the restart');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.compute), 'worker');
  assert.deepEqual(
    problems.filter((p) => !/a test killed this worker/.test(p)),
    [],
  );
  await page.close();
});
