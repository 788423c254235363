// How long a worker has had to show that it runs, counted as the page could have heard it.
//
// A worker's messages reach the page only between the page's own tasks. On a slow device the
// page's first tasks (its core, its first figures) can hold the main thread for seconds, and a
// plain timer set for 5 s may then run before the worker's message, which arrived long before
// it, is even read: the page would give up on a worker that had started in time. This clock
// ticks every TICK_MS and counts at most two ticks however late a tick comes, so time the
// page spent busy is not counted against the worker: the limit stretches with the device.
const TICK_MS = 250;

// Calls onExpired once `limitMs` of such time has passed; returns a function that stops the
// clock. timers: { setTimeout, clearTimeout, now } (the page's own by default).
export function startClock(limitMs, onExpired, timers) {
  const now = timers.now ?? (() => performance.now());
  let counted = 0;
  let last = now();
  let handle = 0;
  const tick = () => {
    const time = now();
    counted += Math.min(time - last, 2 * TICK_MS);
    last = time;
    if (counted >= limitMs) onExpired();
    else handle = timers.setTimeout(tick, TICK_MS);
  };
  handle = timers.setTimeout(tick, TICK_MS);
  return () => timers.clearTimeout(handle);
}
