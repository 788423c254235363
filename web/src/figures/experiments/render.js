// Draws an experiment's note: its sentence and, for the same-token pair, the two rows side by
// side (weights over the keys, and the first numbers of each query).
import { fixed, visibleToken } from '../../lib/format.js';

function cell(tag, text) {
  return Object.assign(document.createElement(tag), { textContent: text });
}

function rowsTable(rows, tokens) {
  const table = document.createElement('table');
  table.className = 'numbers side-by-side';
  table.createCaption().textContent = 'The two rows side by side';
  const head = table.createTHead().insertRow();
  head.append(cell('th', ''), ...tokens.map((token) => cell('th', visibleToken(token))));
  head.append(cell('th', 'q (first numbers)'));
  const body = table.createTBody();
  for (const row of rows) {
    const line = body.insertRow();
    const label = cell('th', row.label);
    label.scope = 'row';
    line.append(label, ...row.weights.map((weight) => cell('td', fixed(weight, 3))));
    line.append(cell('td', row.query.map((value) => fixed(value, 2)).join(' ')));
  }
  return table;
}

// note: from noteFor(), or null to empty the box. tokens: the map's token labels.
export function renderNote(box, note, tokens) {
  if (!note) {
    box.replaceChildren();
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const title = cell('p', note.title);
  title.className = 'experiment-title';
  const text = cell('p', note.text);
  text.className = 'experiment-text';
  const parts = [title, text];
  if (note.rows) {
    const wrap = document.createElement('div');
    wrap.className = 'table-scroll';
    wrap.append(rowsTable(note.rows, tokens));
    parts.push(wrap);
  }
  box.replaceChildren(...parts);
}
