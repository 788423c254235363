#!/usr/bin/env bash
# The layout and lint checks `npm test` runs first: Biome for JavaScript, CSS and JSON,
# clang-format for C++, no function over 80 lines (scripts/function-length.mjs: web/src, cpp,
# fuzz), the folders of cpp/ and web/src/ importing only downward and no figure another
# (scripts/layers.mjs), tests mirroring sources
# with no folder in cpp/ over 12 source files (scripts/check-tree.mjs), and links, cited doc
# headings and paths named in comments and docs that exist, with no issue numbers
# (scripts/check-docs.mjs), the docs' results tables as the committed results give them
# (scripts/results-docs.mjs), and no compiler warning from g++, clang++-14 (the fuzz targets
# included) or em++, each source compiled with -Werror -fsyntax-only in throwaway trees under
# build/warnings/ (scripts/warnings.mjs, the slowest check). Fails on any finding.
# `npm run format` rewrites the layout instead.
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
  # Every structure check runs, so one report lists every finding.
  status=0
  node scripts/function-length.mjs web/src cpp fuzz || status=1
  node scripts/layers.mjs || status=1
  node scripts/check-tree.mjs || status=1
  node scripts/check-docs.mjs || status=1
  node scripts/results-docs.mjs || status=1
  node scripts/warnings.mjs || status=1
  if [ "$status" != 0 ]; then exit 1; fi
  echo "lint: clean"
fi
