// multiply_add_peak.hpp: this core's peak rate of float multiply-adds, the denominator of the
// benchmark's "fraction of peak". Shared by native_bench.cpp (built with -march=native, like
// cpp/attention/kernel/fused.cpp), wasm_peak.cpp (built with -msimd128, like the wasm module) and
// relaxed_peak.cpp (built with -mrelaxed-simd, like the relaxed-SIMD kernel module).
//
// Independent chains of a = a·m + c on the widest vectors the compiler targets, enough of them to
// cover the latency of a multiply-add. Natively that is one fused multiply-add instruction; wasm
// simd128 has none, so there it is a multiply and an add, and the peak is what those two reach;
// with relaxed SIMD it is f32x4.relaxed_madd, as in cpp/attention/kernel/fused_kernel.hpp. Each
// multiply-add counts as 2 floating-point operations, as in the GFLOP/s of the kernels.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <utility>

#include "../cpp/attention/kernel/vector_width.hpp"

namespace bench {

constexpr int kPeakLanes = attention::simd::kVectorBytes / static_cast<int>(sizeof(float));
typedef float PeakFloats __attribute__((vector_size(kPeakLanes * sizeof(float))));

inline PeakFloats multiply_add(PeakFloats a, PeakFloats b, PeakFloats c) {
#if defined(__wasm_relaxed_simd__)
    return __builtin_wasm_relaxed_madd_f32x4(a, b, c);
#else
    return a * b + c;
#endif
}

// Chains in named registers: a fold expression unrolls them at compile time.
template <std::size_t... Chain>
float multiply_add_chains(long iterations, float seed, std::index_sequence<Chain...>) {
    const PeakFloats m = PeakFloats{} + (0.999999f + seed * 1e-9f);
    const PeakFloats c = PeakFloats{} + 1e-7f;
    PeakFloats chain[sizeof...(Chain)] = {(PeakFloats{} + seed * static_cast<float>(Chain))...};
    for (long n = 0; n < iterations; ++n) ((chain[Chain] = multiply_add(chain[Chain], m, c)), ...);
    float sum = 0.0f;
    for (const PeakFloats& x : chain)
        for (int lane = 0; lane < kPeakLanes; ++lane) sum += x[lane];
    return sum;
}

// Best GFLOP/s of a few runs of about 0.1 s each, for `Chains` independent chains.
template <std::size_t Chains>
double multiply_add_gflops(float seed) {
    const long iterations = 20'000'000 / static_cast<long>(Chains) * 16 / kPeakLanes;
    double best = 0.0;
    volatile float sink = 0.0f;  // keeps the chains' result, so the loop cannot be dropped
    for (int repeat = 0; repeat < 4; ++repeat) {
        const auto start = std::chrono::steady_clock::now();
        sink = sink + multiply_add_chains(iterations, seed, std::make_index_sequence<Chains>{});
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        best = std::max(best, 2.0 * kPeakLanes * Chains * static_cast<double>(iterations) / seconds / 1e9);
    }
    return best;
}

// The peak: the best over chain counts that suit 16 and 32 vector registers.
inline double peak_gflops(float seed) {
    return std::max({multiply_add_gflops<8>(seed), multiply_add_gflops<12>(seed),
                     multiply_add_gflops < kPeakLanes == 16 ? 24 : 14 > (seed)});
}

}  // namespace bench
