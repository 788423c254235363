// Light and dark themes. The default follows the system (prefers-color-scheme); the button
// overrides it and remembers the choice. Canvas figures listen for 'themechange' to redraw,
// reading their colours from CSS custom properties (see cssColor()). The palette itself is
// in style.css, written once with light-dark().

const dark = matchMedia('(prefers-color-scheme: dark)');
const resolved = new Map(); // cssColor: name -> colour, in the current theme

function storedTheme() {
  try {
    return localStorage.getItem('theme');
  } catch {
    return null; // storage can be disabled (privacy settings, some file:// setups)
  }
}

export function currentTheme() {
  return document.documentElement.dataset.theme || (dark.matches ? 'dark' : 'light');
}

function apply(theme, button) {
  if (theme) document.documentElement.dataset.theme = theme;
  const next = currentTheme() === 'dark' ? 'light' : 'dark';
  button.textContent = `Switch to ${next} theme`;
  resolved.clear(); // before the figures redraw with the new colours
  document.dispatchEvent(new Event('themechange'));
}

export function setupTheme(button) {
  apply(storedTheme(), button);
  button.hidden = false;
  button.addEventListener('click', () => {
    const theme = currentTheme() === 'dark' ? 'light' : 'dark';
    try {
      localStorage.setItem('theme', theme);
    } catch {
      // not remembered, still applied
    }
    apply(theme, button);
  });
  dark.addEventListener('change', () => apply(null, button));
}

// The resolved colour of a CSS custom property, e.g. cssColor('--text') -> 'rgb(29, 29, 31)'.
// The properties hold light-dark(…, …), which only a colour property resolves, so a hidden
// probe element uses the property and its computed colour is read back. Each read makes the
// browser recompute styles (32 ms of main thread over one training run, read per frame), so
// a colour is read once per theme: apply() forgets them when the theme changes.
let probe = null;
export function cssColor(name) {
  if (resolved.has(name)) return resolved.get(name);
  if (!probe) {
    probe = document.createElement('span');
    probe.hidden = true;
    document.body.append(probe);
  }
  probe.style.color = `var(${name})`;
  resolved.set(name, getComputedStyle(probe).color);
  return resolved.get(name);
}

// The colours a letter map (lib/letter-map.js) draws with: its labels, its masked cells and the
// cell under the reader's pointer. The first screen, section 8 and section 9 draw one each.
export const letterMapColours = () => ({
  text: cssColor('--text'),
  mask: cssColor('--surface-2'),
  focus: cssColor('--focus'),
});
