// The page's one grown head: section 9's grow panel drives it and section 4's map shows its
// layer 2 (vectors=grown-2), so main.js makes it once and hands it to both through the mount
// context. It wraps the grower (grower.js) with listeners: each is told of every change of the
// run (its status, its step) and every change of the model.
// createGrownHead(learning) → { grower, listen(fn) → unlisten, grow(settings),
// mapFor(settings, fields) → { compute, channel, request } | null }.
import { createGrower } from './grower.js';

// The map's own channel beside the steps' ('grow'), on the same worker (learning.js): a map asked
// for there never overtakes a step, nor a step the map.
export const MAP_CHANNEL = 'grow/map';

export function createGrownHead(learning) {
  const listeners = new Set();
  const tell = (kind, growth) => {
    for (const listener of listeners) listener(kind, growth);
  };
  const grower = createGrower({
    compute: learning.compute,
    textFor: async () => (await learning.load()).shakespeare,
    onChange: (growth) => tell('change', growth),
    onModel: () => tell('model', grower.growth()),
  });
  return {
    grower,
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    grow: (settings) => grower.start(settings),
    // The growthMap request for the run the link names ({ seed, steps }), or null while this page
    // has no such run (none yet, another seed or length, still starting, or failed).
    mapFor(settings, fields) {
      const growth = grower.growth();
      const same =
        growth?.settings.seed === settings.seed && growth?.settings.steps === settings.steps;
      const ask = same && grower.mapRequest(fields);
      return ask ? { ...ask, channel: MAP_CHANNEL, compute: learning.compute } : null;
    },
  };
}
