// products: the register-blocked matrix products under the model's forward and backward passes
// (learning/model.cpp, learning/backward.cpp) and the map's projections (tutorial/map.cpp). Internal to the
// core.
//
// Every product here is out(i, j) += Σ_p a(i, p)·b(p, j), with the terms added one at a time, in
// increasing p, onto the value already in out, each product and each sum rounded on its own:
// exactly what the plain triple loop computes, so a training run is the same bit for bit as with
// the plain loops, natively and in wasm's simd128 build (the relaxed-SIMD module differs: below).
// What makes it fast is only the order in which entries are visited: a block of kRows rows × up
// to kVectors vectors of columns stays in registers for the whole sum over p, so each vector of b
// that is loaded feeds kRows multiply-adds, and out is read and written once instead of once per
// p.
//
// Zero terms may be skipped or added: a sum that starts at +0 never becomes −0 (x + y is −0 only
// when both are −0), and adding ±0 to anything else leaves it as it was. So a caller may leave out
// a range of p whose a(i, p) are all exactly 0 (a causal mask's zeros) with no change to any bit,
// as long as out started at +0 or holds what the plain loop would have put there.
//
// It is deliberately not a general GEMM: no packing, no threads, and no fused multiply-add (natively
// model.cpp and backward.cpp are compiled with -ffp-contract=off; wasm simd128 has none), except
// where asked for. Fused = true makes each vector multiply-add one fused multiply-add, rounded
// once (a vfmadd where the compiler targets FMA, as -march=native does here; a slow software fma
// where it does not): the layered model's fast path (cpp/learning/layered/layered_model.hpp).
// And the relaxed-SIMD module (cpp/attention/kernel/relaxed_kernel.cpp, built with -mrelaxed-simd)
// fuses every one: its products then differ from the plain loop's in the last bits, and only the
// wasm trainer uses them (cpp/attention/kernel/product_job.hpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>

#include "attention/kernel/vector_width.hpp"

namespace attention {
// Internal linkage: a file compiled with other vector flags gets its own copy, never this one.
// noexcept throughout: with C++ exceptions on, em++ routes every call that may throw through a
// JavaScript trampoline, which costs more than a small block's arithmetic.
namespace {
namespace products {

using simd::kVectorBytes;

// A block of kRows × kVectors accumulators, plus kVectors loads and one broadcast, fits the 16
// vector registers that V8 gives wasm on x86 without spilling.
constexpr int kRows = 4;
constexpr int kVectors = 2;

template <typename Real>
struct Simd {
    typedef Real Vector __attribute__((vector_size(kVectorBytes)));
    static constexpr int kLanes = kVectorBytes / static_cast<int>(sizeof(Real));
};

template <typename Vector, typename Real>
Vector load(const Real* from) noexcept {
    Vector value;
    std::memcpy(&value, from, sizeof value);
    return value;
}

template <typename Vector, typename Real>
void store(Real* to, Vector value) noexcept {
    std::memcpy(to, &value, sizeof value);
}

// out (n, m) with row stride out_stride; a(i, p) = a[i·a_row + p·a_column], so a transposed is
// the same buffer with the strides swapped; b (k, m) with row stride b_stride.
template <typename Real>
struct Product {
    Real* out;
    int out_stride;
    const Real* a;
    int a_row;
    int a_column;
    const Real* b;
    int b_stride;
};

// For one block of rows: the columns [column_begin, column_end) of out it adds to, and the terms
// [p_begin, p_end) of each sum (every other a(i, p) of those rows is 0, or not wanted).
struct Range {
    int column_begin;
    int column_end;
    int p_begin;
    int p_end;
};

// range with its columns widened to a whole number of vectors where [0, limit) has room, so that
// none of them takes add_column's one-column path: for callers that compute more columns than
// they keep and then overwrite or ignore the extra ones (a causal mask's scores, for one).
template <typename Real>
Range whole_vectors(Range range, int limit) noexcept {
    constexpr int lanes = Simd<Real>::kLanes;
    const int width = (range.column_end - range.column_begin + lanes - 1) / lanes * lanes;
    range.column_end = std::min(limit, range.column_begin + width);
    range.column_begin = std::max(0, range.column_end - width);
    return range;
}

// sum + a·b: rounded twice, as the plain loop does, except under -mrelaxed-simd, where it is one
// f32x4 or f64x2 relaxed_madd (a fused multiply-add on x86 with FMA, rounded once), and with
// Fused, where each lane is std::fma (which GCC and Clang turn into one vector fused multiply-add).
template <bool Fused, typename Vector>
Vector multiply_add(Vector a, Vector b, Vector sum) noexcept {
    if constexpr (Fused) {
        constexpr int lanes = static_cast<int>(sizeof(Vector) / sizeof(a[0]));
        for (int l = 0; l < lanes; ++l) sum[l] = std::fma(a[l], b[l], sum[l]);
        return sum;
    }
#if defined(__wasm_relaxed_simd__)
    if constexpr (sizeof(a[0]) == sizeof(float))
        return __builtin_wasm_relaxed_madd_f32x4(a, b, sum);
    else
        return __builtin_wasm_relaxed_madd_f64x2(a, b, sum);
#else
    return sum + a * b;
#endif
}

// Rows [i, i + Rows) × columns [j, j + Vectors·lanes): the register-blocked kernel.
template <int Rows, int Vectors, bool Fused, typename Real>
void add_block(const Product<Real>& x, int i, int j, int p_begin, int p_end) noexcept {
    using Vector = typename Simd<Real>::Vector;
    constexpr int lanes = Simd<Real>::kLanes;
    Vector sum[Rows][Vectors];
    for (int r = 0; r < Rows; ++r)
        for (int v = 0; v < Vectors; ++v)
            sum[r][v] = load<Vector>(x.out + (i + r) * x.out_stride + j + v * lanes);
    const Real* a_p = x.a + i * x.a_row + p_begin * x.a_column;
    const Real* b_p = x.b + p_begin * x.b_stride + j;
    for (int p = p_begin; p < p_end; ++p, a_p += x.a_column, b_p += x.b_stride) {
        Vector b_row[Vectors];
        for (int v = 0; v < Vectors; ++v) b_row[v] = load<Vector>(b_p + v * lanes);
#pragma GCC unroll 4
        // Unrolled on request: GCC leaves this loop rolled when the fused multiply-add is written
        // lane by lane, and then keeps the accumulators in memory instead of registers.
        for (int r = 0; r < Rows; ++r) {
            // a − 0 is a for every a (a + 0 is not: −0 + 0 = +0), and folds to a broadcast.
            const Vector a_rp = a_p[r * x.a_row] - Vector{};
            for (int v = 0; v < Vectors; ++v) sum[r][v] = multiply_add<Fused>(a_rp, b_row[v], sum[r][v]);
        }
    }
    for (int r = 0; r < Rows; ++r)
        for (int v = 0; v < Vectors; ++v) store(x.out + (i + r) * x.out_stride + j + v * lanes, sum[r][v]);
}

// The same for one column j (what is left of a row narrower than a vector).
template <int Rows, bool Fused, typename Real>
void add_column(const Product<Real>& x, int i, int j, int p_begin, int p_end) noexcept {
    Real sum[Rows];
    for (int r = 0; r < Rows; ++r) sum[r] = x.out[(i + r) * x.out_stride + j];
    for (int p = p_begin; p < p_end; ++p)
        for (int r = 0; r < Rows; ++r) {
            const Real a = x.a[(i + r) * x.a_row + p * x.a_column], b = x.b[p * x.b_stride + j];
            sum[r] = Fused ? std::fma(a, b, sum[r]) : sum[r] + a * b;
        }
    for (int r = 0; r < Rows; ++r) x.out[(i + r) * x.out_stride + j] = sum[r];
}

template <int Rows, bool Fused, typename Real>
void add_rows(const Product<Real>& x, int i, const Range& range) noexcept {
    constexpr int lanes = Simd<Real>::kLanes;
    int j = range.column_begin;
    for (; j + kVectors * lanes <= range.column_end; j += kVectors * lanes)
        add_block<Rows, kVectors, Fused>(x, i, j, range.p_begin, range.p_end);
    for (; j + lanes <= range.column_end; j += lanes)
        add_block<Rows, 1, Fused>(x, i, j, range.p_begin, range.p_end);
    for (; j < range.column_end; ++j) add_column<Rows, Fused>(x, i, j, range.p_begin, range.p_end);
}

// out += a·b over rows [0, n): range_of(i, rows) says which columns and terms the block of rows
// [i, i + rows) needs.
template <bool Fused = false, typename Real, typename RangeOf>
void add_product(const Product<Real>& x, int n, RangeOf range_of) noexcept {
    int i = 0;
    for (; i + kRows <= n; i += kRows) add_rows<kRows, Fused>(x, i, range_of(i, kRows));
    for (; i < n; ++i) add_rows<1, Fused>(x, i, range_of(i, 1));
}

// out (n, m) += a (n, k) · b (k, m), all row-major and packed.
template <bool Fused = false, typename Real>
void add_full_product(Real* out, const Real* a, const Real* b, int n, int k, int m) noexcept {
    add_product<Fused>(Product<Real>{out, m, a, k, 1, b, m}, n, [&](int, int) noexcept {
        return Range{0, m, 0, k};
    });
}

// out (k, m) += aᵀ·b with a (n, k) and b (n, m): the sum runs over a's rows.
template <bool Fused = false, typename Real>
void add_transposed_product(Real* out, const Real* a, const Real* b, int n, int k, int m) noexcept {
    add_product<Fused>(Product<Real>{out, m, a, 1, k, b, m}, k, [&](int, int) noexcept {
        return Range{0, m, 0, n};
    });
}

// The fast path's reductions: Σ a[j]·b[j] and Σ a[j] over j < n, a vector of partial sums at a time
// (fused multiply-adds), added up at the end: another order than the plain loop's, and no
// sequential chain of dependent adds.
template <typename Real>
Real vector_dot(const Real* a, const Real* b, int n) noexcept {
    using Vector = typename Simd<Real>::Vector;
    constexpr int lanes = Simd<Real>::kLanes;
    Vector sums{};
    int j = 0;
    for (; j + lanes <= n; j += lanes)
        sums = multiply_add<true>(load<Vector>(a + j), load<Vector>(b + j), sums);
    Real total = 0;
    for (int lane = 0; lane < lanes; ++lane) total += sums[lane];
    for (; j < n; ++j) total = std::fma(a[j], b[j], total);
    return total;
}

template <typename Real>
Real vector_sum(const Real* a, int n) noexcept {
    using Vector = typename Simd<Real>::Vector;
    constexpr int lanes = Simd<Real>::kLanes;
    Vector sums{};
    int j = 0;
    for (; j + lanes <= n; j += lanes) sums += load<Vector>(a + j);
    Real total = 0;
    for (int lane = 0; lane < lanes; ++lane) total += sums[lane];
    for (; j < n; ++j) total += a[j];
    return total;
}

// transposed (cols, rows) = m (rows, cols)ᵀ, so that a product with mᵀ reads along rows.
template <typename Real>
void transpose(Real* transposed, const Real* m, int rows, int cols) noexcept {
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) transposed[c * rows + r] = m[r * cols + c];
}

}  // namespace products
}  // namespace
}  // namespace attention
