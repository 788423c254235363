// The live notes a reader meets, read from the built page (dist/) in headless Chromium: the
// notes beside the map in its first state, then after each experiment button. A note is any
// visible element marked [data-note]; its text is read as a reader sees it, without the
// glossary's pop-up definitions (they are the glossary's words, not the note's).
import { launchChromium } from '../chromium.mjs';
import { serve } from '../serve.mjs';

function visibleNotes() {
  const notes = [];
  for (const element of document.querySelectorAll('[data-note]')) {
    if (element.hidden || element.closest('[hidden]') || !element.getClientRects().length) continue;
    const copy = element.cloneNode(true);
    for (const extra of copy.querySelectorAll('[role="tooltip"], button, table, .no-prose'))
      extra.remove();
    const text = copy.textContent.replace(/\s+/g, ' ').trim();
    if (text) notes.push(text);
  }
  return notes;
}

async function notesAfter(page, action) {
  await action();
  await page.waitForTimeout(400); // the map and its note redraw within a frame or two
  return page.evaluate(visibleNotes);
}

// [{ where, text }]: every distinct note, with the state it was seen in.
export async function tourNotes(distPath) {
  const server = await serve(distPath, 0);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`http://127.0.0.1:${server.address().port}/index.html`);
    await page.waitForSelector('#map-table table', { timeout: 30000 });
    const seen = new Map();
    const keep = (where, texts) => {
      for (const text of texts) if (!seen.has(text)) seen.set(text, where);
    };
    keep('first state', await notesAfter(page, async () => {}));
    const ids = await page.$$eval('[data-experiment]', (buttons) =>
      buttons.map((button) => button.dataset.experiment),
    );
    for (const id of ids)
      keep(id, await notesAfter(page, () => page.click(`[data-experiment="${id}"]`)));
    return [...seen].map(([text, where]) => ({ where, text }));
  } finally {
    await browser.close();
    server.close();
  }
}
