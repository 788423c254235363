// The reading aids, in Chromium: every glossary definition opens inside the viewport, and a
// "Show me" button puts the map in its state and gives a reader's own settings back. (The first
// screen itself: first-screen.test.mjs.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useChromium, watchProblems } from './chromium.mjs';

const chromium = useChromium();

async function open(viewport) {
  const page = await chromium.newPage({ viewport });
  const problems = await watchProblems(page);
  await page.goto(chromium.url());
  await page.waitForSelector('#map-table table', { timeout: 30000 });
  return { page, problems };
}

for (const width of [320, 390, 1280]) {
  test(`every glossary definition opens inside the viewport at ${width} px`, async () => {
    const { page, problems } = await open({ width, height: 800 });
    const outside = await page.evaluate(async () => {
      const misses = [];
      for (const button of document.querySelectorAll('button.term')) {
        if (!button.getClientRects().length) continue; // inside a closed block or a hidden figure
        button.scrollIntoView({ block: 'center' });
        // Sections near the screen lay out late (content-visibility): let the page settle.
        for (let frame = 0; frame < 3; frame++) await new Promise(requestAnimationFrame);
        button.scrollIntoView({ block: 'center' });
        button.focus();
        const definition = document.getElementById(button.getAttribute('aria-describedby'));
        const box = definition.getBoundingClientRect();
        if (box.left < 0 || box.right > innerWidth || box.top < 0 || box.bottom > innerHeight)
          misses.push(`${button.textContent}: ${JSON.stringify(box.toJSON())}`);
        button.blur();
      }
      return misses;
    });
    assert.deepEqual(outside, []);
    assert.deepEqual(problems, []);
    await page.close();
  });
}

test('a Show me button sets the map and offers the reader’s own settings back', async () => {
  const { page, problems } = await open({ width: 1280, height: 800 });
  await page.fill('#map-text', 'my own words');
  await page.waitForFunction(() => location.hash.includes('my%20own%20words'));
  const button = page.locator('button.show-me[data-show*="token"]');
  await button.click();
  await page.waitForFunction(() => document.querySelector('#map-vectors').value === 'token');
  assert.equal(await button.textContent(), 'Shown. Back to your settings');
  await button.click();
  await page.waitForFunction(() => document.querySelector('#map-text').value === 'my own words');
  assert.equal(await page.inputValue('#map-vectors'), 'position');
  assert.deepEqual(problems, []);
  await page.close();
});
