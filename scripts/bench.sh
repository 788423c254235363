#!/usr/bin/env bash
# Runs the whole benchmark in one go: the kernel table, the training rows, the page rows and
# the list of targets, each MET or MISSED (see bench/run.mjs and docs/benchmarks.md). Builds what it needs first: the native Release driver against the core
# (build/bench/native), the wasm module (build/wasm) and the two wasm peak probes (build/bench).
# Usage: scripts/bench.sh [bench/run.mjs options, e.g. --runs 1 --lengths 256,1024 --no-browser]
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh  # the project's own tools: cmake, compilers, emscripten, chromium

# The training rows' PyTorch peer (bench/train-speed.mjs): Debian's python3-torch, run once with
# OpenBLAS (libopenblas0-serial) and once with the reference BLAS (libblas3, a dependency of
# python3-torch), each selected for that process only through LD_LIBRARY_PATH. Installed here, not by setup.sh: only the bench
# needs them. Without apt-get, root or sudo the bench still runs and those rows say
# "not measured".
bench_missing=()
/usr/bin/python3 -c 'import torch' >/dev/null 2>&1 || bench_missing+=(python3-torch)
dpkg -s libopenblas0-serial >/dev/null 2>&1 || bench_missing+=(libopenblas0-serial)
if [ ${#bench_missing[@]} -gt 0 ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "bench: no apt-get; the PyTorch rows need ${bench_missing[*]} (Debian names)" >&2
  elif [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null 2>&1; then
    echo "bench: not root and no sudo; the PyTorch rows need ${bench_missing[*]}" >&2
  else
    sudo=(); [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    echo "bench: installing ${bench_missing[*]}"
    { "${sudo[@]}" apt-get update -qq &&
      DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
        "${bench_missing[@]}" >/dev/null; } || echo "bench: could not install ${bench_missing[*]}" >&2
  fi
fi

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
bash scripts/build-native.sh native  # attention-tutorial (against the tutorial's ~20 s), attention-grow
mkdir -p build/bench
if [ ! build/bench/wasm-peak.js -nt bench/wasm_peak.cpp ] || [ ! build/bench/wasm-peak.js -nt bench/multiply_add_peak.hpp ]; then
  em++ -std=c++17 -O3 -msimd128 bench/wasm_peak.cpp -o build/bench/wasm-peak.js \
    -sSINGLE_FILE=1 -sMODULARIZE=1 -sEXPORT_NAME=WasmPeak -sENVIRONMENT=web,node
fi

if [ ! build/bench/relaxed-peak.wasm -nt bench/relaxed_peak.cpp ] || [ ! build/bench/relaxed-peak.wasm -nt bench/multiply_add_peak.hpp ]; then
  bash scripts/build-relaxed.sh --peak build/bench/relaxed-peak.wasm
fi

node bench/run.mjs "$@"
