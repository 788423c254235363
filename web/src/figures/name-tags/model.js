// The name-tag room as data: five people in a tiny queue, each with a name tag (a key: a
// 2-number arrow) and something to hand over (a value: a colour, three numbers for red,
// green and blue). The reader's query is one more arrow. From the query, the sharpness and
// the core.formula() result, this builds every number, sentence, bar and colour the figure
// shows. Pure: no DOM, runs in Node. The core computes scores, weights and the blend; this
// file never redoes the softmax.
import { compact, fixed } from '../../lib/format.js';
import { customScale } from '../../lib/scale.js';

export const PEOPLE = Object.freeze([
  { word: 'cat', x: 1.6, y: 0.5, value: [0.93, 0.42, 0.09], colourName: 'orange' },
  { word: 'sat', x: 0.3, y: 1.7, value: [0.16, 0.42, 0.86], colourName: 'blue' },
  { word: 'on', x: -1.5, y: 0.8, value: [0.16, 0.62, 0.3], colourName: 'green' },
  { word: 'the', x: -0.8, y: -1.4, value: [0.58, 0.28, 0.7], colourName: 'purple' },
  { word: 'mat', x: 1.3, y: -1.1, value: [0.96, 0.8, 0.16], colourName: 'yellow' },
]);
export const START_QUERY = Object.freeze({ x: -0.4, y: 1.5 });
export const LIMIT = 3; // the query tip stays inside [-3, 3]²
export const SIZE = 320; // drawing size in SVG units
export const UNIT = SIZE / (2 * 3.3); // SVG units per unit of the plane
const SUBSCRIPTS = '₀₁₂₃₄₅₆₇₈₉';

// ---- the inputs to core.formula() ----------------------------------------------------------
// The query is repeated once per person so that row 0 of the result is "this query against
// every key"; every row is the same, and the figure reads row 0.
export function formulaInput(query, factor) {
  const n = PEOPLE.length;
  const q = new Float32Array(n * 2);
  for (let t = 0; t < n; t += 1) q.set([query.x, query.y], 2 * t);
  return {
    q,
    k: Float32Array.from(PEOPLE.flatMap((p) => [p.x, p.y])),
    v: Float32Array.from(PEOPLE.flatMap((p) => p.value)),
    T: n,
    d: 2,
    dV: 3,
    scale: customScale(factor),
    causal: false,
  };
}

// ---- numbers and geometry ------------------------------------------------------------------
export const number = (value, digits = 2) => fixed(value, digits).replace('-', '−');
const inParentheses = (value) => `(${number(value)})`;
export const subscript = (n) => [...String(n)].map((digit) => SUBSCRIPTS[digit]).join('');
export const clamp = (value) => Math.min(LIMIT, Math.max(-LIMIT, value));
export const round = (value) => Math.round(value * 100) / 100;
export const toSvgX = (x) => SIZE / 2 + x * UNIT; // plane (y up) to SVG (y down)
export const toSvgY = (y) => SIZE / 2 - y * UNIT;

// The sharpness slider moves the factor on a log scale, 0.1 … 10; the factor keeps three
// significant figures (as the map's does), so the link writes exactly the factor computed with.
export const FACTOR_RANGE = Object.freeze({ low: 0.1, high: 10 });
export const factorFromSlider = (position) => Number((10 ** Number(position)).toPrecision(3));
export const sliderFromFactor = (factor) => String(Math.round(100 * Math.log10(factor)) / 100);
export const factorText = (factor) => `× ${factor < 10 ? number(factor) : number(factor, 1)}`;

// The points of an arrowhead at (x, y) in SVG units, pointing along (dx, dy).
export function arrowHead(x, y, dx, dy, size) {
  const length = Math.hypot(dx, dy) || 1;
  const [ux, uy] = [dx / length, dy / length];
  const [baseX, baseY] = [x - ux * size, y - uy * size];
  const half = size * 0.55;
  return `${x},${y} ${baseX - uy * half},${baseY + ux * half} ${baseX + uy * half},${baseY - ux * half}`;
}

// The dashed drop from the query tip onto the line through key j: the dot product is the
// key's length times how far along that line the query reaches.
export function projection(query, j) {
  const key = PEOPLE[j];
  const length = Math.hypot(key.x, key.y);
  const [ux, uy] = [key.x / length, key.y / length];
  const along = query.x * ux + query.y * uy;
  const reach = Math.max(3.3, Math.abs(along));
  return {
    guide: [-ux * reach, -uy * reach, ux * reach, uy * reach],
    drop: [query.x, query.y, ux * along, uy * along],
  };
}

// ---- colours -------------------------------------------------------------------------------
export const colour = ([r, g, b]) =>
  `rgb(${[r, g, b].map((c) => Math.round(255 * Math.min(1, Math.max(0, c)))).join(', ')})`;
const vectorText = (v) => `(${[...v].map((c) => number(c)).join(', ')})`;

// ---- what the figure prints ----------------------------------------------------------------
// The person the readout explains: the one pointed at or focused, else the best match.
export function activePerson(result, hovered, focused) {
  if (hovered >= 0) return hovered;
  if (focused >= 0) return focused;
  let best = 0;
  for (let j = 1; j < PEOPLE.length; j += 1) if (result.weights[j] > result.weights[best]) best = j;
  return best;
}

export function bars(result) {
  return PEOPLE.map((person, j) => {
    const weight = result.weights[j];
    const score = result.rawScores[j];
    return {
      word: person.word,
      swatch: colour(person.value),
      fill: Math.max(0, Math.min(1, weight)),
      weight: number(weight),
      score: `q·k ${number(score)}`,
      label: `${person.word}, holding ${person.colourName}: weight ${number(weight)}, score q·k ${number(score)}`,
      arrowWidth: 1.5 + 5 * weight,
      arrowOpacity: 0.45 + 0.55 * Math.sqrt(weight),
    };
  });
}

export function sumText(result) {
  let total = 0;
  for (let j = 0; j < PEOPLE.length; j += 1) total += result.weights[j];
  return `Σ weights = ${number(total)}`;
}

// What the query takes home: the core's output row 0, a blend of the five colours by weight.
export function blend(result) {
  const output = result.output.subarray(0, 3);
  const order = PEOPLE.map((_p, j) => j).sort((a, b) => result.weights[b] - result.weights[a]);
  const terms = order
    .slice(0, 3)
    .map((j) => `${number(result.weights[j])} × ${PEOPLE[j].word}’s ${PEOPLE[j].colourName}`);
  return {
    colour: colour(output),
    segments: PEOPLE.map((p, j) => ({
      word: p.word,
      colour: colour(p.value),
      share: result.weights[j],
    })),
    text: `You take home ${terms.join(' + ')} + …`,
    numbers: `output = Σ weight × value = ${vectorText(output)} (red, green, blue)`,
  };
}

// The arithmetic of one person's weight, with the real numbers. The weight line uses the
// core's row max and row sum when it returns them (numerator = weight × sum).
export function explain(result, query, factor, j) {
  const person = PEOPLE[j];
  const scaled = result.scaledScores[j];
  const weight = result.weights[j];
  const lines = [
    `q·k${subscript(j + 1)} (“${person.word}”) = ${inParentheses(query.x)}${inParentheses(person.x)} + ${inParentheses(query.y)}${inParentheses(person.y)} = ${number(result.rawScores[j])}`,
    `× sharpness ${number(factor)} = ${number(scaled)}`,
  ];
  if (result.rowMax && result.rowSum) {
    const [max, sum] = [result.rowMax[0], result.rowSum[0]];
    lines.push(
      `weight = e^(${number(scaled)} − ${number(max)}) / Σ = ${compact(weight * sum)} / ${compact(sum)} = ${number(weight)}`,
    );
  } else {
    lines.push(`weight = softmax of the scores, entry ${j + 1} = ${number(weight)}`);
  }
  lines.push(
    `${person.word} hands over ${person.colourName} ${vectorText(person.value)}, times ${number(weight)}`,
  );
  return lines.join('\n');
}

export function announcement(result) {
  const order = PEOPLE.map((_p, j) => j).sort((a, b) => result.weights[b] - result.weights[a]);
  return `Weights: ${order.map((j) => `${PEOPLE[j].word} ${number(result.weights[j])}`).join(', ')}.`;
}

export function queryLabel(query) {
  return `query at x ${number(query.x)}, y ${number(query.y)}`;
}
