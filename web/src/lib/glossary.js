// Plain-words definitions of the page's terms, and a small hover/focus/tap component that
// shows one beside its word. One source: the narrative marks a word with
// <span class="term" data-term="entropy">entropy</span> (readable as plain text with
// JavaScript off), figures call termElement('entropy'); both end up as a button that opens
// its definition on hover, keyboard focus or a tap, and closes with Escape or a second tap.

export const GLOSSARY = Object.freeze({
  transformer:
    'The kind of program behind chatbots and translators. It is a stack of layers: attention layers that let tokens share information, and layers that change each token on its own.',
  token:
    'A piece of text the model reads as one unit: a character here, a word or part of a word in big models. Each token becomes a list of numbers.',
  'attention head':
    'One attention step with its own query, key and value recipes. Big models run many heads side by side, each free to look for something different.',
  'induction head':
    'A head that looks for an earlier copy of the current token and attends to the token that came after it then, so the model can repeat it. It needs an earlier head that looks one token back.',
  vector: 'A list of numbers. Here every token is one: its query, key and value are vectors too.',
  matrix: 'A table of numbers with rows and columns. Here each row belongs to one token.',
  'learning rate':
    'How big each training nudge is. Too small and learning is slow; too big and it overshoots.',
  Adam: 'A popular rule for training. For each number it keeps a running average of the gradient and of the gradient squared, and moves the number by the first over the square root of the second, times the learning rate: about the learning rate each step, whatever the gradient’s size.',
  'dot product':
    'Multiply two lists of numbers position by position and add it all up. Big when the two lists are long and point the same way.',
  softmax:
    'Turns any row of scores into weights: each score becomes e (about 2.72) to the power of the score, which is always positive, then each is divided by the total, so the weights add up to 1.',
  entropy:
    'How spread out a row of weights is. 0 means all attention on one token; larger means it is shared among more tokens.',
  nats: 'The unit of entropy when it is measured with the natural logarithm (ln) instead of log base 2 (bits).',
  'effective tokens':
    'How many tokens a row really listens to: e raised to the entropy. Equal weights on 4 tokens give exactly 4.',
  loss: 'How surprised a model is by the right answer: here the average of −ln(the probability it gave the real next character), in nats. Lower is better.',
  'peak weight': 'The largest weight in a row: the share of attention its favourite token gets.',
  variance:
    'The average squared distance of random numbers from their mean. Its square root, the spread, is their typical size.',
  gradient:
    'How much, and which way, the loss would change if a number inside changed a little. Training nudges each number the way that lowers the loss.',
  'fused kernel':
    'One routine that computes attention tile by tile without ever storing the whole table of scores, to save memory.',
  float64:
    'Numbers stored with 64 bits (about 16 correct digits). The page computes in float32 (about 7 digits) and checks against float64.',
  float32:
    'Numbers stored with 32 bits: about 7 correct digits. This page computes in float32; big models often use 16-bit numbers and add them up in float32.',
  'causal mask':
    'The rule that a token may not look at tokens after it: their scores become −∞, so their weights are exactly 0.',
  'head width':
    'd, how many numbers each query and key holds. Wider heads can describe more, and their dot products grow larger.',
  seed: 'The starting number of the random generator: the same seed always draws the same random numbers.',
  'positional encoding':
    'Information about where a token stands in the text, added to it or applied to its query and key.',
  RoPE: 'Rotary position embedding: turns each pair of numbers in q and k by an angle set by the position, so scores depend on the distance between tokens.',
});

let counter = 0;

const MARGIN = 8; // px kept free between a definition and the viewport's edge

// Where a definition of size { width, height } goes for a word at anchor (a DOMRect-like
// { left, top, bottom }) in a viewport { width, height }: under the word, or above it when
// it does not fit below, and shifted left or right so that it stays inside the viewport.
export function definitionPosition(anchor, size, viewport) {
  const widest = viewport.width - 2 * MARGIN;
  const width = Math.min(size.width, widest);
  const left = Math.min(Math.max(anchor.left, MARGIN), viewport.width - MARGIN - width);
  const below = anchor.bottom + 4;
  const fitsBelow = below + size.height <= viewport.height - MARGIN;
  const above = anchor.top - 4 - size.height;
  const top = fitsBelow || above < MARGIN ? below : above;
  return { left, top, width };
}

function place(definition, button) {
  definition.style.maxWidth = `${window.innerWidth - 2 * MARGIN}px`;
  const spot = definitionPosition(
    button.getBoundingClientRect(),
    { width: definition.offsetWidth, height: definition.offsetHeight },
    { width: window.innerWidth, height: window.innerHeight },
  );
  definition.style.left = `${spot.left}px`;
  definition.style.top = `${spot.top}px`;
}

function closeOnEscape(event, open) {
  if (event.key === 'Escape') open(false);
}

// Makes `button` (holding the term's words) open its definition. Returns the wrapper.
function attach(wrapper, button, name) {
  const definition = document.createElement('span');
  counter += 1;
  definition.id = `term-definition-${counter}`;
  definition.className = 'term-definition';
  definition.setAttribute('role', 'tooltip');
  definition.textContent = GLOSSARY[name];
  definition.hidden = true;
  button.setAttribute('aria-describedby', definition.id);
  button.setAttribute('aria-expanded', 'false');
  let pinned = false;
  const follow = () => place(definition, button);
  const open = (shown) => {
    definition.hidden = !shown;
    button.setAttribute('aria-expanded', String(shown));
    if (!shown) pinned = false;
    // Fixed to the viewport, so it follows its word while the page scrolls. While open it
    // lives in <body>: inside a section with content-visibility (paint containment) "fixed"
    // would be relative to the section, not the viewport.
    (shown ? document.body : wrapper).append(definition);
    if (shown) follow();
    window[shown ? 'addEventListener' : 'removeEventListener']('scroll', follow, true);
    window[shown ? 'addEventListener' : 'removeEventListener']('resize', follow);
  };
  button.addEventListener('click', () => {
    pinned = !pinned;
    open(pinned);
  });
  button.addEventListener('pointerenter', () => open(true));
  button.addEventListener('pointerleave', () => pinned || open(false));
  button.addEventListener('focus', () => open(true));
  button.addEventListener('blur', () => open(false));
  button.addEventListener('keydown', (event) => closeOnEscape(event, open));
  wrapper.append(definition);
  return wrapper;
}

// A term for a figure's own text: <span class="term-wrap"><button class="term">…</button>…</span>
export function termElement(name, words = name) {
  const wrapper = document.createElement('span');
  wrapper.className = 'term-wrap';
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'term';
  button.textContent = words;
  wrapper.append(button);
  return attach(wrapper, button, name);
}

// Upgrades every <span class="term" data-term="…"> of the narrative in place.
export function setupGlossary(root) {
  for (const span of root.querySelectorAll('span.term[data-term]')) {
    const name = span.dataset.term;
    if (!GLOSSARY[name]) continue;
    span.replaceWith(termElement(name, span.textContent));
  }
}

// Renders model text segments: strings stay text, { term, text } become glossary terms.
export function segmentsToNodes(segments) {
  return segments.map((segment) =>
    typeof segment === 'string'
      ? document.createTextNode(segment)
      : termElement(segment.term, segment.text ?? segment.term),
  );
}
