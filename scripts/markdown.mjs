// The two pieces of Markdown the scripts write into docs: a table laid out the way the formatter
// lays one out, and a generated section, the text between <!-- NAME:start --> and
// <!-- NAME:end --> that a script owns. Pure.

// A table from rows of cells (the first row is the header), each column padded to its widest
// cell (at least 3 characters); the columns whose index is in `right` are aligned right.
export function markdownTable(cells, right = []) {
  const length = (text) => [...text].length;
  const widths = cells[0].map((_, column) =>
    Math.max(3, ...cells.map((line) => length(line[column]))),
  );
  const pad = (text, column) => {
    const room = ' '.repeat(widths[column] - length(text));
    return right.includes(column) ? room + text : text + room;
  };
  const rule = widths.map((width, column) =>
    right.includes(column) ? `${'-'.repeat(width - 1)}:` : '-'.repeat(width),
  );
  const line = (values) => `| ${values.join(' | ')} |`;
  return [
    line(cells[0].map(pad)),
    line(rule),
    ...cells.slice(1).map((values) => line(values.map(pad))),
  ].join('\n');
}

const literal = (name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const markers = (name) =>
  new RegExp(`<!-- ${literal(name)}:start -->\\n([\\s\\S]*?)\\n?<!-- ${literal(name)}:end -->`);

// The body of the generated section NAME of text ('' when it is empty), or null when text has
// no such section.
export function sectionBody(text, name) {
  const found = text.match(markers(name));
  return found ? found[1] : null;
}

// text with the body of its generated section NAME replaced; throws when it has none.
export function replaceSection(text, name, body) {
  if (sectionBody(text, name) === null) throw new Error(`no section ${name} (its markers)`);
  const section = `<!-- ${name}:start -->\n${body}\n<!-- ${name}:end -->`;
  return text.replace(markers(name), () => section);
}

// The names of every generated section in text, in order.
export function sectionNames(text) {
  return [...text.matchAll(/<!-- ([\w:-]+):start -->/g)].map((found) => found[1]);
}
