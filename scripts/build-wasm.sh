#!/usr/bin/env bash
# Builds the WebAssembly modules (build/wasm/attention-core.js, attention-learning.js) with Debian's or any
# emsdk's em++. With ATTENTION_WERROR=ON in the environment (npm test sets it) any compiler warning fails the build.
set -euo pipefail
cd "$(dirname "$0")/.."
# Debian's emscripten needs acorn from Debian's node modules, which a non-Debian node
# does not search by itself.
if [ -d /usr/share/nodejs ]; then export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"; fi
emcmake cmake --preset wasm -DATTENTION_WERROR="${ATTENTION_WERROR:-OFF}" >/dev/null
cmake --build --preset wasm -j "$(nproc)"
