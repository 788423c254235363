// Printing the page: Chromium prints the built page to PDF (page.pdf(), print media) without
// the reader scrolling first, and the PDF, read back by PDF.js, must hold every section's
// heading, each from a page of its own, every figure (each canvas as the picture the screen
// showed, the map's with the same pixels; the figures without a canvas by their words), the
// folded blocks open, the experiments as a list of what each shows, no control, and at its
// end the link of the state printed, which opens the same figures. Ctrl+P starts every figure
// first (print.js); a print from the browser's menu at once says which figures had not
// started, and starts them for the next print.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { useChromium, watchProblems } from './chromium.mjs';
import { poll } from './waits.mjs';

const chromium = useChromium();
// The map and three figures' own parts, none at its first view (the √d chart's averaged study
// waits to be seen on screen; printing must start it).
const STATE =
  '#room-sharpness=6.31&study-data=averaged&study-measure=entropy&study-draws=4&train-d=16&train-steps=120&text=Print%20me%2C%20please&d=16&seed=5';
const squash = (text) => text.replace(/\s+/g, '');

// Per page of the PDF: its text (whitespace dropped) and its images ({ width, height, data }).
async function readPdf(bytes) {
  const pdf = await getDocument({ data: new Uint8Array(bytes), isOffscreenCanvasSupported: false })
    .promise;
  const pages = [];
  for (let number = 1; number <= pdf.numPages; number += 1) {
    const page = await pdf.getPage(number);
    const { items } = await page.getTextContent();
    const operators = await page.getOperatorList();
    const names = operators.fnArray
      .map((fn, index) => fn === OPS.paintImageXObject && operators.argsArray[index][0])
      .filter(Boolean);
    const store = (name) => (name.startsWith('g_') ? page.commonObjs : page.objs);
    const images = await Promise.all(
      names.map((name) => new Promise((resolve) => store(name).get(name, resolve))),
    );
    pages.push({ text: squash(items.map((item) => item.str).join('')), images });
  }
  return pages;
}

// The pixel (r, g, b) at x, y of a PDF.js image (RGB or RGBA).
function pixelOf(image, x, y) {
  const channels = image.data.length / (image.width * image.height);
  const at = (y * image.width + x) * channels;
  return [...image.data.slice(at, at + 3)];
}

// What the screen shows before printing: the headings, the map's bitmap at a grid of points,
// and the words on every button a reader can see (the Embed disclosures' included).
function screenFacts() {
  const canvas = document.querySelector('[data-figure="map"] canvas');
  const context = canvas.getContext('2d');
  const samples = [];
  for (let i = 1; i < 8; i += 1) {
    for (let j = 1; j < 8; j += 1) {
      const x = Math.floor((canvas.width * i) / 8);
      const y = Math.floor((canvas.height * j) / 8);
      samples.push({ x, y, rgb: [...context.getImageData(x, y, 1, 1).data.slice(0, 3)] });
    }
  }
  // A folded block's summary prints as its title: not a control on paper.
  // The four lines' tabs print as its code.
  const controls = [
    ...document.querySelectorAll(
      'button:not(.term):not([role="tab"]), summary:not(.more > summary)',
    ),
  ]
    .filter((element) => element.getClientRects().length > 0)
    .map((element) => element.textContent.trim())
    .filter((text) => text.length > 3);
  const text = (selector) => document.querySelector(selector)?.textContent.trim() ?? '';
  return {
    headings: [...document.querySelectorAll('h1, h2')].map((h) => h.textContent),
    map: { width: canvas.width, height: canvas.height, samples },
    controls: [...new Set(controls)],
    // Every canvas drawn and shown, by its figure, and what the figures without one say.
    canvases: [...document.querySelectorAll('[data-figure] canvas')]
      .filter((c) => c.width && c.height && c.getClientRects().length > 0)
      .map((c) => ({
        figure: c.closest('[data-figure]').dataset.figure,
        width: c.width,
        height: c.height,
      })),
    words: {
      'name-tags': [text('.nt-sum'), text('.nt-readout').split('\n')[1]],
      scale: [text('.scale-chart__headline')],
      training: [text('.training__printed')],
      proof: [text('.proof-lines')],
      experiments: [...document.querySelectorAll('.experiments-print li')].map(
        (li) => li.textContent,
      ),
      'four-lines': [...document.querySelectorAll('.fl-statement, .fl-input')].map((e) =>
        e.textContent.trim(),
      ),
    },
    folded: [...document.querySelectorAll('details.more')].map((details) => [
      details.querySelector('summary').textContent,
      // biome-ignore lint/performance/useDomNodeTextContent: as laid out, a glossary word without its definition
      details.querySelector('p').innerText,
    ]),
  };
}

// What each figure shows, to compare the printed state with the one its link opens.
function figuresShown() {
  const text = (selector) => document.querySelector(selector)?.textContent.trim() ?? '';
  return {
    map: document.querySelector('.map-canvas').ariaLabel,
    room: text('.nt-factor'),
    chart: text('.scale-chart__headline'),
    training: text('.training__printed'),
  };
}

// A page at `url` whose window.print() only counts (a headless browser has no print dialog).
async function openPage(url) {
  const page = await chromium.newPage({ viewport: { width: 1280, height: 900 } });
  const problems = await watchProblems(page);
  await page.addInitScript(() => {
    window.printed = 0;
    window.print = () => {
      window.printed += 1;
    };
  });
  await page.goto(url);
  await page.waitForSelector('#map-table table');
  return { page, problems };
}

// Ctrl+P, as a reader presses it at the top of the page: every figure starts, then print().
async function pressPrint(page) {
  const before = await page.evaluate(() => window.printed);
  await page.keyboard.press('Control+p');
  await poll(async () => (await page.evaluate(() => window.printed)) > before, {
    timeout: 30_000,
    message: 'Ctrl+P never got to print()',
  });
}

async function printedPage() {
  const { page, problems } = await openPage(chromium.url(STATE));
  assert.equal(await page.evaluate(() => scrollY), 0);
  await pressPrint(page);
  assert.equal(await page.evaluate(() => scrollY), 0, 'printing scrolled the page');
  const facts = await page.evaluate(screenFacts);
  const shown = await page.evaluate(figuresShown);
  const url = page.url();
  const pdf = await readPdf(await page.pdf({ format: 'A4', printBackground: true }));
  // Laid out for print, no control takes any room (their labels included).
  await page.emulateMedia({ media: 'print' });
  const laidOut = await page.evaluate(() =>
    [
      ...document.querySelectorAll(
        'button:not(.term):not([role="tab"]), summary:not(.more > summary), input, select, textarea, label',
      ),
    ]
      .filter((element) => element.getClientRects().length > 0)
      .map((element) => element.outerHTML.slice(0, 80)),
  );
  await page.close();
  return { facts, shown, url, pdf, problems, laidOut };
}

let printout; // one print, read by the tests below
const printed = async () => {
  printout ??= await printedPage();
  return printout;
};

test('the printout has every heading, the map as shown, no control and the link at the end', async () => {
  const { facts, url, pdf, problems, laidOut } = await printed();
  assert.ok(facts.headings.length >= 10, `the page has ${facts.headings.length} headings`);
  // Every heading; each section's (h2) on a page after the one before: a section starts a page.
  const pages = facts.headings.map((heading) => {
    const page = pdf.findIndex(({ text }) => text.includes(squash(heading)));
    assert.ok(page >= 0, `the heading “${heading}” is printed`);
    return page;
  });
  for (let i = 2; i < pages.length; i += 1)
    assert.ok(pages[i] > pages[i - 1], `“${facts.headings[i]}” starts a page of its own`);
  // The map's own pixels: an image of the canvas's size whose sampled pixels are the screen's.
  const map = pdf
    .flatMap(({ images }) => images)
    .find((image) => image.width === facts.map.width && image.height === facts.map.height);
  assert.ok(map, `an image of ${facts.map.width}×${facts.map.height} pixels is printed`);
  for (const { x, y, rgb } of facts.map.samples)
    assert.deepEqual(pixelOf(map, x, y), rgb, `the printed map's pixel at ${x}, ${y}`);
  assert.ok(
    new Set(facts.map.samples.map(({ rgb }) => rgb.join())).size > 4,
    'the map has colours',
  );
  // No control: none laid out for print, and none of the buttons' words in the printout.
  assert.deepEqual(laidOut, [], 'controls laid out for print');
  assert.ok(facts.controls.includes('Embed') && facts.controls.includes('Show numbers'));
  const all = pdf.map(({ text }) => text).join('');
  // The experiments' buttons print as the titles of the list of what each shows.
  const titled = (label) => facts.words.experiments.some((item) => item.startsWith(`${label}:`));
  // A label as a word of its own ("Embed", not the start of "Embedding" in a source's title).
  const printedWord = (label) =>
    new RegExp(`${squash(label).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![a-z])`).test(all);
  const labels = facts.controls.filter((label) => !titled(label) && printedWord(label));
  assert.deepEqual(labels, [], 'control labels in the printout');
  // The link of the state printed, on the last page (as text: Chromium makes no link
  // annotation for a link to the printed page itself).
  assert.match(url, /seed=5/);
  assert.ok(pdf.at(-1).text.includes(squash(`in the state printed here: ${url}`)), pdf.at(-1).text);
  assert.deepEqual(problems, []);
});

test('printed without scrolling, every figure is there, the folded blocks open', async () => {
  const { facts, pdf } = await printed();
  const all = pdf.map(({ text }) => text).join('');
  const images = pdf.flatMap((page) => page.images);
  // Every canvas drawn on screen is a picture of its size on paper.
  const figures = new Set(facts.canvases.map(({ figure }) => figure));
  for (const figure of ['hero', 'map', 'scale', 'training', 'copying'])
    assert.ok(figures.has(figure), `the ${figure} figure drew a canvas before printing`);
  for (const { figure, width, height } of facts.canvases)
    assert.ok(
      images.some((image) => image.width === width && image.height === height),
      `${figure}: an image of ${width}×${height} pixels is printed`,
    );
  // The figures without a canvas, and what the others say, by their words.
  for (const [figure, words] of Object.entries(facts.words)) {
    assert.ok(words.length > 0 && words.every((text) => text.length > 3), `${figure}: ${words}`);
    for (const text of words) assert.ok(all.includes(squash(text)), `${figure}: “${text}” printed`);
  }
  assert.equal(facts.words.experiments.length, 11, 'one item per experiment');
  assert.match(facts.words.scale[0], /mean of 4 draws/, 'the link’s averaged study, computed');
  assert.match(facts.words.proof[0], /causal=True.*OK/s);
  assert.doesNotMatch(all, /hadnotstarted/, 'a figure had not started');
  // Each folded block open under its title.
  assert.ok(facts.folded.length >= 5, `${facts.folded.length} folded blocks`);
  for (const [title, first] of facts.folded) {
    assert.ok(all.includes(squash(title)), `the folded block “${title}” prints its title`);
    assert.ok(all.includes(squash(first)), `the folded block “${title}” prints open`);
  }
});

test('the printed link opens every figure as it was printed', async () => {
  const { url, shown } = await printed();
  assert.match(url, /room-sharpness=6\.31.*study-measure=entropy.*train-d=16/);
  assert.match(shown.room, /× 6\.31/);
  const { page, problems } = await openPage(url);
  await pressPrint(page); // every figure started, as on the printed page
  assert.deepEqual(await page.evaluate(figuresShown), shown);
  await page.close();
  assert.deepEqual(problems, []);
});

test('printed at once from the browser’s menu, a figure not yet started says so, and starts', async () => {
  const { page, problems } = await openPage(chromium.url(STATE));
  const waiting = await page.locator('.figure-waiting').count();
  assert.ok(waiting >= 3, `${waiting} figures wait to come near`);
  const first = (await readPdf(await page.pdf({ format: 'A4' }))).map(({ text }) => text).join('');
  const said = first.split(squash('had not started when the page was printed')).length - 1;
  assert.equal(said, waiting, 'each figure not started says so on paper');
  assert.ok(first.includes(squash('Print with Ctrl+P (⌘P on a Mac)')));
  // That print started them: the next one has them all, with no scrolling.
  await page.waitForFunction(() => !document.querySelector('.figure-waiting'), null, {
    timeout: 30_000,
  });
  await pressPrint(page);
  const second = (await readPdf(await page.pdf({ format: 'A4' }))).map(({ text }) => text).join('');
  assert.doesNotMatch(second, /hadnotstarted/);
  assert.ok(second.includes(squash('Settings: head width d = 16, 120 steps')));
  await page.close();
  assert.deepEqual(problems, []);
});
