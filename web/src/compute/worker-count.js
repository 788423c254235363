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

// How many workers grow section 9's head together (figures/copying/grower.js): one where the
// device reports fewer than four cores, else as many as its cores but one (the page's own) allow,
// rounded down to a power of two that divides the step's `shares` (a worker takes an aligned
// block of them: cpp/learning/layered/growth.hpp). On two cores a second worker only shares the
// same two with the first and the page (web/test/growth.test.mjs measures the two).
export function growthWorkers(shares, cores = globalThis.navigator?.hardwareConcurrency) {
  if (!Number.isInteger(cores) || cores < 4) return 1;
  let workers = 1;
  while (workers * 2 <= Math.min(shares, cores - 1) && shares % (workers * 2) === 0) workers *= 2;
  return workers;
}
