// How many workers a figure's runs get: one per run, up to two per core the device reports
// (navigator.hardwareConcurrency), the runs then sharing them; two where the browser does not
// say. Two per core rather than one because runs differ in cost (section 6's model with no head
// costs a fifth of a head): with a worker each, the system shares the cores out evenly until
// the last run ends, instead of leaving one core idle while another worker still has two runs.
export function workerCount(runs, cores = globalThis.navigator?.hardwareConcurrency) {
  const known = Number.isInteger(cores) && cores > 0 ? cores : 1;
  return Math.max(1, Math.min(runs, 2 * known));
}

// Section 6's runs at once: the no-head baseline and three heads (figures/training/model.js's
// RUNS; web/test/unit/training.test.mjs holds the two equal). A number here, so that the page's
// first bundle need not carry the training figure, which loads with the later sections.
export const TRAINING_RUNS = 4;
