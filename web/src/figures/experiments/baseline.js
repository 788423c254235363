// The core's result for an experiment's baseline state, computed once per core and shared by
// the two places that show the note (beside the map and in section 7).
const caches = new WeakMap(); // core -> Map(experiment id -> result | null)

export function baselineOf(core, experiment) {
  if (!caches.has(core)) caches.set(core, new Map());
  const cache = caches.get(core);
  if (!cache.has(experiment.id)) {
    try {
      cache.set(experiment.id, core.attentionMap({ ...experiment.baseline, detail: 'all' }));
    } catch {
      cache.set(experiment.id, null); // no baseline, no note: never a note with a missing number
    }
  }
  return cache.get(experiment.id);
}
