// product_job: a product of products.hpp written down as plain data (a ProductJob), so that the
// relaxed-SIMD wasm module (cpp/attention/kernel/relaxed_kernel.cpp) can run it on the trainer's
// memory, and add_product_anywhere(), which the model's passes call instead of
// products::add_product: in the wasm trainer it hands each product to that module when the
// engine runs relaxed SIMD (cpp/attention/kernel/relaxed-library.js) and otherwise runs the
// simd128 products compiled into the trainer; natively it is products::add_product itself, so
// the native run stays the same bit for bit.
//
// It is not a second kernel: both modules run products.hpp's add_product on the same ranges.
// Only the arithmetic differs (one fused multiply-add per term in the relaxed module), so the
// relaxed trainer's losses follow the native ones to a relative 1e-4 over 50 steps rather than
// bit for bit (web/test/training-agreement.test.mjs).
#pragma once

#include "attention/kernel/products.hpp"

#if defined(__EMSCRIPTEN__) && !defined(__wasm_relaxed_simd__)
#include <vector>

// From cpp/attention/kernel/relaxed-library.js (linked with --js-library): runs the job in the
// relaxed-SIMD module and returns 1, or returns 0 where that module is not in use.
extern "C" int attention_relaxed_product_f32(const void* job);
extern "C" int attention_relaxed_product_f64(const void* job);
#endif

namespace attention {
namespace {
namespace products {

// add_product(product, n, range_of) with range_of's answers written out: ranges[b] for the b-th
// block of rows, in add_product's order (the blocks of kRows rows, then the rows left one by one).
// Only ints and pointers, so that both wasm32 modules, compiled from this header, agree on it.
template <typename Real>
struct ProductJob {
    Product<Real> product;
    int n;
    const Range* ranges;
};

// The block of rows that starts at row i.
inline int block_of(int i, int n) noexcept {
    const int blocked = n - n % kRows;
    return i < blocked ? i / kRows : blocked / kRows + (i - blocked);
}

template <typename Real>
void run_job(const ProductJob<Real>& job) noexcept {
    add_product(job.product, job.n, [&](int i, int) noexcept { return job.ranges[block_of(i, job.n)]; });
}

#if defined(__EMSCRIPTEN__) && !defined(__wasm_relaxed_simd__)
template <typename Real>
bool run_relaxed(const ProductJob<Real>& job) noexcept {
    if constexpr (sizeof(Real) == sizeof(float))
        return attention_relaxed_product_f32(&job) != 0;
    else
        return attention_relaxed_product_f64(&job) != 0;
}
#endif

// out += a·b over rows [0, n), as add_product(x, n, range_of), in whichever module runs it.
// Fused (natively only: the layered model's fast path) picks products.hpp's fused multiply-add.
template <bool Fused = false, typename Real, typename RangeOf>
void add_product_anywhere(const Product<Real>& x, int n, RangeOf range_of) {
#if defined(__EMSCRIPTEN__) && !defined(__wasm_relaxed_simd__)
    std::vector<Range> ranges;
    ranges.reserve(static_cast<std::size_t>(n / kRows + kRows));
    int i = 0;
    for (; i + kRows <= n; i += kRows) ranges.push_back(range_of(i, kRows));
    for (; i < n; ++i) ranges.push_back(range_of(i, 1));
    if (run_relaxed(ProductJob<Real>{x, n, ranges.data()})) return;
#endif
    add_product<Fused>(x, n, range_of);
}

// add_full_product and add_transposed_product (products.hpp), in whichever module runs them.
template <typename Real>
void add_full_product_anywhere(Real* out, const Real* a, const Real* b, int n, int k, int m) {
    add_product_anywhere(Product<Real>{out, m, a, k, 1, b, m}, n, [&](int, int) noexcept {
        return Range{0, m, 0, k};
    });
}

template <typename Real>
void add_transposed_product_anywhere(Real* out, const Real* a, const Real* b, int n, int k, int m) {
    add_product_anywhere(Product<Real>{out, m, a, 1, k, b, m}, k, [&](int, int) noexcept {
        return Range{0, m, 0, n};
    });
}

}  // namespace products
}  // namespace
}  // namespace attention
