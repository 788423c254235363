// The link preview's tags (scripts/link-preview.mjs): the address comes from PAGE_URL alone; a
// build given it names it in the canonical link, og:url and the picture's URL, and a build
// without it names no address at all (no placeholder), its picture by a relative path. The
// built dist/ holds no .invalid address, and the Pages workflow builds with the address it
// deploys to.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { pageAddress, withPreviewTags } from '../link-preview.mjs';

const root = new URL('../../', import.meta.url);
const source = readFileSync(new URL('web/index.html', root), 'utf8');
const dist = new URL('dist/', root);

const meta = (html, attribute, key) =>
  html.match(new RegExp(`<meta ${attribute}="${key}" content="([^"]*)">`))?.[1];
const canonical = (html) => html.match(/<link rel="canonical" href="([^"]*)">/)?.[1];

test('the address is PAGE_URL with its trailing slash, or none; anything else stops the build', () => {
  assert.equal(pageAddress({}), null);
  assert.equal(pageAddress({ PAGE_URL: '  ' }), null);
  assert.equal(
    pageAddress({ PAGE_URL: 'https://someone.github.io/attention' }),
    'https://someone.github.io/attention/',
  );
  assert.equal(pageAddress({ PAGE_URL: 'https://school.example/' }), 'https://school.example/');
  for (const bad of [
    'someone.github.io/attention',
    'ftp://school.example/',
    'https://a.example/?x=1',
    'https://a.example/#top',
  ])
    assert.throws(
      () => pageAddress({ PAGE_URL: bad }),
      /PAGE_URL must be the http\(s\) address the page is served from/,
      bad,
    );
});

test('with an address, the page names it as canonical, og:url and in the picture’s URL', () => {
  const html = withPreviewTags(source, 'https://someone.github.io/attention/');
  const title = html.match(/<title>([^<]*)<\/title>/)[1];
  const description = meta(html, 'name', 'description');
  assert.equal(canonical(html), 'https://someone.github.io/attention/');
  assert.equal(meta(html, 'property', 'og:url'), 'https://someone.github.io/attention/');
  for (const [attribute, prefix] of [
    ['property', 'og'],
    ['name', 'twitter'],
  ]) {
    assert.equal(meta(html, attribute, `${prefix}:title`), title, prefix);
    assert.equal(meta(html, attribute, `${prefix}:description`), description, prefix);
    assert.equal(
      meta(html, attribute, `${prefix}:image`),
      'https://someone.github.io/attention/preview.png',
      prefix,
    );
  }
  assert.equal(meta(html, 'name', 'twitter:card'), 'summary_large_image');
  assert.deepEqual(
    [meta(html, 'property', 'og:image:width'), meta(html, 'property', 'og:image:height')],
    ['1200', '630'],
  );
});

test('without one, the page names no address: no canonical link, no og:url, a relative picture', () => {
  const html = withPreviewTags(source, null);
  assert.equal(canonical(html), undefined);
  assert.equal(meta(html, 'property', 'og:url'), undefined);
  assert.equal(meta(html, 'property', 'og:image'), 'preview.png');
  assert.equal(meta(html, 'name', 'twitter:image'), 'preview.png');
  assert.ok(meta(html, 'property', 'og:title'));
  const added = html.slice(source.indexOf('</head>'), html.indexOf('</head>'));
  assert.ok(added.includes('og:image'), added);
  assert.doesNotMatch(added, /:\/\//, 'an absolute address in the tags');
});

test('the built page names the address it was built with (PAGE_URL), and no .invalid one', () => {
  for (const file of readdirSync(dist))
    assert.doesNotMatch(readFileSync(new URL(file, dist), 'latin1'), /\.invalid\b/, `dist/${file}`);
  const html = readFileSync(new URL('index.html', dist), 'utf8');
  const address = pageAddress(process.env);
  assert.equal(canonical(html), address ?? undefined);
  assert.equal(meta(html, 'property', 'og:url'), address ?? undefined);
  assert.equal(
    meta(html, 'property', 'og:image'),
    address ? `${address}preview.png` : 'preview.png',
  );
});

test('the Pages workflow builds with the address it deploys to', () => {
  const workflow = readFileSync(new URL('.github/workflows/pages.yml', root), 'utf8');
  const pages = workflow.match(
    /- id: (\S+)\n(?:\s+if: .*\n)?\s+uses: actions\/configure-pages@v\d+/,
  );
  assert.ok(pages, 'a configure-pages step with an id');
  const build = workflow.match(/- run: npm test\n\s+env:\n(?:\s+#.*\n)*\s+PAGE_URL: (.+)\n/);
  assert.ok(build, 'npm test (which builds dist/) runs with PAGE_URL');
  assert.equal(build[1].trim(), `\${{ steps.${pages[1]}.outputs.base_url }}`);
  assert.match(workflow, /uses: actions\/upload-pages-artifact@v\d+\n\s+with:\n\s+path: dist/);
});
