// npm run prose: the narrative's budget. Words and Flesch–Kincaid grade for each section of
// web/index.html (visible text outside figures, controls and folded blocks) and for each live
// note a reader can meet (read from the built page, scripts/prose/tour.mjs). Fails when the
// narrative passes MAX_WORDS, a section passes MAX_GRADE, or a note passes MAX_NOTE_WORDS or
// MAX_NOTE_SENTENCES. --markdown prints the README's table; --no-notes skips the browser.
import { readFileSync } from 'node:fs';
import { measure, sentences, words } from './prose/measure.mjs';
import { narrativeSections } from './prose/narrative.mjs';

export const MAX_WORDS = 1400;
export const MAX_GRADE = 8;
export const MAX_NOTE_WORDS = 45;
export const MAX_NOTE_SENTENCES = 2;

const root = new URL('../', import.meta.url);

function sectionRows(html) {
  return narrativeSections(html).map((section) => {
    const counted = measure(section.blocks);
    const over = counted.grade > MAX_GRADE ? [`grade ${counted.grade.toFixed(1)}`] : [];
    return { name: section.title, words: counted.words, grade: counted.grade, over };
  });
}

function noteRows(notes) {
  return notes.map(({ where, text }) => {
    const count = words(text).length;
    const stops = sentences(text);
    const over = [
      ...(count > MAX_NOTE_WORDS ? [`${count} words`] : []),
      ...(stops > MAX_NOTE_SENTENCES ? [`${stops} sentences`] : []),
    ];
    return {
      name: `note (${where}): ${text.slice(0, 50)}…`,
      words: count,
      grade: measure(text).grade,
      over,
    };
  });
}

function printTable(rows, total, markdown) {
  const line = (cells) => (markdown ? `| ${cells.join(' | ')} |` : cells.join('  '));
  console.log(line(['part', 'words', 'grade', 'over budget']));
  if (markdown) console.log('| --- | ---: | ---: | --- |');
  for (const row of rows)
    console.log(
      line([row.name, String(row.words), row.grade.toFixed(1), row.over.join(', ') || '']),
    );
  console.log(
    line([
      `narrative, in all (budget ${MAX_WORDS})`,
      String(total),
      '',
      total > MAX_WORDS ? 'over' : '',
    ]),
  );
}

async function main(args) {
  const html = readFileSync(new URL('web/index.html', root), 'utf8');
  const sections = sectionRows(html);
  const total = sections.reduce((sum, row) => sum + row.words, 0);
  let notes = [];
  if (!args.includes('--no-notes')) {
    const { tourNotes } = await import('./prose/tour.mjs');
    notes = noteRows(await tourNotes(new URL('dist/', root).pathname));
  }
  const rows = [...sections, ...notes];
  printTable(rows, total, args.includes('--markdown'));
  const failed = rows.filter((row) => row.over.length).length + (total > MAX_WORDS ? 1 : 0);
  if (failed) {
    console.error(`prose: ${failed} part(s) over budget`);
    process.exitCode = 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main(process.argv.slice(2));
