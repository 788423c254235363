// embed/snippet.js: the addresses of the embedded view and of the full page, and the snippet a
// teacher pastes, whose five-line script is run here against a fake host page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EMBEDDABLE, HEIGHT_MESSAGE } from '../../src/embed/figures.js';
import { embedUrl, fullPageUrl, snippet } from '../../src/embed/snippet.js';

test('the embedded view sits beside the page, names its figure and keeps the state', () => {
  assert.equal(
    embedUrl('https://school.example/ai/index.html#d=1', 'map', '#d=32&seed=2'),
    'https://school.example/ai/embed.html?figure=map#d=32&seed=2',
  );
  assert.equal(
    embedUrl('file:///home/t/dist/', 'name-tags', ''),
    'file:///home/t/dist/embed.html?figure=name-tags',
  );
  assert.equal(
    fullPageUrl('file:///home/t/dist/embed.html?figure=scale#d=4', '#d=8'),
    'file:///home/t/dist/index.html#d=8',
  );
});

test('the snippet is an iframe with a title, an aspect ratio and the address as an attribute', () => {
  const code = snippet('scale', 'https://a.example/embed.html?figure=scale#text=a&d="2"');
  const iframe = code.split('\n')[0];
  assert.match(
    iframe,
    /^<iframe src="https:\/\/a\.example\/embed\.html\?figure=scale#text=a&amp;d=&quot;2&quot;" /,
  );
  assert.match(iframe, new RegExp(`title="${EMBEDDABLE.scale.title}"`));
  assert.match(iframe, /aspect-ratio:700 \/ 905;/);
  assert.match(iframe, /data-attention-head/);
});

// The snippet's script, run with a host page of two iframes: it sizes the one that spoke.
function hostWithScript(figure) {
  const code = snippet(figure, 'https://a.example/embed.html');
  const script = code.slice(code.indexOf('<script>') + 8, code.indexOf('</script>')).trim();
  const frames = [0, 1].map(() => ({ contentWindow: {}, style: { aspectRatio: '7 / 9' } }));
  let listener = null;
  const document = {
    querySelectorAll: (selector) => (selector === 'iframe[data-attention-head]' ? frames : []),
  };
  new Function('addEventListener', 'document', script)((type, handler) => {
    assert.equal(type, 'message');
    listener = handler;
  }, document);
  return { script, frames, hear: (event) => listener(event) };
}

test('the snippet script is five lines and applies the height only of the frame that sent it', () => {
  const { script, frames, hear } = hostWithScript('map');
  assert.equal(script.split('\n').length, 5);
  hear({ source: {}, data: { type: HEIGHT_MESSAGE, height: 900 } }); // not one of ours
  hear({ source: frames[1].contentWindow, data: { type: 'other', height: 900 } });
  hear({ source: frames[1].contentWindow, data: null });
  assert.deepEqual(
    frames.map((f) => f.style),
    [{ aspectRatio: '7 / 9' }, { aspectRatio: '7 / 9' }],
  );
  hear({ source: frames[1].contentWindow, data: { type: HEIGHT_MESSAGE, height: 812 } });
  assert.deepEqual(frames[1].style, { aspectRatio: 'auto', height: '812px' });
  assert.deepEqual(frames[0].style, { aspectRatio: '7 / 9' });
});
