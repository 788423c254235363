// The page's one grown head: section 9's grow panel drives it and section 4's map shows its
// layer 2 (vectors=grown-2), so main.js makes it once and hands it to both through the mount
// context. It wraps the grower (grower.js) with listeners: each is told of every change of the
// run (its status, its step) and every change of the model.
// createGrownHead(learning) → { grower, listen(fn) → unlisten, grow(settings),
// mapFor(settings, fields) → { compute, channel, request } | null }.
import { growthWorkers } from '../../compute/worker-count.js';
import { createGrower, SHARES, stepChannel } from './grower.js';

// The map's own channel beside the steps', on the worker whose copy the maps read (learning.js):
// a map asked for there never overtakes a step, nor a step the map.
export const MAP_CHANNEL = `${stepChannel(0)}/map`;

// As many as asked, halved until learning has that many workers (it stays a power of two).
function fitting(workers, available) {
  let fit = workers;
  while (fit > available && fit > 1) fit /= 2;
  return fit;
}

// workers: how many take each step, never more than learning has.
export function createGrownHead(learning, workers = growthWorkers(SHARES)) {
  const listeners = new Set();
  const tell = (kind, growth) => {
    for (const listener of listeners) listener(kind, growth);
  };
  const grower = createGrower({
    compute: learning.compute,
    textFor: async () => (await learning.load()).shakespeare,
    onChange: (growth) => tell('change', growth),
    onModel: () => tell('model', grower.growth()),
    workers: fitting(workers, learning.workers ?? 1),
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
