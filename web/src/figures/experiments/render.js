// Draws an experiment's map and its note: the sentence and, for the same-token pair, the two
// rows side by side (their weights over the keys, then the first numbers of each query).
import { cell as number, visibleToken } from '../../lib/format.js';
import { drawLetterMap, shortLabel } from '../../lib/letter-map.js';
import { letterMapColours } from '../../theme.js';

const QUERY_NUMBERS = 4;

function cell(tag, text) {
  return Object.assign(document.createElement(tag), { textContent: text });
}

function addRow(body, label, values) {
  const line = body.insertRow();
  const header = cell('th', label);
  header.scope = 'row';
  line.append(header, ...values.map((value) => cell('td', value)));
}

function rowsTable(rows, tokens) {
  const table = document.createElement('table');
  table.className = 'numbers side-by-side';
  const head = table.createTHead().insertRow();
  head.append(cell('th', ''), ...tokens.map((token) => cell('th', visibleToken(token))));
  const body = table.createTBody();
  for (const row of rows)
    addRow(
      body,
      row.label,
      row.weights.map((weight) => number(weight, 3)),
    );
  for (const row of rows) {
    const numbers = row.query.slice(0, QUERY_NUMBERS).map((value) => number(value, 2));
    addRow(body, `q, ${row.label}`, [
      ...numbers,
      ...Array(Math.max(0, tokens.length - numbers.length)).fill(''),
    ]);
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
  const title = cell('strong', note.title);
  title.className = 'experiment-title';
  // The sentences alone are the live note (data-note, for the prose check); the title is the
  // button's.
  const sentences = cell('span', note.text);
  sentences.dataset.note = '';
  const text = document.createElement('p');
  text.className = 'experiment-text';
  text.append(title, ' ', sentences);
  const parts = [text];
  if (note.rows) {
    const caption = cell(
      'p',
      `The two rows side by side: weights, then q’s first ${QUERY_NUMBERS} numbers.`,
    );
    caption.className = 'side-by-side-caption';
    const wrap = document.createElement('div');
    wrap.className = 'table-scroll';
    wrap.tabIndex = 0; // scrollable, so reachable by keyboard
    wrap.setAttribute('role', 'region');
    wrap.setAttribute('aria-label', caption.textContent);
    wrap.append(rowsTable(note.rows, tokens));
    parts.push(caption, wrap);
  }
  box.replaceChildren(...parts);
}

// The map the experiment set, as section 4 shows it (the store's snapshot), drawn here with its
// tokens along both sides; it scrolls inside its box when the text is long. size: the box's
// { width, viewportHeight }, read by the caller after the browser's layout, not here.
export function drawExperimentMap(canvas, snapshot, cache, size) {
  const { result, state } = snapshot;
  if (!result) return;
  const labels = result.tokens.map((token) => shortLabel(visibleToken(token)));
  drawLetterMap(
    canvas,
    { T: result.T, weights: result.weights, labels, causal: state.causal },
    {
      width: size.width,
      height: Math.min(size.width, Math.round(0.55 * size.viewportHeight)),
      colours: letterMapColours(),
      cache,
    },
  );
  canvas.setAttribute(
    'aria-label',
    `The map of section 4 as the experiment set it: ${result.T} tokens.`,
  );
}
