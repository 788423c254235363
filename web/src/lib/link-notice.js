// The notice a figure shows when its part of the link had values it could not use (the page's
// usual sentences, web/src/link.js readKeys): at the top of the figure, as the map shows its
// own, with a Dismiss button. Returns show(messages): an empty list hides it.
export function linkNotice(figure) {
  const box = document.createElement('div');
  box.className = 'notice link-notice';
  box.setAttribute('role', 'status');
  box.hidden = true;
  figure.prepend(box);
  const show = (messages) => {
    box.hidden = messages.length === 0;
    const lines = messages.map((text) =>
      Object.assign(document.createElement('p'), { textContent: text }),
    );
    if (messages.length) {
      const dismiss = Object.assign(document.createElement('button'), {
        type: 'button',
        textContent: 'Dismiss',
      });
      dismiss.addEventListener('click', () => show([]));
      lines.push(dismiss);
    }
    box.replaceChildren(...lines);
  };
  return show;
}
