#!/usr/bin/env bash
# Configures and builds the native tree (core, tutorial command, tests). Usage: build-native.sh [preset]
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-native}"
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
