// The first screen in Chromium: a trained head reads the reader's own words. Its map (each
// row's peak, on the canvas's data-peaks) is held to a float64 forward pass of the saved model
// written from its definition (reference/copying-head-float64.mjs); one changed character of a
// long text changes it; a phrase said twice points into its first copy; the switch shows the
// tutorial's untrained head, which ignores the letters; and what the reader typed survives
// in-page links and a reload.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { useChromium, watchProblems } from './chromium.mjs';
import { copyingHeadFloat64 } from './reference/copying-head-float64.mjs';

const chromium = useChromium();
const saved = JSON.parse(
  readFileSync(new URL('../assets/copying-head.json', import.meta.url), 'utf8'),
);
const WAIT = { timeout: 20000 };

async function open(hash = '', viewport = { width: 1280, height: 800 }) {
  const page = await chromium.newPage({ viewport });
  const problems = await watchProblems(page);
  await page.goto(chromium.url(hash));
  await page.waitForSelector('.hero-map[data-peaks]', WAIT);
  return { page, problems };
}

const peaksOf = async (page) =>
  (await page.getAttribute('.hero-map', 'data-peaks')).split(',').map(Number);

// Types `words` into the first screen's box and waits until its map is of them.
async function type(page, words) {
  const before = await page.getAttribute('.hero-map', 'data-peaks');
  await page.fill('#hero-text', words);
  await page.waitForFunction(
    ([previous, count]) => {
      const peaks = document.querySelector('.hero-map').dataset.peaks;
      return peaks !== previous && peaks.split(',').length === count;
    },
    [before, [...words].length],
    WAIT,
  );
}

// Each row's largest weight in layer 2 of the float64 forward pass.
function float64Peaks(words) {
  return copyingHeadFloat64(saved, words).weights[1].map((row) => row.indexOf(Math.max(...row)));
}

describe('the first screen reads the reader’s words', () => {
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    test(`its map, sentence and guess are there at ${viewport.width}x${viewport.height}`, async () => {
      const { page, problems } = await open('', viewport);
      const box = await page.$eval('.hero-scroller', (element) =>
        element.getBoundingClientRect().toJSON(),
      );
      assert.equal(await page.evaluate(() => window.scrollY), 0);
      assert.ok(box.left >= 0 && box.right <= viewport.width, JSON.stringify(box));
      assert.ok(box.top < viewport.height, `the map starts in the first view: ${box.top}`);
      const words = await page.inputValue('#hero-text');
      assert.deepEqual(await peaksOf(page), float64Peaks(words));
      // The letter the last row looks at most, and the likeliest next letter, by float64: the
      // default words are a phrase said twice and cut short, so both come from the first copy.
      const reference = copyingHeadFloat64(saved, words);
      const chars = [...words];
      const peak = float64Peaks(words).at(-1);
      assert.equal(
        chars[peak - 1],
        chars.at(-1),
        'the last letter looks just after its earlier copy',
      );
      const likeliest = saved.vocabulary[reference.next.indexOf(Math.max(...reference.next))];
      assert.equal(likeliest, chars[peak], 'and the model guesses the letter found there');
      assert.ok(
        (await page.textContent('.hero-line')).startsWith(
          `The last letter, “${chars.at(-1)}”, looks back at “${chars[peak]}”`,
        ),
      );
      assert.ok(
        (await page.textContent('.hero-guesses')).startsWith(
          `Its guess for the next letter: “${likeliest}” `,
        ),
      );
      assert.deepEqual(problems, []);
      await page.close();
    });
  }

  test('one changed character of a long text changes the map, which still equals float64', async () => {
    const { page, problems } = await open();
    const long =
      'Now is the winter of our discontent made glorious summer by this sun of York; and all the clouds';
    assert.ok([...long].length >= 80);
    await type(page, long);
    const first = await peaksOf(page);
    assert.deepEqual(first, float64Peaks(long));
    const changed = long.replace('winter', 'wonter');
    await type(page, changed);
    assert.deepEqual(await peaksOf(page), float64Peaks(changed));
    assert.notDeepEqual(await peaksOf(page), first);
    assert.equal(await page.textContent('#hero-text-message'), '');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('a phrase said twice: the second copy points just after the first copy', async () => {
    const { page, problems } = await open();
    const phrase = 'my green kite flew away. ';
    await type(page, phrase + phrase);
    const peaks = await peaksOf(page);
    const P = phrase.length;
    let into = 0;
    for (let i = P + 1; i < 2 * P; i++) into += peaks[i] === i - P + 1 ? 1 : 0;
    assert.ok(into / (P - 1) >= 0.6, `${into} of ${P - 1} second-copy rows point into the copy`);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('the switch shows the untrained head, which ignores which letters they are', async () => {
    const { page, problems } = await open();
    await page.check('#hero-untrained');
    await page.waitForFunction(() => location.hash.includes('head=tutorial'), null, WAIT);
    assert.match(await page.textContent('.hero-line'), /untrained/);
    assert.equal(await page.isVisible('.hero-guesses'), false);
    const before = await peaksOf(page);
    const words = await page.inputValue('#hero-text');
    const changed = `Q${words.slice(1)}`;
    await page.fill('#hero-text', changed);
    await page.waitForFunction(
      (link) => location.hash.includes(link),
      `words=${encodeURIComponent(changed)}`,
      WAIT,
    );
    assert.deepEqual(await peaksOf(page), before, 'same length, same untrained map');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('a character the head never met gets a message beside the box; the last map stays', async () => {
    const { page, problems } = await open();
    const before = await peaksOf(page);
    await page.fill('#hero-text', 'café café');
    await page.waitForFunction(
      () => /is not one of the/.test(document.querySelector('#hero-text-message').textContent),
      null,
      WAIT,
    );
    assert.match(await page.textContent('#hero-text-message'), /character "é" at position 4/);
    assert.deepEqual(await peaksOf(page), before);
    assert.deepEqual(problems, []);
    await page.close();
  });
});

describe('nothing the reader typed is lost', () => {
  test('in-page links and a reload keep the words; old links open the map’s text', async () => {
    const { page, problems } = await open();
    const words = 'we will meet at noon, we will meet at no';
    await type(page, words);
    await page.waitForFunction(() => location.hash.includes('words=we%20will'), null, WAIT);
    const link = new URL(page.url()).hash;
    await page.click('.hero-more a');
    assert.equal(new URL(page.url()).hash, link, '“See how it works” left the link alone');
    await page.waitForFunction(() => document.activeElement?.id === 'big-idea', null, WAIT);
    await page.focus('a.skip-link');
    await page.keyboard.press('Enter');
    assert.equal(new URL(page.url()).hash, link, 'the skip link left the link alone');
    await page.reload();
    await page.waitForSelector('.hero-map[data-peaks]', WAIT);
    assert.equal(await page.inputValue('#hero-text'), words);
    assert.deepEqual(await peaksOf(page), float64Peaks(words));
    await page.goto(chromium.url('#text=the%20cat%20saw%20the%20cat&d=24'));
    await page.waitForSelector('.hero-map[data-peaks]', WAIT);
    assert.equal(await page.inputValue('#hero-text'), 'the cat saw the cat');
    assert.equal(await page.inputValue('#map-text'), 'the cat saw the cat');
    assert.deepEqual(problems, []);
    await page.close();
  });
});
