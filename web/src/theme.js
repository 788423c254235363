// Light and dark themes. The default follows the system (prefers-color-scheme); the button
// overrides it and remembers the choice. Canvas figures listen for 'themechange' to redraw,
// reading their colours from CSS custom properties (see cssColor()).

const dark = matchMedia('(prefers-color-scheme: dark)');

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

// The computed value of a CSS custom property, e.g. cssColor('--text').
export function cssColor(name) {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}
