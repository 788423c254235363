#!/usr/bin/env bash
# Runs the side-by-side benchmark in one go and prints one table (see bench/run.mjs and
# docs/benchmarks.md). Builds what it needs first: the native Release driver against the core
# (build/bench/native), the wasm module (build/wasm) and the two wasm peak probes (build/bench).
# Usage: scripts/bench.sh [bench/run.mjs options, e.g. --lengths 256,1024 --no-browser]
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh  # the project's own tools: cmake, compilers, emscripten, chromium
# Debian's emscripten needs acorn from Debian's node modules (see scripts/build-wasm.sh).
if [ -d /usr/share/nodejs ]; then export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"; fi

# bench/ has its own dependencies (ONNX Runtime, TensorFlow.js, Playwright), kept out of the
# page's. onnxruntime-node's install step would download GPU libraries it does not need here.
if [ ! -e bench/node_modules/.package-lock.json ] || [ bench/package-lock.json -nt bench/node_modules/.package-lock.json ]; then
  (cd bench && ONNXRUNTIME_NODE_INSTALL=skip npm ci --no-audit --no-fund)
fi

cmake -S bench -B build/bench/native -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build/bench/native --target native_bench -j "$(nproc)"
bash scripts/build-wasm.sh
node scripts/build-web.mjs           # the page, for the page-speed part
bash scripts/build-native.sh native  # attention-tutorial, timed against the tutorial's ~20 s
mkdir -p build/bench
if [ ! build/bench/wasm-peak.js -nt bench/wasm_peak.cpp ] || [ ! build/bench/wasm-peak.js -nt bench/multiply_add_peak.hpp ]; then
  em++ -std=c++17 -O3 -msimd128 bench/wasm_peak.cpp -o build/bench/wasm-peak.js \
    -sSINGLE_FILE=1 -sMODULARIZE=1 -sEXPORT_NAME=WasmPeak -sENVIRONMENT=web,node
fi

if [ ! build/bench/relaxed-peak.wasm -nt bench/relaxed_peak.cpp ] || [ ! build/bench/relaxed-peak.wasm -nt bench/multiply_add_peak.hpp ]; then
  bash scripts/build-relaxed.sh --peak build/bench/relaxed-peak.wasm
fi

node bench/run.mjs "$@"
