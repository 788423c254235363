// relaxed_peak.cpp: the relaxed-SIMD peak multiply-add rate (see multiply_add_peak.hpp), the
// denominator of the browser kernel's "% peak" when it runs the relaxed-SIMD module. Built like
// that module (clang-19, -mrelaxed-simd, no libc; scripts/bench.sh makes
// build/bench/relaxed-peak.wasm). It has no clock, so bench/kernel-page.mjs times each export:
// chainsN(iterations, seed) runs N independent chains of f32x4.relaxed_madd.
#include "multiply_add_peak.hpp"

#include <utility>

extern "C" __attribute__((export_name("chains8"))) float chains8(long iterations, float seed) {
    return bench::multiply_add_chains(iterations, seed, std::make_index_sequence<8>{});
}

extern "C" __attribute__((export_name("chains12"))) float chains12(long iterations, float seed) {
    return bench::multiply_add_chains(iterations, seed, std::make_index_sequence<12>{});
}

extern "C" __attribute__((export_name("chains14"))) float chains14(long iterations, float seed) {
    return bench::multiply_add_chains(iterations, seed, std::make_index_sequence<14>{});
}
