// npm run prose: the narrative's budget. Words and Flesch–Kincaid grade for each section of
// web/index.html (visible text outside figures, controls and folded blocks) and for each live
// note a reader can meet (read from the built page, scripts/prose/tour.mjs). Fails when the
// narrative passes MAX_WORDS, a section passes MAX_GRADE, or a note passes MAX_NOTE_WORDS or
// MAX_NOTE_SENTENCES, or when the README's table (between its prose:start and prose:end
// markers) is not the one this run prints; --write-readme rewrites it. --no-notes skips the
// browser (and the README check).
import { readFileSync, writeFileSync } from 'node:fs';
import { markdownTable, replaceSection } from './markdown.mjs';
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

// What puts a live note over its budget ([] when it keeps to it). The unit tests hold every
// note a figure's model can write to this too, so the budget and the counting live here only.
export function noteOverBudget(text) {
  const count = words(text).length;
  const stops = sentences(text);
  return [
    ...(count > MAX_NOTE_WORDS ? [`${count} words`] : []),
    ...(stops > MAX_NOTE_SENTENCES ? [`${stops} sentences`] : []),
  ];
}

function noteRows(notes) {
  return notes.map(({ where, text }) => ({
    name: `note (${where}): ${text.slice(0, 50)}…`,
    words: words(text).length,
    grade: measure(text).grade,
    over: noteOverBudget(text),
  }));
}

// The table as plain columns, or as Markdown padded the way the formatter (Biome) lays it out.
function tableLines(rows, total, markdown) {
  const over = total > MAX_WORDS ? 'over' : '';
  const cells = [
    ['part', 'words', 'grade', 'over budget'],
    ...rows.map((row) => [row.name, String(row.words), row.grade.toFixed(1), row.over.join(', ')]),
    [`narrative, in all (budget ${MAX_WORDS})`, String(total), '', over],
  ];
  if (!markdown) return cells.map((line) => line.join('  '));
  return markdownTable(cells, [1, 2]).split('\n');
}

const README = new URL('README.md', root);

// Whether the README holds this table; with write, makes it so.
function readmeHolds(table, write) {
  const readme = readFileSync(README, 'utf8');
  const updated = replaceSection(readme, 'prose', table);
  if (write && updated !== readme) writeFileSync(README, updated);
  return write || updated === readme;
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
  console.log(tableLines(rows, total, args.includes('--markdown')).join('\n'));
  const markdown = tableLines(rows, total, true).join('\n');
  const stale = notes.length > 0 && !readmeHolds(markdown, args.includes('--write-readme'));
  if (stale)
    console.error("prose: the README's table is stale: run node scripts/prose.mjs --write-readme");
  const failed =
    rows.filter((row) => row.over.length).length + (total > MAX_WORDS ? 1 : 0) + (stale ? 1 : 0);
  if (failed) {
    console.error(`prose: ${failed} part(s) over budget`);
    process.exitCode = 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main(process.argv.slice(2));
