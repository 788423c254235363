// The layer check on made-up trees: an include or import that runs upward is found (cpp's
// attention core using learning, lib/ using the app's state, a figure using another figure's
// folder by import, re-export, CSS or import()), and what runs downward or stays inside a
// folder is not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { importedPaths, upwardArrows } from '../layers.mjs';

function tree(files) {
  const root = mkdtempSync(join(tmpdir(), 'layers-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, dirname(path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

test('upward includes in cpp/ are found, and only those', () => {
  const root = tree({
    'cpp/attention/matrix.hpp': '#include "attention/scale.hpp"\n',
    'cpp/attention/formula.cpp': '#include "learning/model.hpp"\n#include <vector>\n',
    'cpp/learning/model.cpp': '#include "attention/matrix.hpp"\n#include "learning/corpus.hpp"\n',
    'cpp/learning/layered/induction.cpp': '#include "trained/copying_head.hpp"\n',
    'cpp/trained/copying_head.cpp': '#include "learning/layered/layered_model.hpp"\n',
    'cpp/wasm/trained_bindings.cpp': '#include "trained/copying_head.hpp"\n',
  });
  assert.deepEqual(upwardArrows(root, ['cpp']), [
    { file: 'cpp/attention/formula.cpp', imported: 'learning/model.hpp' },
    { file: 'cpp/learning/layered/induction.cpp', imported: 'trained/copying_head.hpp' },
  ]);
});

test('upward imports in web/src/ are found, and so is any import of another figure', () => {
  const root = tree({
    'web/src/lib/hash-sync.js': "import { serializeHash } from '../state.js';\n",
    'web/src/lib/grid.js': "import { heatPicture } from './heat-pixels.js';\n",
    'web/src/trained/copying-head.js': "import { namedScale } from '../lib/scale.js';\n",
    'web/src/state.js': "import { COPYING } from './trained/copying-head.js';\n",
    'web/src/store.js': "import { mount } from './figures/map/index.js';\n",
    'web/src/main.js': "import * as map from './figures/map/index.js';\n",
    'web/src/figures/map/index.js': [
      "import './map.css';",
      "import { grid } from '../../lib/grid.js';",
      "import { DEFAULT_STATE } from '../../state.js';",
      "import { model } from './model.js';",
      "import { Chart } from 'chart.js';",
      "import '../chart/chart.css';",
      "export { note } from '../chart/model.js';",
      "const later = () => import('../chart/index.js');",
    ].join('\n'),
    'web/src/figures/chart/model.js': "import { start } from '../../main.js';\n",
  });
  assert.deepEqual(upwardArrows(root, ['web/src']), [
    { file: 'web/src/figures/chart/model.js', imported: '../../main.js' },
    { file: 'web/src/figures/map/index.js', imported: '../chart/chart.css' },
    { file: 'web/src/figures/map/index.js', imported: '../chart/model.js' },
    { file: 'web/src/figures/map/index.js', imported: '../chart/index.js' },
    { file: 'web/src/lib/hash-sync.js', imported: '../state.js' },
    { file: 'web/src/store.js', imported: './figures/map/index.js' },
  ]);
});

test('imports, re-exports and import() are all read', () => {
  assert.deepEqual(
    importedPaths("import a from './a.js';\nexport { b } from './b.js';\nimport('./c.js');\n"),
    ['./a.js', './b.js', './c.js'],
  );
});
