#!/usr/bin/env bash
# Every test suite, after the lint: native Catch2 tests (CTest), the same suite under ASan + UBSan, a 20 s
# fuzz run of the core, then the wasm module in Node and the built page in Chromium
# (node --test: the page, hostile input, accessibility), and the page's essential checks in
# Chromium, Firefox ESR and WebKitGTK (engines.test.mjs; ENGINES=firefox,webkit picks some).
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== lint: Biome (JavaScript, CSS, JSON), clang-format (C++), function length, figure imports, tree"
bash scripts/lint.sh

echo "== native: build and Catch2 tests"
bash scripts/build-native.sh native
ctest --preset native

echo "== native under AddressSanitizer + UndefinedBehaviorSanitizer"
bash scripts/sanitize.sh

echo "== fuzzing the core for 20 s (docs/fuzzing.md)"
bash scripts/fuzz.sh 20

echo "== wasm and page: build"
bash scripts/build-wasm.sh
node scripts/build-web.mjs

echo "== wasm module in Node, page in Chromium, essential checks in Chromium, Firefox and WebKit"
node --test web/test/*.test.mjs
node --test web/test/unit/*.test.mjs scripts/test/*.test.mjs

echo "== prose: words and grade per section and per live note (budgets in scripts/prose.mjs)"
node scripts/prose.mjs
