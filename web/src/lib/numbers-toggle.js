// The "Show numbers" button of a figure: its table is always in the page for screen readers
// (visually hidden), and the button shows or hides it for everyone else.
export function numbersToggle(button, box) {
  button.addEventListener('click', () => {
    const open = button.getAttribute('aria-expanded') !== 'true';
    button.setAttribute('aria-expanded', String(open));
    button.textContent = open ? 'Hide numbers' : 'Show numbers';
    box.classList.toggle('sr-only', !open);
    // Scrollable when open, so it must take focus for keyboard scrolling; hidden, it must not.
    if (open) box.tabIndex = 0;
    else box.removeAttribute('tabindex');
  });
}
