#!/usr/bin/env bash
# Every test suite, stage by stage: the lint; the native Catch2 tests (CTest); the same suite
# under ASan + UBSan; a 20 s fuzz run of the core; the wasm module in Node and the built page in
# Chromium (the page, hostile input, accessibility), with the page's essential checks in
# Chromium, Firefox ESR and WebKitGTK (engines.test.mjs; ENGINES=firefox,webkit picks some); the
# page on a slow phone (slow-device.test.mjs) and offline (offline.test.mjs); the unit tests;
# the reading budget.
#
# Nothing can hang: every stage runs under a time limit, and inside it every native CTest test
# (--timeout; under the sanitizers CTest's default, 1500 s), every test file (--test-timeout:
# Node 20 applies it to each file as a whole, later Nodes to each test as well) and every wait
# on a page (web/test/waits.mjs) has its own.
# Every stage runs even when an earlier one failed, except those that need a build that failed;
# the end prints each stage's wall time and result, and the exit status is 1 if any failed.
set -uo pipefail
cd "$(dirname "$0")/.." || exit

# Limits, twice or more what each stage took on a 2-core machine shared with other jobs (56
# minutes in all, the native builds from scratch): a stage that hangs costs its limit, and the
# run still ends, with its table, inside CI's 90 minutes.
CTEST_TEST_LIMIT_S=300
BROWSER_FILE_LIMIT_MS=1200000
SLOW_DEVICE_FILE_LIMIT_MS=600000 # 40 s alone, 2 min on a loaded machine
OFFLINE_FILE_LIMIT_MS=300000     # 25-30 s alone
UNIT_FILE_LIMIT_MS=120000

stages=()
current=0 # the process id of the running stage's `timeout`
failed=0

# m:ss
clock() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }

# stage NAME LIMIT_SECONDS COMMAND...: runs COMMAND under `timeout`, which gives it a process
# group of its own and ends the whole group at the limit, then records the wall time and result.
stage() {
  local name=$1 limit=$2 start=$SECONDS status=0 result
  shift 2
  printf '\n== %s (limit %s)\n' "$name" "$(clock "$limit")"
  timeout --kill-after=30 "$limit" "$@" &
  current=$!
  wait "$current" || status=$?
  current=0
  case $status in
    0) result=passed ;;
    124 | 137) result="TIMED OUT at $(clock "$limit")" ;;
    *) result="FAILED (exit $status)" ;;
  esac
  [ "$status" = 0 ] || failed=$((failed + 1))
  stages+=("$name|$(clock $((SECONDS - start)))|$result")
  return "$status"
}

skip() {
  printf '\n== %s: skipped (%s)\n' "$1" "$2"
  failed=$((failed + 1))
  stages+=("$1|-|SKIPPED: $2")
}

# needs BUILT WHY NAME LIMIT COMMAND...: the stage when BUILT is 1, else a skip saying WHY.
needs() {
  local built=$1 why=$2
  shift 2
  if [ "$built" = 1 ]; then stage "$@"; else skip "$1" "$why"; fi
}

# Ctrl-C or a TERM ends the running stage (its whole process group) and the run.
interrupt() {
  if [ "$current" != 0 ]; then
    kill -TERM "$current" 2>/dev/null
    wait "$current"
  fi
  printf '\nnpm test: interrupted\n'
  exit 130
}
trap interrupt INT TERM

summary() {
  local row name time result width=5
  for row in "${stages[@]}"; do
    name=${row%%|*}
    [ "${#name}" -le "$width" ] || width=${#name}
  done
  printf '\n== wall time per stage\n'
  printf '%-*s %7s  %s\n' "$width" stage time result
  for row in "${stages[@]}"; do
    IFS='|' read -r name time result <<<"$row"
    printf '%-*s %7s  %s\n' "$width" "$name" "$time" "$result"
  done
  printf '%-*s %7s  %s\n' "$width" total "$(clock "$SECONDS")" \
    "$([ "$failed" = 0 ] && echo 'all passed' || echo "$failed of ${#stages[@]} stages did not pass")"
}

# The lint compiles every source with three compilers (scripts/warnings.mjs): 3 min on the 2
# shared cores, 6 min at a load of 5.
stage "lint: Biome, clang-format, function length, layers, tree, docs, warnings" 900 \
  bash scripts/lint.sh

native=0
stage "native: build" 1800 bash scripts/build-native.sh native && native=1
needs "$native" "the native build failed" \
  "native: Catch2 tests (CTest)" 900 ctest --preset native --timeout "$CTEST_TEST_LIMIT_S"

stage "native under AddressSanitizer + UndefinedBehaviorSanitizer" 2700 bash scripts/sanitize.sh

stage "fuzzing the core for 20 s (docs/fuzzing.md)" 900 bash scripts/fuzz.sh 20

page=0
stage "wasm and page: build" 1200 bash -c 'bash scripts/build-wasm.sh && node scripts/build-web.mjs' &&
  page=1
# The slow phone and the page offline run as stages of their own, so the table shows them.
browser_files=()
for file in web/test/*.test.mjs; do
  case $file in
    */slow-device.test.mjs | */offline.test.mjs) ;;
    *) browser_files+=("$file") ;;
  esac
done
needs "$page" "the wasm and page build failed" \
  "wasm in Node; the page in Chromium, Firefox and WebKit" 3000 \
  node --test --test-timeout="$BROWSER_FILE_LIMIT_MS" "${browser_files[@]}"
needs "$page" "the wasm and page build failed" \
  "the page on a phone with the CPU slowed 6x (slow-device.test.mjs)" 900 \
  node --test --test-timeout="$SLOW_DEVICE_FILE_LIMIT_MS" web/test/slow-device.test.mjs
needs "$page" "the wasm and page build failed" \
  "the page offline after one visit; a new deploy (offline.test.mjs)" 600 \
  node --test --test-timeout="$OFFLINE_FILE_LIMIT_MS" web/test/offline.test.mjs
needs "$page" "the wasm and page build failed" \
  "unit tests: the page's models, the scripts" 600 \
  node --test --test-timeout="$UNIT_FILE_LIMIT_MS" web/test/unit/*.test.mjs scripts/test/*.test.mjs
needs "$page" "the wasm and page build failed" \
  "prose: words and grade per section and live note" 300 node scripts/prose.mjs

summary
[ "$failed" = 0 ]
