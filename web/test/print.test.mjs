// Printing the page: Chromium prints the built page to PDF (page.pdf(), print media), and the
// PDF, read back by PDF.js, must hold every section's heading, each from a page of its own,
// the map as the picture the screen showed (the same pixels), no control, and at its end the
// link of the state printed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { useChromium, watchProblems } from './chromium.mjs';
import { poll } from './waits.mjs';

const chromium = useChromium();
const STATE = '#text=Print%20me%2C%20please&d=16&seed=5';
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
  const controls = [...document.querySelectorAll('button:not(.term), summary')]
    .filter((element) => element.getClientRects().length > 0)
    .map((element) => element.textContent.trim())
    .filter((text) => text.length > 3);
  return {
    headings: [...document.querySelectorAll('h1, h2')].map((h) => h.textContent),
    map: { width: canvas.width, height: canvas.height, samples },
    controls: [...new Set(controls)],
  };
}

async function printedPage() {
  const page = await chromium.newPage({ viewport: { width: 1280, height: 900 } });
  const problems = await watchProblems(page);
  await page.goto(chromium.url(STATE));
  await page.waitForSelector('#map-table table');
  // Every figure on screen once, as a reader scrolling down would: those that wait to be near
  // (the √d chart's study, the proof) have drawn.
  for (const slot of await page.$$('[data-figure]')) await slot.scrollIntoViewIfNeeded();
  await poll(async () => /causal=True/.test(await page.textContent('.proof-lines')), {
    timeout: 30_000,
    message: 'the proof never printed its lines',
  });
  const facts = await page.evaluate(screenFacts);
  const url = page.url();
  const pdf = await readPdf(await page.pdf({ format: 'A4', printBackground: true }));
  // Laid out for print, no control takes any room (their labels included).
  await page.emulateMedia({ media: 'print' });
  const laidOut = await page.evaluate(() =>
    [...document.querySelectorAll('button:not(.term), summary, input, select, textarea, label')]
      .filter((element) => element.getClientRects().length > 0)
      .map((element) => element.outerHTML.slice(0, 80)),
  );
  await page.close();
  return { facts, url, pdf, problems, laidOut };
}

test('the printout has every heading, the map as shown, no control and the link at the end', async () => {
  const { facts, url, pdf, problems, laidOut } = await printedPage();
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
  const printed = facts.controls.filter((label) => all.includes(squash(label)));
  assert.deepEqual(printed, [], 'control labels in the printout');
  // The link of the state printed, on the last page (as text: Chromium makes no link
  // annotation for a link to the printed page itself).
  assert.match(url, /seed=5/);
  assert.ok(pdf.at(-1).text.includes(squash(`in the state printed here: ${url}`)), pdf.at(-1).text);
  assert.deepEqual(problems, []);
});
