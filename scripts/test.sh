#!/usr/bin/env bash
# Runs every test suite: native Catch2 tests (through CTest).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build-native.sh native
ctest --preset native
