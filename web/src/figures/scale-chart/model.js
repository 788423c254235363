// The "Why divide by √d" chart as data: from the chart's own view state (mode, measure, the
// averaged study's typed fields) and a core.scaleStudy() result to every sentence, number,
// axis and table row the figure prints. Pure: no DOM, runs in Node.
//
// The peak-weight view uses a logarithmic y axis: on a 0–1 axis the 1/√d curve (about 0.1)
// and the 1/d curve (about 0.02, a hair above uniform 1/64 = 0.016) share the bottom eighth
// of the chart and the 1/d curve sits on the uniform line. On a log axis every factor of ten
// gets the same height, so 0.016, 0.02 and 0.1 are far apart and 0.88 still fits.
import { fixed } from '../../lib/format.js';
import { INVERSE_D, INVERSE_SQRT_D, namedScale, scaleLabel, UNSCALED } from '../../lib/scale.js';

export const TUTORIAL = Object.freeze({
  mode: 'tutorial',
  widths: Object.freeze([4, 8, 16, 32, 64, 128, 256]),
  T: 64,
  draws: 1,
  causal: false,
  seed: 0,
});
export const AVERAGED_WIDTHS = Object.freeze(Array.from({ length: 11 }, (_, i) => 2 ** i));

// The averaged study's typed fields; the highest values come from core.limits.
export function fieldRules(limits) {
  return {
    draws: { name: 'Draws', low: 1, high: limits.maxStudyDraws },
    T: { name: 'T', low: 2, high: limits.maxStudyT },
    seed: { name: 'Seed', low: 0, high: Number.MAX_SAFE_INTEGER },
  };
}

export const INITIAL_VIEW = Object.freeze({
  mode: 'tutorial',
  measure: 'peak',
  causal: false,
  raw: Object.freeze({ draws: '32', T: '64', seed: '0' }),
  lastChanged: 'draws',
});

const labelOf = (mode) => scaleLabel(namedScale(mode));

// The three curves, in the order the core returns them. Colour, dash and marker all differ,
// so the chart does not rely on colour alone.
export const SERIES = Object.freeze([
  {
    key: UNSCALED,
    label: labelOf(UNSCALED),
    short: 'unscaled',
    dash: [7, 4],
    point: 'circle',
    width: 2.25,
  },
  {
    key: INVERSE_SQRT_D,
    label: 'divided by √d',
    short: labelOf(INVERSE_SQRT_D),
    dash: [],
    point: 'rectRot',
    width: 3,
  },
  {
    key: INVERSE_D,
    label: 'divided by d',
    short: labelOf(INVERSE_D),
    dash: [2, 3],
    point: 'triangle',
    width: 2.25,
  },
]);

export const MEASURES = Object.freeze({
  peak: {
    mean: 'peakMean',
    spread: 'peakSpread',
    axis: 'average peak weight (log scale)',
    caption: 'Average peak attention weight of a row',
    digits: 3,
  },
  entropy: {
    mean: 'entropyMean',
    spread: 'entropySpread',
    axis: 'average entropy (nats)',
    caption: 'Average entropy of a row, in nats',
    digits: 2,
  },
});

export function wholeNumber(raw, { name, low, high }) {
  const text = String(raw).trim();
  const value = /^[+]?\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < low || value > high) {
    return { error: `${name} must be a whole number from ${low} to ${high}.` };
  }
  return { value };
}

// The study the view asks for, or the messages that stop it.
export function settingsFor(view, limits) {
  if (view.mode === 'tutorial') return { errors: {}, settings: TUTORIAL };
  const rules = fieldRules(limits);
  const errors = {};
  const values = {};
  for (const field of Object.keys(rules)) {
    const checked = wholeNumber(view.raw[field], rules[field]);
    if (checked.error) errors[field] = checked.error;
    else values[field] = checked.value;
  }
  const settings = { mode: 'averaged', widths: AVERAGED_WIDTHS, causal: view.causal, ...values };
  return { errors, settings: Object.keys(errors).length ? null : settings };
}

export const settingsKey = (s) => JSON.stringify([s.mode, s.T, s.draws, s.causal, s.seed]);

export function plural(count, one, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}

const millions = (n) => `${Math.round(n / 1e6).toLocaleString('en-US')} million`;

// The core refuses studies over its work budget; say so before asking it, with how many
// draws would fit. `work(settings)` is the multiply-adds the study needs (from the core).
export function budgetMessage(settings, limit, work) {
  const needed = work(settings);
  if (!(limit > 0) || needed <= limit) return '';
  const perDraw = needed / settings.draws;
  const fits = Math.floor(limit / perDraw);
  const advice =
    fits >= 1
      ? `With T = ${settings.T}, at most ${fits === 1 ? '1 draw fits' : `${fits} draws fit`}.`
      : 'Try a smaller T.';
  return `Too much work: ${plural(settings.draws, 'draw')} of ${settings.T} tokens need ${millions(needed)} multiply-adds; the limit is ${millions(limit)}. ${advice}`;
}

// Which field a budget or core message belongs beside.
export const blamedField = (view) => (view.lastChanged === 'T' ? 'T' : 'draws');

// What a row scores if it spreads its attention evenly over the tokens it may see: 1/T and
// ln T without the mask; with it, row i sees i + 1 tokens, so the average over rows.
export function uniformLevel(T, causal, measure) {
  const level = (visible) => (measure === 'peak' ? 1 / visible : Math.log(visible));
  if (!causal) return level(T);
  let sum = 0;
  for (let visible = 1; visible <= T; visible += 1) sum += level(visible);
  return sum / T;
}

export function uniformLabel(settings, measure) {
  const level = fixed(uniformLevel(settings.T, settings.causal, measure), MEASURES[measure].digits);
  if (settings.causal) return `uniform over the visible tokens (row average ${level})`;
  return measure === 'peak'
    ? `uniform: 1/${settings.T} = ${level}`
    : `uniform: ln ${settings.T} = ${level}`;
}

// Effective tokens, e^H: how many tokens a row with this entropy really listens to.
export function effectiveTokens(entropy) {
  const n = Math.exp(entropy);
  if (!Number.isFinite(n)) return '—';
  return n < 10 ? n.toFixed(1) : String(Math.round(n));
}

export const curve = (study, key, measure) => Array.from(study[key][MEASURES[measure].mean]);

// Weights print with two decimals (0.88, 0.11: the tutorial's own numbers), and with three
// when they are small, so that 0.018 and the uniform 0.016 stay apart.
export function measureText(value, measure) {
  if (measure === 'entropy' || !(value < 0.095)) return fixed(value, 2);
  return fixed(value, 3);
}

// "rises from 0.31 to 0.88", "stays between 0.09 and 0.12": a curve's shape in words. A
// change of less than a quarter of the larger end counts as staying put.
export function trend(values, measure) {
  const first = values[0];
  const last = values[values.length - 1];
  const text = (v) => measureText(v, measure);
  if (Math.abs(last - first) < 0.25 * Math.max(Math.abs(first), Math.abs(last))) {
    return `stays between ${text(Math.min(...values))} and ${text(Math.max(...values))}`;
  }
  return `${last > first ? 'rises' : 'falls'} from ${text(first)} to ${text(last)}`;
}

// Whether the 1/d curve's last point is near uniform attention (a quarter above it for the
// peak, within 5% below it for the entropy), so the sentence only says "close" when it is.
export function nearUniform(value, level, measure) {
  return measure === 'peak' ? value <= 1.25 * level : value >= 0.95 * level;
}

// "is 1/64 = 0.016", "would average 0.074 over the visible tokens".
export function uniformPhrase(settings, measure, verb) {
  const level = fixed(uniformLevel(settings.T, settings.causal, measure), MEASURES[measure].digits);
  if (settings.causal) {
    return `${verb === 'is' ? 'averages' : 'would average'} ${level} over the visible tokens`;
  }
  return `${verb} ${measure === 'peak' ? '1/' : 'ln '}${settings.T} = ${level}`;
}

function sourceText(settings) {
  if (settings.mode === 'tutorial') return '';
  const draws = settings.draws === 1 ? 'one draw' : `mean of ${settings.draws} draws`;
  return ` (${draws} of ${settings.T} tokens${settings.causal ? ', causal mask' : ''})`;
}

// The headline under the controls, as parts: strings, { variable } and { value, series }.
export function headline(study, settings, measure) {
  const i = study.widths.length - 1;
  const at = (key) => curve(study, key, measure)[i];
  const value = (key) => ({ value: measureText(at(key), measure), series: key });
  const d = { variable: 'd' };
  const close = nearUniform(
    at(INVERSE_D),
    uniformLevel(settings.T, settings.causal, measure),
    measure,
  )
    ? `close to uniform, which ${uniformPhrase(settings, measure, 'is')}`
    : `uniform ${uniformPhrase(settings, measure, 'would be')}`;
  const parts = ['At ', d, ` = ${study.widths[i]}${sourceText(settings)}, `];
  if (measure === 'peak') {
    parts.push(
      'without scaling a row puts ',
      value(UNSCALED),
      ' of its attention on its favourite token on average; divided by √',
      d,
      ' it puts ',
      value(INVERSE_SQRT_D),
      '; divided by ',
      d,
      ', ',
      value(INVERSE_D),
      ` (${close}).`,
    );
  } else {
    const worth = (key) => effectiveTokens(at(key));
    parts.push(
      'without scaling a row’s entropy is ',
      value(UNSCALED),
      ` nats, as if it listened to ${worth(UNSCALED)} tokens; divided by √`,
      d,
      ', ',
      value(INVERSE_SQRT_D),
      ` nats (${worth(INVERSE_SQRT_D)} tokens); divided by `,
      d,
      ', ',
      value(INVERSE_D),
      ` nats (${close}).`,
    );
  }
  return parts;
}

// The second sentence: how each curve moves across the widths, in the live numbers.
export function trendSentence(study, measure) {
  const n = study.widths.length;
  const of = (key) => trend(curve(study, key, measure), measure);
  return `From d = ${study.widths[0]} to ${study.widths[n - 1]}: unscaled it ${of(UNSCALED)}; divided by √d it ${of(INVERSE_SQRT_D)}; divided by d it ${of(INVERSE_D)}.`;
}

// The canvas's aria-label: the finding in words, with the live numbers.
export function describe(study, settings, measure) {
  const what =
    measure === 'peak'
      ? 'average peak attention weight, on a log scale'
      : 'average attention entropy in nats';
  const n = study.widths.length;
  const source =
    settings.mode === 'tutorial'
      ? 'the tutorial’s single draw per width'
      : `the mean of ${plural(settings.draws, 'draw')} per width with a band of one standard deviation`;
  const level = fixed(uniformLevel(settings.T, settings.causal, measure), MEASURES[measure].digits);
  return `Line chart of ${what} against head width d from ${study.widths[0]} to ${study.widths[n - 1]}, doubling each step, for ${settings.T} tokens (${source}). ${trendSentence(study, measure)} Uniform attention is ${level}.`;
}

export function settingsText(settings, { long = false } = {}) {
  if (settings.mode === 'tutorial') {
    return long
      ? 'exactly the tutorial (seed 0, one draw, 64 tokens, no mask)'
      : 'exactly the tutorial (seed 0, one draw, T = 64)';
  }
  return `${plural(settings.draws, 'draw')}, T = ${settings.T}, mask ${settings.causal ? 'on' : 'off'}, seed ${settings.seed}`;
}

export function statusText(settings, ms) {
  const took = `computed by the C++ core in ${Math.max(1, Math.round(ms))} ms.`;
  return settings.mode === 'tutorial'
    ? `Computed${took.slice(8)}`
    : `${settingsText(settings)}: ${took}`;
}

export function tableModel(study, settings, measure) {
  const { mean, spread, caption } = MEASURES[measure];
  const withSpread = settings.draws > 1;
  const cell = (key, i) => {
    const m = fixed(study[key][mean][i], 3);
    return withSpread ? `${m} ± ${fixed(study[key][spread][i], 3)}` : m;
  };
  return {
    caption: `${caption} against head width d, ${settingsText(settings, { long: true })}.`,
    head: ['d', ...SERIES.map((series) => series.short)],
    rows: Array.from(study.widths, (d, i) => [String(d), ...SERIES.map((s) => cell(s.key, i))]),
  };
}

export function readoutText(study, settings, measure, index) {
  if (!study || index < 0) return 'Point at or touch the chart to read the numbers at one width.';
  const { mean, spread, digits } = MEASURES[measure];
  const parts = SERIES.map(({ key, short }) => {
    const sd = settings.draws > 1 ? ` ± ${fixed(study[key][spread][index], digits)}` : '';
    return `${short} ${fixed(study[key][mean][index], digits)}${sd}`;
  });
  return `d = ${study.widths[index]}: ${parts.join(' · ')}`;
}

// The largest of 1, 2 or 5 times a power of ten that is not above `value`.
export function logFloor(value) {
  const power = Math.floor(Math.log10(value));
  for (const step of [5, 2, 1]) {
    const tick = Number((step * 10 ** power).toPrecision(1));
    if (tick <= value) return tick;
  }
  return 10 ** power;
}

// Ticks at 1, 2 and 5 times the powers of ten from `low` up to 1.
export function logTicks(low) {
  const ticks = [];
  for (let power = Math.floor(Math.log10(low)); power <= 0; power += 1) {
    for (const step of [1, 2, 5]) {
      const tick = Number((step * 10 ** power).toPrecision(1));
      if (tick >= low && tick <= 1) ticks.push(tick);
    }
  }
  return ticks;
}

// The axes for one study: x over log2(d) with a tick per width; y logarithmic for the peak
// (from a 1-2-5 step below uniform up to 1), linear from 0 to a little over ln T for entropy.
export function axes(study, settings, measure) {
  const x = Array.from(study.widths, (d) => Math.log2(d));
  const xAxis = { min: x[0] - 0.3, max: x[x.length - 1] + 0.3, ticks: x };
  if (measure === 'entropy') {
    const max = Math.ceil(Math.log(settings.T) * 1.05 * 2) / 2;
    return {
      x: xAxis,
      y: { type: 'linear', min: 0, max, ticks: null, title: MEASURES.entropy.axis },
    };
  }
  let lowest = uniformLevel(settings.T, settings.causal, 'peak');
  for (const { key } of SERIES) lowest = Math.min(lowest, ...curve(study, key, 'peak'));
  const min = logFloor(lowest * 0.8);
  return {
    x: xAxis,
    y: { type: 'logarithmic', min, max: 1, ticks: logTicks(min), title: MEASURES.peak.axis },
  };
}

export function legendEntries(settings, measure) {
  return [
    ...SERIES.map((series) => ({ series, text: series.label })),
    { uniform: true, text: uniformLabel(settings, measure) },
    ...(settings.draws > 1 ? [{ band: true, text: '±1 standard deviation across draws' }] : []),
  ];
}

export function exportTitle(settings, measure) {
  return `${MEASURES[measure].caption} against head width d; ${settingsText(settings)}`;
}

export function fileStem(settings) {
  if (settings.mode === 'tutorial') return 'scale-study-tutorial';
  const s = settings;
  return `scale-study-averaged-T${s.T}-draws${s.draws}${s.causal ? '-causal' : ''}-seed${s.seed}`;
}

export function csvRows(study, settings) {
  const header = [
    'd',
    'scale',
    'peak_mean',
    'peak_spread',
    'entropy_mean',
    'entropy_spread',
    'T',
    'draws',
    'causal',
    'seed',
  ];
  const rows = [header];
  study.widths.forEach((d, i) => {
    for (const { key } of SERIES) {
      const s = study[key];
      rows.push([
        d,
        key,
        s.peakMean[i],
        s.peakSpread[i],
        s.entropyMean[i],
        s.entropySpread[i],
        settings.T,
        settings.draws,
        settings.causal ? 1 : 0,
        settings.seed,
      ]);
    }
  });
  return rows;
}
