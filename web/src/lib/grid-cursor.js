// A cursor over a T×T grid drawn on a canvas, driven by mouse, touch and keyboard alike:
// hovering or tapping a cell picks it, arrow keys / Home / End move it, focus shows it, a
// mouse leaving (or focus leaving) clears it. A tap leaves its cell picked: a finger has no
// hover. The owner decides what picking means (here: dispatching the highlight).
import { moveCursor } from './grid.js';

// canvas: a focusable element; size(): T, or 0 while there is nothing to point at;
// cellUnder(event): { row, col } | null; pick(cell | null). Returns detach().
export function attachGridCursor(canvas, { size, cellUnder, pick }) {
  let cursor = { row: 0, col: 0 };
  const onPointer = (event) => {
    const cell = size() ? cellUnder(event) : null;
    if (!cell) return;
    cursor = cell; // the focus that follows a tap keeps this cell
    pick(cursor);
  };
  const onLeave = (event) => {
    if (event.pointerType === 'mouse' && document.activeElement !== canvas) pick(null);
  };
  const onFocus = () => {
    const T = size();
    if (!T) return;
    cursor = { row: Math.min(cursor.row, T - 1), col: Math.min(cursor.col, T - 1) };
    pick(cursor);
  };
  const onBlur = () => pick(null);
  const onKey = (event) => {
    const moved = size() ? moveCursor(cursor, event.key, { rows: size() }) : null;
    if (!moved) return;
    event.preventDefault();
    cursor = moved;
    pick(cursor);
  };
  const listeners = [
    ['pointermove', onPointer],
    ['pointerdown', onPointer],
    ['pointerleave', onLeave],
    ['focus', onFocus],
    ['blur', onBlur],
    ['keydown', onKey],
  ];
  for (const [type, listener] of listeners) canvas.addEventListener(type, listener);
  return () => {
    for (const [type, listener] of listeners) canvas.removeEventListener(type, listener);
  };
}
