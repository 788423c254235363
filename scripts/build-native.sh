#!/usr/bin/env bash
# Configures and builds the native tree (core, tutorial command, tests). Usage: build-native.sh [preset]
# With ATTENTION_WERROR=ON in the environment (npm test sets it) any compiler warning fails the build.
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-native}"
cmake --preset "$preset" -DATTENTION_WERROR="${ATTENTION_WERROR:-OFF}" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
