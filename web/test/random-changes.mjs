// The soak's random changes to the map's controls, shared by web/test/soak.test.mjs (which checks
// the page after them) and bench/page-speed.mjs (which times the page's longest task during
// them): text, tokens, d, seed, scale, mask, vectors, recipe and positions, valid and not, each
// applied in the page as a person's input would fire it.

// mulberry32: a small seeded generator, so a failing soak can be replayed with SOAK_SEED.
export function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz ABCDE,.;!?\n';
export function randomText(random, length) {
  let text = '';
  for (let i = 0; i < length; i++) text += ALPHABET[Math.floor(random() * ALPHABET.length)];
  return text;
}

// One random change: { selector, kind: 'fill' | 'select' | 'click', value }.
export function randomChange(random) {
  const pick = (choices) => choices[Math.floor(random() * choices.length)];
  const roll = random();
  if (roll < 0.3) {
    const length = random() < 0.03 ? 900 + Math.floor(random() * 100) : Math.floor(random() * 120);
    const text = pick([
      () => randomText(random, length),
      () => randomText(random, length),
      () => '', // refused: no tokens
      () => 'x'.repeat(4100), // refused: over the page's text limit
      () => `${randomText(random, 8)} €🙂`, // the trained head refuses these characters
      () => randomText(random, 70), // the trained head refuses more than 64 characters
    ])();
    return { selector: '#map-text', kind: 'fill', value: text };
  }
  if (roll < 0.5) {
    const d =
      random() < 0.7
        ? String(1 + Math.floor(random() * 128))
        : pick(['512', '1024', '0', '-3', 'abc', '2.5', '1e9', '']);
    return { selector: '#map-d', kind: 'fill', value: d };
  }
  if (roll < 0.6) {
    const seed = random() < 0.8 ? String(Math.floor(random() * 1e6)) : pick(['-1', 'x', '1.5']);
    return { selector: '#map-seed', kind: 'fill', value: seed };
  }
  if (roll < 0.68)
    return { selector: '#map-scale', kind: 'select', value: pick(['sqrt', 'd', 'none', 'custom']) };
  if (roll < 0.72)
    return { selector: '#map-factor', kind: 'fill', value: String(-3 + 4 * random()) };
  if (roll < 0.78) return { selector: '#map-causal', kind: 'click' };
  if (roll < 0.85)
    return {
      selector: '#map-vectors',
      kind: 'select',
      value: pick(['position', 'token', 'trained']),
    };
  if (roll < 0.92)
    return { selector: '#map-pos', kind: 'select', value: pick(['none', 'sinusoidal', 'rope']) };
  if (roll < 0.96)
    return { selector: '#map-tokens', kind: 'select', value: pick(['chars', 'words']) };
  return { selector: '#map-init', kind: 'select', value: pick(['tutorial', 'standard']) };
}

// In the page: each change as a person's input would fire it; a resting (disabled) control is
// left alone, as a person could not touch it.
export function applyInPage(changes) {
  for (const { selector, kind, value } of changes) {
    const element = document.querySelector(selector);
    if (!element || element.disabled) continue;
    if (kind === 'click') {
      element.click();
    } else {
      element.value = value;
      element.dispatchEvent(new Event(kind === 'fill' ? 'input' : 'change', { bubbles: true }));
    }
  }
}
