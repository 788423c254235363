// How many workers a figure's runs get: one per run where the device has the cores
// (navigator.hardwareConcurrency), fewer otherwise, the runs then sharing them; one where the
// browser does not say.
export function workerCount(runs, cores = globalThis.navigator?.hardwareConcurrency) {
  return Math.max(1, Math.min(runs, Number.isInteger(cores) && cores > 0 ? cores : 1));
}
