// The figures a teacher may embed in a page of their own, each shown alone by embed.html
// (?figure=NAME, NAME being the figure's data-figure slot name). `title` names the iframe
// for screen readers and heads the embedded view; `aspect` (width / height) is the iframe's
// shape in a host page without the snippet's resizing script, measured on the embedded
// figure at about 700 px wide so that its controls fit without a scroll bar.
export const EMBEDDABLE = Object.freeze({
  map: { title: 'The attention map, live', aspect: '7 / 10' },
  'name-tags': { title: 'The name-tag room: attention with five people', aspect: '7 / 11' },
  scale: { title: 'Why divide by √d: peak weight against head width', aspect: '7 / 10' },
  training: {
    title: 'Watch a head learn: three tiny models trained side by side',
    aspect: '7 / 10',
  },
});

// The message the embedded view posts to its parent, and the only one the snippet heeds.
export const HEIGHT_MESSAGE = 'attention-head:height';

export const isEmbeddable = (name) => Object.hasOwn(EMBEDDABLE, name);
