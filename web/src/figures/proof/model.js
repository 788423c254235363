// The proof panel as data: the tutorial's two printed lines, this page's two lines from the
// core's live equivalence check, what each compares and why their last digits differ, and
// the table of every comparison. Pure: no DOM, runs in Node.
import { exactly, fixed, scientific } from '../../lib/format.js';

// As the tutorial printed them: its own four lines in PyTorch against PyTorch's
// F.scaled_dot_product_attention, on the tutorial author's machine (which backend that call
// ran there, the tutorial does not say).
export const TUTORIAL_LINES = Object.freeze([
  'causal=False  max|mine - F.sdpa| = 5.07e-07  OK',
  'causal=True   max|mine - F.sdpa| = 4.47e-07  OK',
]);

// float32's rounding step for numbers between 1 and 2 (2^-23), the largest it is for the
// outputs here: most of them are smaller than 1, where the step is half this or less.
export const FLOAT32_STEP = 2 ** -23;

export const COMPARES = Object.freeze({
  tutorial:
    'The tutorial compared its four lines, run by PyTorch, with PyTorch’s own attention function, F.scaled_dot_product_attention, both on its author’s computer.',
  ours: 'This page compares its own four lines, run in float32 (numbers with about 7 significant digits) by the C++ core in your browser, with the outputs of PyTorch 1.13’s reference attention (the plain maths: two matrix products and a softmax) for the same inputs, stored with this page.',
});

// Why the two pairs of numbers are not the same, with our live numbers, as parts: strings
// and { number } (printed unbroken, so 7.15e-07 never splits at its minus sign).
export function whyDigitsDiffer(results, tolerance) {
  const largest = Math.max(...results.map((r) => r.formulaVsTorch));
  const times = Math.max(1, Math.round(largest / FLOAT32_STEP));
  const ours =
    largest === 0
      ? [
          'Each number is the largest gap among the 1,024 outputs (2 × 16 × 32). Ours is exactly 0 (float32’s rounding step for numbers between 1 and 2 is ',
        ]
      : [
          'Each number is the largest gap among the 1,024 outputs (2 × 16 × 32). Ours, ',
          { number: scientific(largest) },
          `, is about ${times === 1 ? '' : `${times} times `}float32’s rounding step for numbers between 1 and 2 (`,
        ];
  return [
    ...ours,
    { number: scientific(FLOAT32_STEP) },
    '); most outputs here are below 1, where the step is smaller. Which output has the largest gap, and by how much, depends on the order each program adds up its sums, and that order differs between PyTorch versions, processors and this page’s code. What must agree is the size: both are far below the tolerance of ',
    { number: scientific(tolerance, 0) },
    '.',
  ];
}

// PyTorch's outputs arrive in torch-outputs.js when the section comes near: what the panel
// says until the check has run, and when that file cannot load.
export const OUTPUTS = 'PyTorch’s outputs for the check';
export const WAITING =
  'The check runs as this section comes into view, once PyTorch’s outputs have loaded.';

export const RERUN_LABEL = 'Run the check again';

export function couldNotRun(message) {
  return `The check could not run: ${message}`;
}

export function couldNotLoad(message) {
  return `${couldNotRun(message)}. Press “${RERUN_LABEL}” to retry.`;
}

export function ourLines(results) {
  return results.map((result) => result.line);
}

export function timing(ms) {
  return `(${fixed(ms, 1)} ms in your browser; B = 2, T = 16, d = 32, seed 0)`;
}

// The table: for each mask setting, the largest difference from the four-line formula.
export function detailTable(results) {
  return {
    caption: 'Largest difference from the four-line formula, per comparison',
    head: ['mask', 'vs PyTorch', 'vs fused kernel', 'vs float64'],
    rows: results.map((r) => [
      r.causal ? 'causal' : 'no mask',
      exactly(r.formulaVsTorch, scientific),
      exactly(r.formulaVsFused, scientific),
      exactly(r.formulaVsFloat64, scientific),
    ]),
  };
}
