// Accessibility: axe-core on the built page in light and dark themes, at desktop and phone
// widths, with the "Show numbers" tables closed (the proof still waiting to run) and open (the
// proof's lines printed), zero violations allowed; and a keyboard-only walk that reaches and
// operates every control with a visible focus ring.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { mountEveryFigure, useChromium } from './chromium.mjs';
import { poll } from './waits.mjs';

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const chromium = useChromium();

async function openPage({ width, colorScheme }) {
  const page = await chromium.newPage({
    viewport: { width, height: 900 },
    colorScheme,
    reducedMotion: 'reduce',
  });
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(`CSP: ${event.violatedDirective}`),
    );
  });
  await page.goto(chromium.url());
  await page.waitForSelector('#map-table table', { timeout: 30000 });
  await mountEveryFigure(page);
  // Figures mount one per task after the core loads: axe must see every one of them drawn.
  await poll(
    () =>
      page.evaluate(() =>
        [...document.querySelectorAll('[data-figure]')].every((slot) =>
          [...slot.children].some((child) => !child.matches('.needs-script, figcaption')),
        ),
      ),
    { message: 'not every figure mounted' },
  );
  await poll(async () => /0\.11/.test(await page.textContent('[data-figure="scale"]')), {
    message: 'the scale chart never drew its tutorial study',
  });
  return { page, problems };
}

// page.evaluate runs through the DevTools protocol, so injecting axe is not blocked by the CSP.
async function axeViolations(page) {
  await page.evaluate(`${axeSource}\n;0`);
  const results = await page.evaluate(() =>
    window.axe.run(document, { resultTypes: ['violations'] }),
  );
  return results.violations.map(
    (v) =>
      `${v.id}: ${v.help} (${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 3)
        .join(', ')})`,
  );
}

for (const colorScheme of ['light', 'dark']) {
  for (const width of [1280, 360]) {
    test(`axe finds no violations: ${colorScheme} theme, ${width}px, numbers closed and open`, async () => {
      const { page, problems } = await openPage({ width, colorScheme });
      assert.deepEqual(await axeViolations(page), [], 'with the numbers tables closed');
      // The proof runs as its figure comes near: the second look sees its printed lines, the
      // first its sentence about waiting.
      await page.locator('[data-figure="proof"]').scrollIntoViewIfNeeded();
      await poll(async () => /causal=True/.test(await page.textContent('.proof-lines')), {
        message: 'the proof never printed its lines',
      });
      for (const toggle of await page.$$('button[aria-expanded="false"]')) {
        if ((await toggle.textContent()).includes('Show numbers')) await toggle.click();
      }
      assert.ok(await page.isVisible('#map-table table'), 'the map numbers table opened');
      assert.deepEqual(await axeViolations(page), [], 'with the numbers tables open');
      assert.deepEqual(problems, []);
      await page.close();
    });
  }
}

test('keyboard only: every control is reachable by Tab, visibly focused, and operable', async () => {
  const { page, problems } = await openPage({ width: 1280, colorScheme: 'light' });
  // Walk the whole tab order once, recording each stop and whether it shows a focus ring.
  const stops = [];
  for (let i = 0; i < 200; i++) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(() => {
      const element = document.activeElement;
      if (!element || element === document.body) return null;
      const style = getComputedStyle(element);
      const ring = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
      return {
        id: element.id,
        tag: element.tagName,
        text: (element.textContent || '').trim().slice(0, 40),
        ring,
      };
    });
    if (!stop) break;
    if (stops.length && JSON.stringify(stops[0]) === JSON.stringify(stop)) break;
    stops.push(stop);
  }
  const ids = stops.map((stop) => stop.id);
  for (const id of [
    'map-text',
    'map-tokens',
    'map-d',
    'map-seed',
    'map-scale',
    'map-vectors',
    'map-causal',
    'map-pos',
    'theme-toggle',
  ]) {
    assert.ok(ids.includes(id), `#${id} is not reachable by Tab`);
  }
  const texts = stops.map((stop) => stop.text).join(' | ');
  for (const label of [
    'Remove the causal mask',
    'The same token at two positions',
    'No scaling at d = 512',
    'Show numbers',
    'Run the check again',
  ]) {
    assert.ok(texts.includes(label), `"${label}" is not reachable by Tab`);
  }
  const unringed = stops.filter((stop) => !stop.ring);
  assert.deepEqual(unringed, [], 'every focused element shows a focus ring');

  // Operate controls with the keyboard alone.
  await page.focus('#map-causal');
  await page.keyboard.press('Space');
  await poll(() => page.evaluate(() => /causal=0/.test(location.hash)), {
    message: 'Space on the causal checkbox did not turn the mask off',
  });
  await page.focus('.map-canvas');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  assert.match(await page.textContent('[data-role="inspector"]'), /row 2\) → key .* \(column 2\)/);
  const experiment = page.locator('button', { hasText: 'No scaling at d = 512' });
  await experiment.focus();
  await page.keyboard.press('Enter');
  await poll(
    () => page.evaluate(() => /d=512/.test(location.hash) && /scale=none/.test(location.hash)),
    { message: 'Enter on the "No scaling at d = 512" experiment did not run it' },
  );
  assert.deepEqual(problems, []);
  await page.close();
});
