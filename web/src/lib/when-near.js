// Calls `callback` once, when `element` comes within one screen of the viewport: how the page
// fetches what a later section needs (learning.js, torch-outputs.js) before a reader gets
// there, and not before. Returns a function that stops watching.
export function whenNear(element, callback) {
  const observer = new IntersectionObserver(
    ([entry]) => {
      if (!entry.isIntersecting) return;
      observer.disconnect();
      callback();
    },
    { rootMargin: '100% 0px' },
  );
  observer.observe(element);
  return () => observer.disconnect();
}
