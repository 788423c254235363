// The figures a teacher may embed in a page of their own, each shown alone by embed.html
// (?figure=NAME, NAME being the figure's data-figure slot name). `title` names the iframe
// for screen readers and heads the embedded view; `aspect` (width / height) is the iframe's
// shape in a host page without the snippet's resizing script: the embedded figure's own at
// 700 px wide (Chromium 156: map 700×1418, name tags 700×809, √d chart 700×901, training
// 700×882), so that at that width nothing scrolls inside it.
export const EMBEDDABLE = Object.freeze({
  map: { title: 'The attention map, live', aspect: '700 / 1420' },
  'name-tags': { title: 'The name-tag room: attention with five people', aspect: '700 / 810' },
  scale: { title: 'Why divide by √d: peak weight against head width', aspect: '700 / 905' },
  training: {
    title: 'Watch a head learn: three tiny models trained side by side',
    aspect: '700 / 885',
  },
});

// The message the embedded view posts to its parent, and the only one the snippet heeds.
export const HEIGHT_MESSAGE = 'attention-head:height';

export const isEmbeddable = (name) => Object.hasOwn(EMBEDDABLE, name);
