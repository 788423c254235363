// The √d chart's model: settings checks, the work budget, the uniform level, the sentences
// and the log axis, on hand-made studies whose numbers are written out here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as model from '../../src/figures/scale-chart/model.js';

const LIMITS = { maxStudyDraws: 1000, maxStudyT: 1024, maxStudyMultiplyAdds: 4e9 };
const work = ({ T, widths, draws }) => T * T * draws * widths.reduce((a, b) => a + b, 0);

// A two-width study shaped like core.scaleStudy()'s result.
function study(peaks, entropies = { none: [1, 0.5], sqrt: [3, 3.1], d: [4.0, 4.15] }) {
  const series = (key) => ({
    peakMean: Float64Array.from(peaks[key]),
    peakSpread: Float64Array.from([0.01, 0.02]),
    entropyMean: Float64Array.from(entropies[key]),
    entropySpread: Float64Array.from([0, 0]),
  });
  return {
    widths: Int32Array.from([4, 256]),
    none: series('none'),
    sqrt: series('sqrt'),
    d: series('d'),
  };
}
const TUTORIAL_LIKE = study({ none: [0.31, 0.88], sqrt: [0.12, 0.11], d: [0.049, 0.018] });

test('the tutorial mode asks for the tutorial study whatever the typed fields say', () => {
  const view = { ...model.INITIAL_VIEW, raw: { draws: 'x', T: '-1', seed: '' } };
  assert.deepEqual(model.settingsFor(view, LIMITS), { errors: {}, settings: model.TUTORIAL });
});

test('averaged mode names every bad field and its range from the core limits', () => {
  const view = {
    ...model.INITIAL_VIEW,
    mode: 'averaged',
    raw: { draws: '1001', T: '1', seed: '2.5' },
  };
  const { errors, settings } = model.settingsFor(view, LIMITS);
  assert.equal(settings, null);
  assert.equal(errors.draws, 'Draws must be a whole number from 1 to 1000.');
  assert.equal(errors.T, 'T must be a whole number from 2 to 1024.');
  assert.match(errors.seed, /Seed must be a whole number/);
});

test('a study over the budget gets a message with how many draws would fit', () => {
  // 64² · (1 + 2 + … + 1024 = 2047) = 8 384 512 per draw; 4e9 / that = 477.06 draws
  const settings = {
    mode: 'averaged',
    widths: model.AVERAGED_WIDTHS,
    T: 64,
    draws: 500,
    causal: false,
    seed: 0,
  };
  const message = model.budgetMessage(settings, 4e9, work);
  assert.match(message, /500 draws of 64 tokens need 4,192 million multiply-adds/);
  assert.match(message, /at most 477 draws fit/);
  assert.equal(model.budgetMessage({ ...settings, draws: 477 }, 4e9, work), '');
});

test('uniform attention is 1/T and ln T, and with the mask the average over rows', () => {
  assert.equal(model.uniformLevel(64, false, 'peak'), 1 / 64);
  assert.equal(model.uniformLevel(64, false, 'entropy'), Math.log(64));
  // T = 3 with the mask: rows see 1, 2, 3 tokens
  assert.ok(Math.abs(model.uniformLevel(3, true, 'peak') - (1 + 1 / 2 + 1 / 3) / 3) < 1e-15);
  assert.ok(
    Math.abs(model.uniformLevel(3, true, 'entropy') - (0 + Math.log(2) + Math.log(3)) / 3) < 1e-15,
  );
});

test('the headline quotes the tutorial’s 0.88 and 0.11 and calls 1/d close to uniform only when it is', () => {
  const text = (parts) =>
    parts.map((p) => (typeof p === 'string' ? p : p.value || p.variable)).join('');
  const close = text(model.headline(TUTORIAL_LIKE, model.TUTORIAL, 'peak'));
  assert.match(close, /puts 0\.88 of its attention/);
  assert.match(close, /it puts 0\.11;/);
  assert.match(close, /0\.018 \(close to uniform, which is 1\/64 = 0\.016\)/);
  const far = study({ none: [0.31, 0.88], sqrt: [0.12, 0.11], d: [0.049, 0.04] });
  assert.match(
    text(model.headline(far, model.TUTORIAL, 'peak')),
    /0\.040 \(uniform would be 1\/64 = 0\.016\)/,
  );
});

test('trend words follow the numbers: rises, falls, or stays between', () => {
  assert.equal(model.trend([0.31, 0.5, 0.88], 'peak'), 'rises from 0.31 to 0.88');
  assert.equal(model.trend([0.049, 0.018], 'peak'), 'falls from 0.049 to 0.018');
  assert.equal(model.trend([0.12, 0.091, 0.11], 'peak'), 'stays between 0.091 and 0.12');
  assert.equal(
    model.trendSentence(TUTORIAL_LIKE, 'peak'),
    'From d = 4 to 256: unscaled it rises from 0.31 to 0.88; divided by √d it stays between 0.11 and 0.12; divided by d it falls from 0.049 to 0.018.',
  );
});

test('the peak axis is logarithmic from a 1-2-5 step below everything shown up to 1', () => {
  const { y, x } = model.axes(TUTORIAL_LIKE, model.TUTORIAL, 'peak');
  // lowest shown: uniform 1/64 = 0.0156; 0.8 of it is 0.0125, floored to 0.01
  assert.equal(y.type, 'logarithmic');
  assert.equal(y.min, 0.01);
  assert.deepEqual(y.ticks, [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1]);
  assert.deepEqual(x.ticks, [2, 8]);
  assert.equal(model.logFloor(0.0042), 0.002);
  assert.equal(model.logFloor(0.06), 0.05);
});

test('the entropy axis is linear from 0 to a little above ln T', () => {
  const { y } = model.axes(TUTORIAL_LIKE, model.TUTORIAL, 'entropy');
  assert.equal(y.type, 'linear');
  assert.equal(y.max, 4.5); // ln 64 = 4.16, × 1.05 = 4.37, up to the next half
});

test('the readout and the table print every series at one width, with spreads when averaged', () => {
  const averaged = { ...model.TUTORIAL, mode: 'averaged', draws: 8 };
  assert.equal(
    model.readoutText(TUTORIAL_LIKE, averaged, 'peak', 1),
    'd = 256: unscaled 0.880 ± 0.020 · 1/√d 0.110 ± 0.020 · 1/d 0.018 ± 0.020',
  );
  const table = model.tableModel(TUTORIAL_LIKE, model.TUTORIAL, 'peak');
  assert.deepEqual(table.rows[1], ['256', '0.880', '0.110', '0.018']);
  assert.equal(model.effectiveTokens(Math.log(3)), '3.0');
});

test('a spread or a level too small for its decimals never prints as zero', () => {
  const saturated = {
    ...TUTORIAL_LIKE,
    none: { ...TUTORIAL_LIKE.none, peakSpread: Float64Array.from([0.00003, 0.00042]) },
  };
  const averaged = { ...model.TUTORIAL, mode: 'averaged', draws: 8 };
  const readout = model.readoutText(saturated, averaged, 'peak', 1);
  assert.match(readout, /unscaled 0\.880 ± 0\.00042 ·/);
  assert.match(model.readoutText(saturated, averaged, 'peak', 0), /± < 0\.0001 ·/);
  assert.doesNotMatch(readout, /0\.000(?!\d)/);
  assert.equal(model.measureText(0.0004, 'peak'), '0.0004');
});
