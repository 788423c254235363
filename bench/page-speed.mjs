// page-speed.mjs: how fast the built page (dist/) feels, in headless Chromium on localhost:
// navigation to the first drawn attention map; recompute + redraw after a text change at
// T = 64, 256, 512 (d = 64), from the input event to the end of drawing; the averaged scale
// study (d = 1…1024, 32 draws, three scale modes) as the page reports it; and the gzipped
// size of everything the page loads. Run alone (`node bench/page-speed.mjs`) after
// `npm run build`, or as part of bench/run.mjs.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { launchChromium } from '../scripts/chromium.mjs';
import { serve } from '../scripts/serve.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export function pageBytes() {
  return readdirSync(dist).map((file) => {
    const raw = readFileSync(join(dist, file));
    return { file, raw: raw.length, gzip: gzipSync(raw, { level: 9 }).length };
  });
}

async function firstMapMs(browser, url) {
  const times = [];
  for (let run = 0; run < 5; run++) {
    const page = await browser.newPage();
    await page.goto(url);
    await page.waitForFunction(() => performance.getEntriesByName('map-drawn').length > 0);
    times.push(await page.evaluate(() => performance.getEntriesByName('map-drawn')[0].startTime));
    await page.close();
  }
  return median(times);
}

// From the input event to the end of the redraw, so it includes waiting for the frame.
async function redrawMs(page, T) {
  const times = [];
  for (let run = 0; run < 7; run++) {
    const text = Array.from({ length: T }, (_, i) =>
      String.fromCharCode(97 + ((i * 7 + run) % 26)),
    ).join('');
    times.push(
      await page.evaluate(
        (value) =>
          new Promise((done) => {
            const before = performance.getEntriesByName('map-drawn').length;
            const input = document.querySelector('#map-text');
            const start = performance.now();
            input.value = value;
            input.dispatchEvent(new Event('input', { bubbles: true }));
            const poll = () => {
              const marks = performance.getEntriesByName('map-drawn');
              if (marks.length > before) done(marks.at(-1).startTime - start);
              else requestAnimationFrame(poll);
            };
            requestAnimationFrame(poll);
          }),
        text,
      ),
    );
  }
  return median(times);
}

async function scaleStudyMs(page) {
  await page.locator('#scale').scrollIntoViewIfNeeded();
  await page.getByText('Averaged', { exact: true }).click();
  const pattern =
    /32 draws per width, 64 tokens, mask off, seed \d+: computed by the C\+\+ core in (\d+) ms/;
  await page.waitForFunction(
    (source) => new RegExp(source).test(document.querySelector('#scale').textContent),
    pattern.source,
  );
  return Number(pattern.exec(await page.textContent('#scale'))[1]);
}

export async function measurePageSpeed() {
  const server = await serve(dist, 0);
  const browser = await launchChromium();
  try {
    const url = `http://127.0.0.1:${server.address().port}/index.html`;
    const result = { firstMapMs: await firstMapMs(browser, url), redrawMs: {} };
    const page = await browser.newPage();
    await page.goto(`${url}#d=64`);
    await page.waitForSelector('#map-table table');
    for (const T of [64, 256, 512]) result.redrawMs[T] = await redrawMs(page, T);
    result.scaleStudyMs = await scaleStudyMs(page);
    await page.close();
    return result;
  } finally {
    await browser.close();
    server.close();
  }
}

export function printPageSpeed(speed, files) {
  const total = files.reduce((sum, f) => sum + f.gzip, 0);
  console.log('\nPage speed (headless Chromium, localhost)');
  console.log(
    `  navigation to first drawn map      ${speed.firstMapMs.toFixed(0).padStart(6)} ms   (target < 300 ms)`,
  );
  for (const [T, ms] of Object.entries(speed.redrawMs)) {
    console.log(
      `  text change -> map redrawn, T=${String(T).padEnd(4)} ${ms.toFixed(1).padStart(6)} ms   (d = 64; target at T = 512: one frame, 16 ms)`,
    );
  }
  console.log(
    `  scale study d=1..1024, 32 draws    ${speed.scaleStudyMs.toFixed(0).padStart(6)} ms   (T = 64, three scale modes)`,
  );
  console.log(
    `  page weight, gzipped               ${(total / 1024).toFixed(1).padStart(6)} KB   (target < 150 KB: ` +
      files.map((f) => `${f.file} ${(f.gzip / 1024).toFixed(1)}`).join(', ') +
      ')',
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  printPageSpeed(await measurePageSpeed(), pageBytes());
}
