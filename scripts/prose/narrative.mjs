// The narrative of web/index.html as a reader meets it: the header's opening and each
// section's visible text, as blocks (headings, paragraphs, list items). Left out: figures
// (their captions and controls are the figure's), folded "more" blocks (<details>, read only
// by the curious), scripts, and what only JavaScript-less readers see (.needs-script).

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

const decode = (text) =>
  text
    .replace(/&#(\d+);/g, (_, code) => String.fromCodePoint(Number(code)))
    .replace(/&(\w+);/g, (whole, name) => ENTITIES[name] ?? whole);

const drop = (html, tag) => html.replace(new RegExp(`<${tag}\\b[\\s\\S]*?</${tag}>`, 'g'), ' ');

// Blocks of plain text: one per heading, paragraph or list item.
export function blocksOf(html) {
  let visible = html;
  for (const tag of ['details', 'figure', 'script', 'style', 'button', 'noscript'])
    visible = drop(visible, tag);
  return visible
    .split(/<\/(?:p|li|h[1-6])>/)
    .map((part) =>
      decode(part.replace(/<[^>]+>/g, ' '))
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter(Boolean);
}

// [{ id, title, blocks }]: the opening (header) first, then every <section id="…">.
export function narrativeSections(html) {
  const header = html.match(/<header\b[\s\S]*?<\/header>/)?.[0] ?? '';
  const sections = [{ id: 'opening', title: 'Opening', blocks: blocksOf(header) }];
  for (const match of html.matchAll(/<section id="([^"]+)"[\s\S]*?<\/section>/g)) {
    const title = match[0].match(/<h2>([\s\S]*?)<\/h2>/)?.[1] ?? match[1];
    sections.push({
      id: match[1],
      title: decode(title.replace(/<[^>]+>/g, '')).trim(),
      blocks: blocksOf(match[0]),
    });
  }
  return sections;
}
