// The figure-import check on a made-up figures folder: an import, a re-export, a CSS import
// and an import() from another figure's folder are each found; imports from lib/, from the
// figure's own folder and from packages are not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crossFigureImports } from '../figure-imports.mjs';

test('imports between figure folders are found, and only those', () => {
  const root = mkdtempSync(join(tmpdir(), 'figures-'));
  mkdirSync(join(root, 'map'));
  mkdirSync(join(root, 'chart'));
  writeFileSync(
    join(root, 'map', 'index.js'),
    [
      "import './map.css';",
      "import { grid } from '../../lib/grid.js';",
      "import { model } from './model.js';",
      "import { Chart } from 'chart.js';",
      "import '../chart/chart.css';",
      "export { note } from '../chart/model.js';",
      "const later = () => import('../chart/index.js');",
    ].join('\n'),
  );
  writeFileSync(join(root, 'chart', 'model.js'), "import { tally } from '../map/model.js';\n");
  assert.deepEqual(
    crossFigureImports(root).map(({ file, imported }) => [file.slice(root.length + 1), imported]),
    [
      ['chart/model.js', '../map/model.js'],
      ['map/index.js', '../chart/chart.css'],
      ['map/index.js', '../chart/model.js'],
      ['map/index.js', '../chart/index.js'],
    ],
  );
});
