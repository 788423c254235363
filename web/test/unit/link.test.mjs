// The page's link (link.js) with every figure's part: links written by hand are read into the
// states they say, states come back as the links written here, a figure left as it opened adds
// nothing, and a refused value keeps the figure's default with the page's usual sentence. The
// √d chart's limits and work budget are the real core's (Σ T²·d·draws over the widths 1 … 1024,
// whose sum is 2047).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linkHash, parseParts } from '../../src/link.js';
import { DEFAULT_STATE } from '../../src/state.js';
import { heroLink } from '../../src/figures/hero/link.js';
import { nameTagsLink, ROOM_DEFAULTS } from '../../src/figures/name-tags/link.js';
import { scaleLink, STUDY_DEFAULTS } from '../../src/figures/scale-chart/link.js';
import { trainingLink } from '../../src/figures/training/link.js';
import { DEFAULT_SETTINGS } from '../../src/figures/training/model.js';
import { loadCores } from '../cores.mjs';

const { core } = await loadCores();
const context = { core };
const PARTS = [nameTagsLink, scaleLink, trainingLink];
const read = (hash, parts = PARTS) => parseParts(hash, parts, context);
const PASTED = 'It was the best of times, it was the worst of times, it was the age of wisdom.';

test('a link from before the parts existed opens every figure in its first view, saying nothing', () => {
  const { states, messages } = read('#text=To%20be&d=24&seed=1&causal=1&scale=sqrt');
  assert.deepEqual(states, {
    'name-tags': ROOM_DEFAULTS,
    scale: STUDY_DEFAULTS,
    training: DEFAULT_SETTINGS,
  });
  assert.deepEqual(messages, { 'name-tags': [], scale: [], training: [] });
  assert.equal(linkHash(DEFAULT_STATE, PARTS, states), linkHash(DEFAULT_STATE, [], {}));
});

test('the name-tag room reads its query and sharpness, and writes them back as given', () => {
  const { states, messages } = read('#room-x=1.25&room-y=-2&room-sharpness=3.16');
  assert.deepEqual(states['name-tags'], { x: 1.25, y: -2, factor: 3.16 });
  assert.deepEqual(messages['name-tags'], []);
  assert.deepEqual(nameTagsLink.serialize(states['name-tags']), [
    ['room-x', '1.25'],
    ['room-y', '-2'],
    ['room-sharpness', '3.16'],
  ]);
  // Only what differs from the first view: the sharpness alone.
  assert.deepEqual(nameTagsLink.serialize({ ...ROOM_DEFAULTS, factor: 0.1 }), [
    ['room-sharpness', '0.1'],
  ]);
  // The handle moves by hundredths: a finer tip is read to the nearest.
  assert.equal(read('#room-x=0.123', [nameTagsLink]).states['name-tags'].x, 0.12);
});

test('the name-tag room refuses what it cannot show, each with its own sentence', () => {
  const cases = [
    ['room-x=4', 'room-x=“4”', 'room-x must be a number from −3 to 3.'],
    ['room-y=NaN', 'room-y=“NaN”', 'room-y must be a number from −3 to 3.'],
    ['room-y=', 'room-y=“”', 'room-y must be a number'],
    ['room-x=1,2', 'room-x=“1,2”', 'room-x must be a number'],
    ['room-sharpness=0', 'room-sharpness=“0”', 'room-sharpness must be a number from 0.1 to 10.'],
    ['room-sharpness=1e400', 'room-sharpness=“1e400”', 'from 0.1 to 10'],
    ['room-sharpness=%3Cb%3E', 'room-sharpness=“<b>”', 'from 0.1 to 10'],
  ];
  for (const [hash, quoted, reason] of cases) {
    const { states, messages } = read(`#${hash}`, [nameTagsLink]);
    assert.deepEqual(states['name-tags'], ROOM_DEFAULTS, hash);
    assert.equal(messages['name-tags'].length, 1, hash);
    assert.ok(messages['name-tags'][0].startsWith(`The link's ${quoted} was not used: `), hash);
    assert.ok(messages['name-tags'][0].includes(reason), hash);
  }
  assert.equal(
    read('#room-x=9', [nameTagsLink]).messages['name-tags'][0],
    "The link's room-x=“9” was not used: room-x must be a number from −3 to 3. Showing room-x=-0.4.",
  );
});

test('the √d chart reads its study, measure and the averaged study’s fields', () => {
  const hash =
    '#study-data=averaged&study-measure=entropy&study-draws=8&study-tokens=128&study-seed=7&study-causal=1';
  const { states, messages } = read(hash, [scaleLink]);
  assert.deepEqual(states.scale, {
    mode: 'averaged',
    measure: 'entropy',
    causal: true,
    draws: 8,
    T: 128,
    seed: 7,
  });
  assert.deepEqual(messages.scale, []);
  assert.equal(linkHash(DEFAULT_STATE, [scaleLink], states).split('&text=')[0], hash);
  assert.deepEqual(scaleLink.serialize({ ...STUDY_DEFAULTS, measure: 'entropy' }), [
    ['study-measure', 'entropy'],
  ]);
});

test('the √d chart refuses values out of the core’s limits and studies over its work budget', () => {
  const one = (hash) => read(hash, [scaleLink]);
  assert.match(
    one('#study-draws=1001').messages.scale[0],
    /^The link's study-draws=“1001” was not used: Draws must be a whole number from 1 to 1000\. Showing study-draws=32\.$/,
  );
  assert.match(one('#study-tokens=1').messages.scale[0], /from 2 to 1024/);
  assert.match(one('#study-data=sideways').messages.scale[0], /one of: tutorial, averaged/);
  assert.match(one('#study-causal=yes').messages.scale[0], /study-causal must be 1 or 0/);
  // 64² · 2047 · 500 = 4,192,256,000 multiply-adds, over the core's 4·10⁹; 477 draws fit.
  const { states, messages } = one('#study-data=averaged&study-draws=500');
  assert.deepEqual(states.scale, { ...STUDY_DEFAULTS, mode: 'averaged' });
  assert.equal(messages.scale.length, 1);
  assert.match(
    messages.scale[0],
    /^The link's study-draws=“500” and study-tokens=“64” were not used: Too much work: 500 draws of 64 tokens need 4,192 million multiply-adds; the limit is 4,000 million\. With T = 64, at most 477 draws fit\. Showing study-draws=32 and study-tokens=64\.$/,
  );
  assert.deepEqual(one('#study-data=averaged&study-draws=477').messages.scale, []);
});

test('the training run reads its settings, not a run, and a pasted text only while it is learned', () => {
  const hash = `#train-d=16&train-steps=500&train-rate=0.03&train-source=pasted&train-text=${encodeURIComponent(PASTED)}`;
  const { states, messages } = read(hash, [trainingLink]);
  assert.deepEqual(states.training, {
    d: 16,
    steps: 500,
    learningRate: 0.03,
    source: 'pasted',
    text: PASTED,
  });
  assert.deepEqual(messages.training, []);
  assert.equal(linkHash(DEFAULT_STATE, [trainingLink], states).split('&text=')[0], hash);
  assert.deepEqual(trainingLink.serialize({ ...DEFAULT_SETTINGS, text: PASTED }), []);
  assert.deepEqual(trainingLink.serialize({ ...DEFAULT_SETTINGS, learningRate: 0.005 }), [
    ['train-rate', '0.005'],
  ]);
});

test('the training run refuses what a run would refuse, with the figure’s own sentences', () => {
  const one = (hash) => read(hash, [trainingLink]);
  assert.match(
    one('#train-d=17').messages.training[0],
    /train-d=“17”.*Width must be one of 16, 64, 256\. Showing train-d=64\./,
  );
  assert.match(
    one('#train-steps=9').messages.training[0],
    /Steps must be a whole number from 10 to 3000/,
  );
  assert.match(
    one('#train-rate=-1').messages.training[0],
    /above 0 and at most 10\. Showing train-rate=\.$/,
  );
  assert.match(one('#train-source=poems').messages.training[0], /one of: shakespeare, pasted/);
  // A pasted text too short to learn from: Shakespeare instead, with the figure's sentence.
  const short = one('#train-source=pasted&train-text=abc');
  assert.equal(short.states.training.source, 'shakespeare');
  assert.deepEqual(short.messages.training, [
    "The link's train-source=“pasted” was not used: Paste at least 65 characters (this has 3). Showing train-source=shakespeare.",
  ]);
});

test('every part reads the same link, each its own keys, beside the first screen’s and the map’s', () => {
  const hash =
    '#words=Hi%20hi&head=tutorial&room-sharpness=10&study-measure=entropy&train-d=256&text=Hi&d=8';
  const parts = [heroLink, ...PARTS];
  const { states, messages } = read(hash, parts);
  assert.deepEqual(Object.values(messages).flat(), []);
  assert.equal(states.hero.words, 'Hi hi');
  assert.equal(states['name-tags'].factor, 10);
  assert.equal(states.scale.measure, 'entropy');
  assert.equal(states.training.d, 256);
  // Written back: the parts' keys in the parts' order, then the map's.
  const written = linkHash({ ...DEFAULT_STATE, text: 'Hi', d: 8 }, parts, states);
  assert.ok(written.startsWith(hash.split('&text=')[0]), written);
  assert.deepEqual(read(written, parts).states, states);
});
