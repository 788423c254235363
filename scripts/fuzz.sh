#!/usr/bin/env bash
# Builds fuzz_attention (libFuzzer + ASan + UBSan, clang 14) and fuzzes the core for N seconds.
# Usage: scripts/fuzz.sh [seconds, default 30] [extra libFuzzer flags...]
# With ATTENTION_WERROR=ON in the environment (npm test sets it) any compiler warning fails the build.
#
# The committed seeds (fuzz/corpus) are copied into build/fuzz/corpus, which libFuzzer grows;
# the committed folders are never written. Every input in fuzz/regressions (one per bug found
# so far) is run first, so a bug that comes back fails the run even if the random search
# misses it. A crash, sanitizer report or broken invariant fails the script and leaves the
# input in build/fuzz/artifacts/; replay it with build/fuzz/fuzz/fuzz_attention FILE.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-30}"
shift || true

# libFuzzer's runtime is a separate Debian package, only recommended by clang-14.
runtime="$(clang++-14 -print-resource-dir 2>/dev/null)/lib/linux/libclang_rt.fuzzer-$(uname -m).a"
if [ "$(uname)" = Linux ] && [ ! -e "$runtime" ]; then
  echo "fuzz: libFuzzer's runtime is missing; install it with: apt-get install libclang-rt-14-dev" >&2
  exit 1
fi

cmake --preset fuzz -DATTENTION_WERROR="${ATTENTION_WERROR:-OFF}" >/dev/null
cmake --build --preset fuzz -j "$(nproc)"

work=build/fuzz
mkdir -p "$work/corpus" "$work/artifacts"
cp fuzz/corpus/* "$work/corpus/"

log="$work/last-run.log"
# max_len: a 64x64 head in one byte per value needs ~12 KB; 8 KB with the seeded encodings
# reaches every shape. timeout: no valid input should take more than a fraction of a second.
status=0
"$work/fuzz/fuzz_attention" -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
  -print_final_stats=1 -artifact_prefix="$work/artifacts/" "$@" "$work/corpus" fuzz/regressions >"$log" 2>&1 || status=$?

executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
coverage=$(grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+' "$log" | tail -1 || true)
if [ "$status" -ne 0 ]; then
  grep -E 'INVARIANT BROKEN|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error|SUMMARY|Test unit written' "$log" | head -20 >&2
  echo "fuzz: FAILED after ${executions:-?} executions (full log: $log)" >&2
  exit "$status"
fi
echo "fuzz: ${executions} executions in ${seconds} s (${speed} exec/s), ${coverage}, no crash"
