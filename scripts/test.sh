#!/usr/bin/env bash
# Every test suite, in order of speed: native Catch2 tests (CTest), then the wasm module in
# Node and the built page in Chromium (node --test).
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== native: build and Catch2 tests"
bash scripts/build-native.sh native
ctest --preset native

echo "== wasm and page: build"
bash scripts/build-wasm.sh
node scripts/build-web.mjs

echo "== wasm module in Node, page in Chromium"
node --test web/test/
