// Section 3, the four lines, as data: from the map's state and its core.attentionMap()
// result to the code lines, the grid of one line's intermediate (labels, cell texts and
// colours), the sentence above it and the readout that plugs a cell's real numbers into its
// formula. Pure: no DOM, runs in Node. Every number comes from the core's result; softmax is
// never redone here (a weight's row max and row sum are the core's rowMax and rowSum).
import { compact, fixed, scientific, visibleToken } from '../../lib/format.js';
import { magma } from '../../lib/magma.js';
import { largestWeight } from '../../lib/map-statistics.js';
import { CUSTOM, INVERSE_D, INVERSE_SQRT_D, scaleLabel, UNSCALED } from '../../lib/scale.js';

export const MAX_TOKENS = 16; // rows and key columns shown (the tutorial's 13 all fit)
export const MAX_DIMENSIONS = 8; // output columns shown
const TERMS_SHOWN = 3; // terms of a long sum written out in the readout
const NEGATIVE = [33, 102, 172]; // diverging ends (RdBu), blended from the page's surface colour
const POSITIVE = [178, 24, 43];
const DARK_TEXT = [29, 29, 31];
const LIGHT_TEXT = [255, 255, 255];
const SUBSCRIPTS = '₀₁₂₃₄₅₆₇₈₉';

export const STEPS = Object.freeze([
  { name: 'scores', matrix: 'scaledScores', colours: 'diverging' },
  { name: 'mask', matrix: 'maskedScores', colours: 'diverging' },
  { name: 'weights', matrix: 'weights', colours: 'magma' },
  { name: 'output', matrix: 'output', colours: 'diverging' },
]);

// ---- numbers as people write them --------------------------------------------------------
const minus = (text) => text.replace(/-/g, '−');
// Three decimals, or scientific when that would print as zero.
export const plain = (value) =>
  minus(value !== 0 && Math.abs(value) < 0.001 ? scientific(value, 2) : fixed(value, 3));
const inParentheses = (value) => `(${plain(value)})`;
const significant = (value) =>
  Number.isFinite(value) ? minus(String(Number(value.toPrecision(3)))) : '—';
export const subscript = (n) => [...String(n)].map((digit) => SUBSCRIPTS[digit]).join('');
const quoted = (token) => `“${visibleToken(token)}”`;

// ---- the scale: { mode, factor } (lib/scale.js) -------------------------------------------
const SCALE_CODE = { [INVERSE_SQRT_D]: ' / sqrt(d)', [INVERSE_D]: ' / d', [UNSCALED]: '' };
const scaleCode = (scale) =>
  scale.mode === CUSTOM ? ` * ${scale.factor}` : SCALE_CODE[scale.mode];

// The four lines of code, following the live scale and mask.
export function codeLines(state) {
  return [
    {
      code: `scores  = q @ k.T${scaleCode(state.scale)}`,
      comment: '# how well each query fits each key',
    },
    {
      code: 'scores  = scores.masked_fill(mask, -inf)',
      comment: state.causal ? '# later tokens are off limits' : '# mask is off: nothing hidden',
      inactive: !state.causal,
    },
    { code: 'weights = softmax(scores, dim=-1)', comment: '# each row: shares adding to 1' },
    { code: 'out     = weights @ v', comment: '# blend the values by those shares' },
  ];
}

// "1/√d = 1/√24 = 0.204": the scale that was actually used, by name and value.
export function scaleName(state, result) {
  const { mode } = state.scale;
  const value = significant(result.scaleFactor);
  const label = scaleLabel(state.scale);
  if (mode === INVERSE_SQRT_D) return `${label} = 1/√${result.d} = ${value}`;
  if (mode === INVERSE_D) return `${label} = 1/${result.d} = ${value}`;
  if (mode === UNSCALED) return 'none (factor 1)';
  return `a custom factor, ${value}`;
}

// Which sentence the figure runs on: always the map's, named here so nobody has to guess.
export function sentenceNote(state, result) {
  const text = state.text.length > 40 ? `${state.text.slice(0, 40)}…` : state.text;
  const tutorial = state.text === 'To be, or not' && state.tokens === 'chars';
  const origin = tutorial ? 'the tutorial’s example, also the map’s' : 'the map’s sentence';
  return `Input: “${text}” (${origin} in section 4): ${result.T} token${result.T === 1 ? '' : 's'}, head width d = ${result.d}.`;
}

// The map's result keeps the working (scores and output) of its first workingRows queries only.
export function shape(result, stepName) {
  const rows = Math.min(result.workingRows, MAX_TOKENS);
  const isOutput = stepName === 'output';
  const width = result.v.length / result.T;
  const cols = isOutput ? Math.min(width, MAX_DIMENSIONS) : rows;
  return { rows, cols, isOutput, width, stride: isOutput ? width : result.T };
}

// Said under the grid when it is wider than its box.
export function scrollCue(gridShape) {
  const what = gridShape.isOutput ? 'dimensions' : 'keys';
  return `Scroll sideways for all ${gridShape.cols} ${what} →`;
}

// ---- colours ------------------------------------------------------------------------------
function luminance([r, g, b]) {
  const channel = (c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function contrast(a, b) {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

// Dark or light text, whichever contrasts more with the background.
export function textFor(background) {
  return contrast(background, DARK_TEXT) >= contrast(background, LIGHT_TEXT)
    ? DARK_TEXT
    : LIGHT_TEXT;
}

const blend = (from, to, t) => from.map((c, i) => c + (to[i] - c) * t);

// Mid-tones (luminance near 0.2) reach 4.5:1 with neither black nor white text, so such a
// background is pulled toward white or black until its best text colour passes WCAG AA.
export function readableBackground(background) {
  const text = textFor(background);
  const away = text === DARK_TEXT ? LIGHT_TEXT : DARK_TEXT;
  let adjusted = background;
  for (let t = 0.1; contrast(adjusted, text) < 4.5 && t <= 1; t += 0.1)
    adjusted = blend(background, away, t);
  return adjusted;
}

export const css = ([r, g, b]) => `rgb(${Math.round(r)}, ${Math.round(g)}, ${Math.round(b)})`;

// The colour scale of one step over the shown cells: magma from 0 to the largest weight for
// the weights (as in the map), blue–white–red around 0 for the others. Both score lines share
// the unmasked range, so the mask visibly changes only the masked cells.
export function colourScale(result, step, gridShape, surface) {
  if (step.colours === 'magma') {
    const top = largestWeight(result);
    return { low: 0, high: top, colour: (v) => magma(v / top) };
  }
  const source = step.matrix === 'maskedScores' ? result.scaledScores : result[step.matrix];
  let reach = 0;
  for (let r = 0; r < gridShape.rows; r += 1) {
    for (let c = 0; c < gridShape.cols; c += 1) {
      const value = source[r * gridShape.stride + c];
      if (Number.isFinite(value)) reach = Math.max(reach, Math.abs(value));
    }
  }
  reach ||= 1;
  return {
    low: -reach,
    high: reach,
    colour: (v) => blend(surface, v < 0 ? NEGATIVE : POSITIVE, Math.min(1, Math.abs(v) / reach)),
  };
}

// Weights: an exact 0 (a masked key, or one that underflowed) prints as "0", a tiny but real
// weight as "<0.01" (the readout has its exact value), so the grid stays readable.
export function cellText(value, stepName) {
  if (stepName !== 'weights') return compact(value);
  if (value === 0) return '0';
  return value < 0.005 ? '<0.01' : fixed(value, 2);
}

// Everything the grid shows: labels, and per cell its text and colours (null when masked).
export function gridModel(result, stepName, surface) {
  const step = STEPS.find((s) => s.name === stepName);
  const grid = shape(result, stepName);
  const scale = colourScale(result, step, grid, surface);
  const values = result[step.matrix];
  const rows = Array.from({ length: grid.rows }, (_, r) => ({
    label: visibleToken(result.tokens[r]),
    cells: Array.from({ length: grid.cols }, (_, c) => {
      const value = values[r * grid.stride + c];
      if (!Number.isFinite(value)) return { text: cellText(value, stepName), masked: true };
      const background = readableBackground(scale.colour(value));
      return {
        text: cellText(value, stepName),
        background: css(background),
        color: css(textFor(background)),
      };
    }),
  }));
  const columns = Array.from({ length: grid.cols }, (_, c) =>
    grid.isOutput ? String(c) : visibleToken(result.tokens[c]),
  );
  const stops = Array.from({ length: 9 }, (_, i) =>
    css(scale.colour(scale.low + ((scale.high - scale.low) * i) / 8)),
  );
  return {
    shape: grid,
    columns,
    rows,
    caption: grid.isOutput
      ? 'Output: rows are query tokens, columns are output dimensions.'
      : `${stepName}: rows are query tokens (attending), columns are key tokens (attended to).`,
    corner: grid.isOutput ? ['query ↓', 'dim →'] : ['query ↓', 'key →'],
    legend: { low: compact(scale.low), high: compact(scale.high), stops },
  };
}

// ---- the sentence above the grid, with live numbers ---------------------------------------
// The scores' spread (root mean square over the rows the result kept, every row of a short
// text): section 5 promises about 1 under 1/√d for queries and keys of spread 1, which the
// tutorial's recipe does not draw.
export function scoreSpread(result) {
  const scores = result.scaledScores;
  let sum = 0;
  // An index loop: for…of over a typed array of a million scores is about 20 times slower.
  for (let i = 0; i < scores.length; i++) sum += scores[i] * scores[i];
  return Math.sqrt(sum / scores.length);
}

function spreadSentence(result, state) {
  const spread = scoreSpread(result);
  const rows = result.workingRows < result.T ? ` over the first ${result.workingRows} rows` : '';
  const text = `Their spread (typical size)${rows} is ${fixed(spread, 1)}.`;
  // The trained head (vectors=trained) keeps init in its state for later, but has no recipe.
  const tutorialRecipe = (state.init ?? 'tutorial') === 'tutorial' && state.vectors !== 'trained';
  if (!(spread > 2) || !tutorialRecipe || state.scale.mode !== INVERSE_SQRT_D) return text;
  return `${text} That is far above 1 because the tutorial's recipe makes queries and keys grow with d (its weight matrices are 0.5·randn(d, d)); section 5 shows what large scores do to the softmax.`;
}

export function summary(result, state, stepName) {
  const { T } = result;
  const grid = shape(result, stepName);
  const clipped = T > grid.rows ? ` Showing the first ${grid.rows} of ${T} tokens.` : '';
  if (stepName === 'scores') {
    const scaling =
      state.scale.mode === UNSCALED ? 'left unscaled' : `scaled by ${scaleName(state, result)}`;
    return `A ${T} × ${T} table of scores: one row per query, one column per key, ${scaling}.${clipped} ${spreadSentence(result, state)}`;
  }
  if (stepName === 'mask') {
    if (!state.causal)
      return `The causal mask is off (section 4), so this line changes nothing: every key stays visible.${clipped}`;
    return `${(T * (T - 1)) / 2} of the ${T * T} scores, everything right of the diagonal, are now −∞ (minus infinity: a score so low that its weight comes out exactly 0).${clipped}`;
  }
  if (stepName === 'weights') {
    let peak = 0;
    for (const value of result.peakWeight) peak += value;
    return `Every row now adds up to 1. On average a row gives ${fixed(peak / T, 2)} to its favourite key.${clipped}`;
  }
  const shown = [];
  if (T > grid.rows) shown.push(`the first ${grid.rows} of ${T} tokens`);
  if (grid.width > grid.cols) shown.push(`dimensions 1–${grid.cols} of ${grid.width}`);
  const showing = shown.length ? ` Showing ${shown.join(' and ')}.` : '';
  return `A ${T} × ${grid.width} output: each token's new vector, a weighted blend of the rows of v.${showing}`;
}

// ---- what one cell means, with its real numbers -------------------------------------------
export function cellLabel(result, stepName, row, col) {
  const { tokens } = result;
  if (stepName === 'output')
    return `out${subscript(row + 1)} (query ${quoted(tokens[row])}), dimension ${col + 1}`;
  return `row ${row + 1} (query ${quoted(tokens[row])}), column ${col + 1} (key ${quoted(tokens[col])})`;
}

function explainScore(result, state, i, j) {
  const { T, d, q, k } = result;
  const terms = [];
  for (let c = 0; c < Math.min(d, TERMS_SHOWN); c += 1)
    terms.push(`${inParentheses(q[i * d + c])}${inParentheses(k[j * d + c])}`);
  const rest = d > TERMS_SHOWN ? ` + … ${d - TERMS_SHOWN} more` : '';
  return [
    `q${subscript(i + 1)}·k${subscript(j + 1)} = Σ over ${d} dimension${d === 1 ? '' : 's'} c of q[${i + 1}, c]·k[${j + 1}, c]`,
    `      = ${terms.join(' + ')}${rest} = ${plain(result.rawScores[i * T + j])}`,
    `× scale ${scaleName(state, result)} → ${plain(result.scaledScores[i * T + j])}`,
  ];
}

function explainMask(result, state, i, j) {
  const kept = plain(result.maskedScores[i * result.T + j]);
  if (!state.causal) return [`The causal mask is off → kept: ${kept}`];
  const key = quoted(result.tokens[j]);
  if (j > i) return [`j = ${j + 1} > i = ${i + 1}: key ${key} comes after this query → −∞`];
  return [`j = ${j + 1} ≤ i = ${i + 1}: key ${key} is not in the future → kept: ${kept}`];
}

// The core returns each row's largest score and its sum of exp(score − max), so the readout
// shows the softmax's own numbers: numerator = weight × sum, no exponent redone here.
function explainWeight(result, _state, i, j) {
  const { T } = result;
  const score = result.maskedScores[i * T + j];
  const weight = result.weights[i * T + j];
  if (!Number.isFinite(score))
    return [`exp(−∞) = 0, so a masked key gets weight exactly ${plain(weight)}`];
  if (!result.rowMax || !result.rowSum)
    return [`softmax of row ${i + 1} at column ${j + 1} = ${plain(weight)}`];
  const max = result.rowMax[i];
  const sum = result.rowSum[i];
  return [
    `exp(${plain(score)} − max ${plain(max)}) / Σ row = ${plain(weight * sum)} / ${plain(sum)} = ${plain(weight)}`,
    "Subtracting the row's largest score first changes nothing but keeps exp() from overflowing.",
  ];
}

function explainOutput(result, _state, i, c) {
  const { T } = result;
  const width = result.v.length / T;
  const keys = [];
  for (let j = 0; j < T; j += 1) if (result.weights[i * T + j] > 0) keys.push(j); // masked keys add exactly 0
  keys.sort((a, b) => result.weights[i * T + b] - result.weights[i * T + a]);
  const terms = keys
    .slice(0, TERMS_SHOWN)
    .map((j) => `${plain(result.weights[i * T + j])}·${inParentheses(result.v[j * width + c])}`);
  const rest = keys.length > TERMS_SHOWN ? ` + … ${keys.length - TERMS_SHOWN} more` : '';
  return [
    `out${subscript(i + 1)}[${c + 1}] = Σ over keys j of w[${i + 1}, j] · v[j, ${c + 1}], largest weights first`,
    `      = ${terms.join(' + ')}${rest} = ${plain(result.output[i * width + c])}`,
  ];
}

const EXPLAIN = {
  scores: explainScore,
  mask: explainMask,
  weights: explainWeight,
  output: explainOutput,
};

// The readout's text for one cell: its name, then its arithmetic.
export function readout(result, state, stepName, row, col) {
  const lines = EXPLAIN[stepName](result, state, row, col);
  return [cellLabel(result, stepName, row, col), ...lines].join('\n');
}

// Whether a { row, col } cell is inside the grid as shown.
export const fits = (cell, gridShape) =>
  Boolean(cell) && cell.row < gridShape.rows && cell.col < gridShape.cols;

// The page's highlighted query/key pair as a cell of this grid, if it shows that pair (the
// output grid's columns are dimensions, not keys).
export function sharedCell(highlight, gridShape) {
  if (!highlight || highlight.query == null || gridShape.isOutput) return null;
  const cell = { row: highlight.query, col: highlight.key };
  return fits(cell, gridShape) ? cell : null;
}

// The keyboard cursor, kept inside the grid; it starts on the last row at key 1, a row that
// sees every key.
export function fitCursor(cursor, gridShape) {
  const start = cursor || { row: gridShape.rows - 1, col: 1 };
  return {
    row: Math.min(start.row, gridShape.rows - 1),
    col: Math.min(start.col, gridShape.cols - 1),
  };
}

// The cell the readout explains: the one pointed at here, else the pair highlighted anywhere
// on the page (when this grid shows it), else the keyboard cursor.
export function target({ hovered, highlight, cursor }, gridShape) {
  return hovered || sharedCell(highlight, gridShape) || cursor;
}
