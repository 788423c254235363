// wasm_peak.cpp: the page's peak multiply-add rate (see multiply_add_peak.hpp), as a tiny wasm
// module built with the same -O3 -msimd128 as the attention module: scripts/bench.sh makes
// build/bench/wasm-peak.js, factory WasmPeak, and the page calls Module._peak_gflops().
#include "multiply_add_peak.hpp"

#include <emscripten/emscripten.h>

extern "C" EMSCRIPTEN_KEEPALIVE double peak_gflops(double seed) {
    return bench::peak_gflops(static_cast<float>(seed));
}
