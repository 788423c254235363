// Drawing for the proof panel: the tutorial's lines, ours, the sentences that say what each
// compares, the table of every comparison, and the button that runs the check again.
import { RERUN_LABEL } from './model.js';

const make = (tag, props = {}) => Object.assign(document.createElement(tag), props);

export function buildFigure(element) {
  const root = make('div', { className: 'proof' });
  const parts = {
    root,
    tutorialTitle: make('p', { className: 'proof-title', textContent: 'The tutorial printed:' }),
    tutorial: make('pre', { className: 'readout proof-tutorial' }),
    tutorialNote: make('p', { className: 'proof-note' }),
    oursTitle: make('p', { className: 'proof-title', textContent: 'This page, computed now:' }),
    lines: make('pre', { className: 'readout proof-lines' }),
    timing: make('p', { className: 'proof-timing' }),
    oursNote: make('p', { className: 'proof-note' }),
    why: make('p', { className: 'proof-note' }),
    details: make('table', { className: 'numbers proof-details' }),
    rerun: make('button', { type: 'button', textContent: RERUN_LABEL }),
  };
  parts.lines.setAttribute('aria-live', 'polite');
  const tableBox = make('div', { className: 'table-scroll' });
  tableBox.append(parts.details);
  root.append(
    parts.tutorialTitle,
    parts.tutorial,
    parts.tutorialNote,
    parts.oursTitle,
    parts.lines,
    parts.timing,
    parts.oursNote,
    parts.why,
    tableBox,
    parts.rerun,
  );
  element.insertBefore(root, element.querySelector('figcaption'));
  return parts;
}

export function writeTable(table, { caption, head, rows }) {
  table.replaceChildren();
  table.createCaption().textContent = caption;
  const headRow = table.createTHead().insertRow();
  for (const text of head) headRow.append(make('th', { textContent: text, scope: 'col' }));
  const body = table.createTBody();
  for (const [first, ...cells] of rows) {
    const row = body.insertRow();
    row.append(make('th', { scope: 'row', textContent: first }));
    for (const text of cells) row.insertCell().textContent = text;
  }
}

// Sentence parts from the model: strings, and { number } kept on one line.
export function writeParts(node, parts) {
  node.replaceChildren(
    ...parts.map((part) =>
      typeof part === 'string'
        ? part
        : make('span', { className: 'proof-number', textContent: part.number }),
    ),
  );
}
