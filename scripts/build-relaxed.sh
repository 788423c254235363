#!/usr/bin/env bash
# Builds the relaxed-SIMD kernel module (cpp/attention/kernel/relaxed_kernel.cpp) with clang-19 and
# wasm-ld-19 and writes OUTPUT: cpp/attention/kernel/relaxed-library.js with the module inside (deflated, base64),
# the JS library that CMakeLists.txt links into the wasm build (docs/benchmarks.md, "The relaxed-SIMD kernel: how it is built and chosen").
# Emscripten 3.1.6 cannot do this itself: its binaryen rejects the relaxed-SIMD opcodes.
# Usage: scripts/build-relaxed.sh OUTPUT   (CMake runs it; CLANG and WASM_LD override the tools)
#        scripts/build-relaxed.sh --peak OUTPUT.wasm   (scripts/bench.sh: the relaxed-SIMD peak probe,
#        bench/relaxed_peak.cpp, a module with its own memory)
set -euo pipefail
cd "$(dirname "$0")/.."
peak=false
if [ "$1" = --peak ]; then
  peak=true
  shift
fi
output=$1
clang=${CLANG:-clang-19}
wasm_ld=${WASM_LD:-$(command -v wasm-ld-19 || echo /usr/lib/llvm-19/bin/wasm-ld)}
for tool in "$clang" "$wasm_ld"; do
  command -v "$tool" >/dev/null || {
    echo "build-relaxed: $tool not found; install clang-19 and lld-19 (scripts/setup.sh does)" >&2
    exit 1
  }
done
# The C++ headers (<algorithm>, <limits>) come from Emscripten's sysroot; nothing is linked
# from it.
sysroot="$(dirname "$(command -v em++)")/../share/emscripten/cache/sysroot"
[ -d "$sysroot" ] || sysroot=$(em-config CACHE)/sysroot

flags=(--target=wasm32-unknown-emscripten --sysroot="$sysroot" -std=c++17 -O3 -msimd128 -mrelaxed-simd
  -mbulk-memory -fno-exceptions -Wall -Wextra -Werror -Icpp)
if $peak; then
  "$clang" "${flags[@]}" -c bench/relaxed_peak.cpp -o "$output.o"
  "$wasm_ld" --no-entry --strip-all "$output.o" -o "$output"
  exit 0
fi

work=$(dirname "$output")/relaxed-kernel
mkdir -p "$work"
"$clang" "${flags[@]}" -S cpp/attention/kernel/relaxed_kernel.cpp -o "$work/relaxed_kernel.s"
# The module borrows the Emscripten module's memory: a stack or a data segment of its own would
# sit at fixed low addresses that belong to that module, so there must be none.
if grep -Eq '__stack_pointer|\.section[[:space:]]+\.(data|rodata|bss)' "$work/relaxed_kernel.s"; then
  echo "build-relaxed: the kernel uses a stack or static data ($work/relaxed_kernel.s)" >&2
  exit 1
fi
"$clang" "${flags[@]}" -c cpp/attention/kernel/relaxed_kernel.cpp -o "$work/relaxed_kernel.o"
# wasm-ld directly: the clang driver would run any wasm-opt on PATH, which rejects the opcodes.
"$wasm_ld" --no-entry --import-memory --strip-all "$work/relaxed_kernel.o" -o "$work/relaxed-kernel.wasm"
node scripts/embed-wasm.mjs RELAXED_KERNEL_DEFLATED "$work/relaxed-kernel.wasm" cpp/attention/kernel/relaxed-library.js "$output"
