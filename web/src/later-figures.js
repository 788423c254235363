// The figures of the sections after the map (5: the √d chart, 6: training, 7: the proof, 9: the
// copying head's recorded growth), in a
// bundle of their own, dist/later-figures.js, with Chart.js inside it. main.js loads it as a
// classic script when the first of those sections comes near (lib/load-script.js, which works
// from file:// and under the page's CSP), so the first screen does not wait for it.
import * as copying from './figures/copying/index.js';
import * as proof from './figures/proof/index.js';
import * as scaleChart from './figures/scale-chart/index.js';
import * as training from './figures/training/index.js';

globalThis.AttentionLaterFigures = { scale: scaleChart, proof, training, copying };
