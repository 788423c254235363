// The page offline after a first visit, and a new deploy, in Chromium. A copy of the built page
// (dist/) is served from localhost (a secure context, as https is); the reader visits once, the
// network is cut, and the page is opened again: every figure starts, the proof runs (its
// torch-outputs.js), section 6 trains (learning.js), from the service worker's cache alone. Then
// a new version is deployed at the same address: the visit after the browser found it is all of
// the new version, and no visit ever mixes files of the two. Each copy stamps its own version
// into every file the page loads (a <meta> in each page, a line in each script), so a page that
// loaded files of two versions says so.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { serve } from '../../scripts/serve.mjs';
import { SERVICE_WORKER, writeServiceWorker } from '../../scripts/service-worker.mjs';
import { evaluateWithin, mountEveryFigure, useChromium, watchProblems } from './chromium.mjs';
import { poll } from './waits.mjs';

const chromium = useChromium();
const dist = new URL('../../dist/', import.meta.url).pathname;
const host = mkdtempSync(join(tmpdir(), 'offline-host-'));
let server;
let address;

before(async () => {
  server = await serve(host, 0);
  address = `http://127.0.0.1:${server.address().port}/`;
});
after(() => {
  server?.close();
  rmSync(host, { recursive: true, force: true });
});

// Puts dist/ at the host's address as version `stamp`, with the service worker for it, as a
// deploy would: the old files go, the new ones come.
function deploy(stamp) {
  for (const file of readdirSync(host)) rmSync(join(host, file));
  cpSync(dist, host, { recursive: true });
  for (const file of readdirSync(host)) {
    const path = join(host, file);
    if (file.endsWith('.html'))
      writeFileSync(
        path,
        readFileSync(path, 'utf8').replace(
          '</head>',
          `<meta name="test-version" content="${stamp}">\n</head>`,
        ),
      );
    else if (file.endsWith('.js') && file !== SERVICE_WORKER)
      writeFileSync(
        path,
        `${readFileSync(path, 'utf8')}\n(globalThis.testVersions ??= []).push(${JSON.stringify(`${stamp} ${file}`)});\n`,
      );
  }
  return writeServiceWorker(host).version;
}

// Every version a page's files said it was: its own and each script's that has run.
function versionsSeen(page) {
  return page.evaluate(() => {
    const own = document.querySelector('meta[name="test-version"]').content;
    const scripts = (globalThis.testVersions ?? []).map((entry) => entry.split(' ')[0]);
    return [...new Set([own, ...scripts])];
  });
}

// Opens the page, waits until its service worker is active and controls it; its versions.
async function visit(context) {
  const page = await context.newPage();
  const problems = await watchProblems(page);
  await page.goto(`${address}index.html`);
  await page.waitForSelector('#map-table table');
  await evaluateWithin(page, 'the service worker to be ready', () =>
    navigator.serviceWorker.ready.then(() => true),
  );
  return { page, problems };
}

// In the page: looks for a new service worker now and resolves with how its install ended:
// 'installed' (it waits for the pages open on the old one to close) or 'redundant' (it failed).
async function updated() {
  const registration = await navigator.serviceWorker.getRegistration();
  await registration.update();
  const worker = registration.installing;
  if (!worker) return registration.waiting ? 'installed' : 'no new version';
  return new Promise((resolve) => {
    worker.addEventListener('statechange', () => {
      if (worker.state === 'installed' || worker.state === 'redundant') resolve(worker.state);
    });
  });
}

// Waits until the browser has handed the page to the new version: it activates the waiting
// worker once no page is open on the old one, and a closed page reaches the browser's own
// process a moment after close() returns. A reader's next visit comes later than that; a visit
// made at once could still be the old version's (seen once in a clean clone's run).
function newVersionTakesOver(context) {
  const tookOver = () =>
    self.registration.waiting === null && self.registration.active?.state === 'activated';
  return poll(
    async () => {
      for (const worker of context.serviceWorkers())
        if (await worker.evaluate(tookOver).catch(() => false)) return true;
      return false;
    },
    { message: 'the new version never took over once the old page closed' },
  );
}

// The later sections' code, the proof (torch-outputs.js) and section 6's first steps
// (learning.js and its workers): what a first visit that stayed at the top never loaded.
async function everyFigureWorks(page) {
  await mountEveryFigure(page);
  assert.deepEqual(await page.$$('.figure-waiting'), [], 'every figure mounted');
  await page.evaluate(() => document.querySelector('#proof').scrollIntoView());
  await poll(
    async () =>
      /causal=True +max\|mine - torch\| = \S+ +OK/.test(await page.textContent('.proof-lines')),
    { message: 'the proof never printed OK' },
  );
  const train = page.locator('#training .training__buttons button').first();
  await train.scrollIntoViewIfNeeded();
  await train.click();
  await poll(
    async () => /^Step [1-9]\d* of/.test(await page.textContent('#training .training__status')),
    { timeout: 60_000, message: 'section 6 never trained a step' },
  );
}

test('after one visit the page works offline; a new deploy comes whole at the next visit', async () => {
  const first = deploy('A');
  const context = await chromium.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    // The first visit, online: the service worker installs version A.
    const online = await visit(context);
    assert.deepEqual(await versionsSeen(online.page), ['A']);
    await online.page.close();

    // No network: every figure still works, from the cache.
    await context.setOffline(true);
    const offline = await visit(context);
    assert.ok(
      await offline.page.evaluate(() => navigator.serviceWorker.controller !== null),
      'the service worker serves the page',
    );
    await everyFigureWorks(offline.page);
    assert.deepEqual(await versionsSeen(offline.page), ['A']);
    assert.deepEqual(offline.problems, []);
    await offline.page.close();

    // A deploy caught halfway (B's sw.js, one file still A's): B does not install.
    await context.setOffline(false);
    const stale = readFileSync(join(host, 'later-figures.js'));
    deploy('B');
    writeFileSync(join(host, 'later-figures.js'), stale);
    const halfway = await visit(context);
    assert.equal(await evaluateWithin(halfway.page, 'an update to settle', updated), 'redundant');
    assert.deepEqual(await versionsSeen(halfway.page), ['A']);
    await halfway.page.close();

    // The whole deploy. The next visit is still all A (its worker serves it) and finds B,
    // which installs beside it; the visit after that is all B, and A's cache is gone.
    const second = deploy('B');
    assert.notEqual(second, first, 'the new deploy has a version of its own');
    const finding = await visit(context);
    await poll(
      () =>
        finding.page.evaluate(() =>
          navigator.serviceWorker.getRegistration().then((registration) => !!registration.waiting),
        ),
      { message: 'the browser never installed the new version' },
    );
    await mountEveryFigure(finding.page);
    assert.deepEqual(await versionsSeen(finding.page), ['A'], 'a page open on A stays A');
    await finding.page.close();
    await newVersionTakesOver(context);

    const next = await visit(context);
    await everyFigureWorks(next.page);
    assert.deepEqual(await versionsSeen(next.page), ['B']);
    const caches = await next.page.evaluate(() => caches.keys());
    assert.deepEqual(caches, [`attention-head-${second}`], 'only the new version is kept');
    assert.deepEqual([...finding.problems, ...next.problems], []);
    await next.page.close();
  } finally {
    await context.close();
  }
});

// Records each call of navigator.serviceWorker.register, where the browser has one.
function spyOnRegister() {
  window.registered = [];
  const container = navigator.serviceWorker;
  if (!container) return;
  const register = container.register.bind(container);
  container.register = (...args) => {
    window.registered.push(String(args[0]));
    return register(...args);
  };
}

test('only the full page over http registers it: not from disk, not the embedded view', async () => {
  const registered = async (url) => {
    const page = await chromium.newPage();
    const problems = await watchProblems(page);
    await page.addInitScript(spyOnRegister);
    await page.goto(url);
    // main.js says on <html data-offline> what it did, once every figure has started.
    const offline = await poll(
      () => page.evaluate(() => document.documentElement.dataset.offline),
      { message: 'the page never said whether it registered its service worker' },
    );
    const calls = await page.evaluate(() => window.registered);
    await page.close();
    assert.deepEqual(problems, [], url);
    return { offline, calls };
  };
  assert.deepEqual(await registered(chromium.url()), { offline: 'registered', calls: ['sw.js'] });
  assert.deepEqual(await registered(`file://${dist}index.html`), {
    offline: 'none: not served over http(s)',
    calls: [],
  });
  const embed = chromium.url().replace('index.html', 'embed.html?figure=map');
  assert.deepEqual(await registered(embed), { offline: 'none: the embedded view', calls: [] });
});
