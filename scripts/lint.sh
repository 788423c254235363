#!/usr/bin/env bash
# The layout and lint checks `npm test` runs first: Biome for JavaScript, CSS and JSON,
# clang-format for C++. Fails on any finding. `npm run format` rewrites the tree instead.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-check}
# Debian 12's clang-format is 14; other majors lay some lines out differently.
clang_format=$(command -v clang-format-14 || command -v clang-format)
cxx_files() { git ls-files -- '*.cpp' '*.hpp' ':!tests/catch.hpp'; }

if [ "$mode" = write ]; then
  npx biome check --write .
  cxx_files | xargs "$clang_format" -i
else
  npx biome check .
  cxx_files | xargs "$clang_format" --dry-run --Werror
  echo "lint: clean"
fi
