// attention_gradients: the four passes of one head's backward on row-major buffers, shared by
// the one-head model's backward (backward.cpp, float32 and float64) and the layered model's
// (cpp/learning/layered/layered_model.cpp), which calls it on each window's rows of its stacked
// matrices in place, and with Fused on its fast path. See backward.hpp for the formulas. Internal
// to those files: an unnamed namespace, so each gets its own copy.
#pragma once

#include "attention/kernel/product_job.hpp"

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace attention {
namespace {

// Where a weights matrix (T, T) is not zero: row i's nonzero weights lie in columns
// [row_begin[i], row_end[i]), column j's in rows [column_begin[j], column_end[j]). A causal
// mask's zeros are then never visited; leaving them out changes no bit (cpp/attention/kernel/products.hpp).
template <typename Real>
struct Extents {
    std::vector<int> row_begin, row_end, column_begin, column_end;

    Extents(const Real* weights, int T)
        : row_begin(static_cast<std::size_t>(T), T),
          row_end(static_cast<std::size_t>(T), 0),
          column_begin(static_cast<std::size_t>(T), T),
          column_end(static_cast<std::size_t>(T), 0) {
        for (int i = 0; i < T; ++i)
            for (int j = 0; j < T; ++j)
                if (weights[Matrix::index(i, j, T)] != Real(0)) {
                    const auto row = static_cast<std::size_t>(i), column = static_cast<std::size_t>(j);
                    row_begin[row] = std::min(row_begin[row], j);
                    row_end[row] = j + 1;
                    column_begin[column] = std::min(column_begin[column], i);
                    column_end[column] = i + 1;
                }
    }

    // The union of [begin, end) over [first, first + count), or an empty range.
    static std::pair<int, int> span(const std::vector<int>& begin, const std::vector<int>& end, int first,
                                    int count) noexcept {
        const auto from = begin.begin() + first, to = from + count;
        const int low = *std::min_element(from, to);
        const int high = *std::max_element(end.begin() + first, end.begin() + first + count);
        return low < high ? std::make_pair(low, high) : std::make_pair(0, 0);
    }
    std::pair<int, int> columns_of_rows(int first, int count) const noexcept {
        return span(row_begin, row_end, first, count);
    }
    std::pair<int, int> rows_of_columns(int first, int count) const noexcept {
        return span(column_begin, column_end, first, count);
    }
};

// Row-major buffers of one precision. q, k: (T, d); v, d_output: (T, d_v); weights: (T, T)
// with masked entries exactly 0. Outputs dq, dk: (T, d) and dv: (T, d_v), zero on entry.
// Every pass is a matrix product whose sums run in the order of the plain loops (over the
// queries i for dV and dK, over the keys j for dQ, over the columns c for dW). With Fused (the
// layered model's fast path) each multiply-add is fused and the softmax's row sums run a vector
// at a time.
template <typename Real, bool Fused = false>
void attention_gradients(const Real* q, const Real* k, const Real* v, const Real* weights, Real scale,
                         const Real* d_output, int T, int d, int d_v, Real* dq, Real* dk, Real* dv) {
    using products::Product;
    using products::Range;
    const Extents<Real> extents(weights, T);
    // 1. dV = Wᵀ·dO: dV[j] sums W[i][j]·dO[i] over the queries i that saw key j.
    products::add_product_anywhere<Fused>(Product<Real>{dv, d_v, weights, 1, T, d_output, d_v}, T,
                                          [&](int j, int rows) noexcept {
                                              const auto [first, last] = extents.rows_of_columns(j, rows);
                                              return Range{0, d_v, first, last};
                                          });
    // 2. dW = dO·Vᵀ, for the keys each query saw.
    std::vector<Real> v_transposed(static_cast<std::size_t>(d_v) * static_cast<std::size_t>(T));
    products::transpose(v_transposed.data(), v, T, d_v);
    std::vector<Real> d_scores(static_cast<std::size_t>(T) * static_cast<std::size_t>(T), Real(0));
    products::add_product_anywhere<Fused>(
        Product<Real>{d_scores.data(), T, d_output, d_v, 1, v_transposed.data(), T}, T,
        [&](int i, int rows) noexcept {
            // The columns past a row's extent are set to 0 below: widening costs no bit.
            const auto [first, last] = extents.columns_of_rows(i, rows);
            return products::whole_vectors<Real>(Range{first, last, 0, d_v}, T);
        });
    // 3. Through the softmax: dS = W ∘ (dW − the row's weighted mean of dW), then through the
    //    scale. A weight that underflowed to 0 (a saturated row) passes no gradient, exactly as
    //    in the forward; outside a row's extent dS stays 0.
    for (int i = 0; i < T; ++i) {
        const Real* w_row = &weights[Matrix::index(i, 0, T)];
        Real* d_score_row = &d_scores[Matrix::index(i, 0, T)];
        const int first = extents.row_begin[static_cast<std::size_t>(i)];
        const int last = extents.row_end[static_cast<std::size_t>(i)];
        Real weighted_mean = 0;
        if constexpr (Fused)
            weighted_mean = products::vector_dot(w_row + first, d_score_row + first, last - first);
        else
            for (int j = first; j < last; ++j) weighted_mean += w_row[j] * d_score_row[j];
        for (int j = first; j < last; ++j)
            d_score_row[j] = scale * w_row[j] * (d_score_row[j] - weighted_mean);
        for (int j = 0; j < T; ++j)
            if (j < first || j >= last) d_score_row[j] = Real(0);
    }
    // 4. dQ = dS·K and dK = dSᵀ·Q.
    products::add_product_anywhere<Fused>(Product<Real>{dq, d, d_scores.data(), T, 1, k, d}, T,
                                          [&](int i, int rows) noexcept {
                                              const auto [first, last] = extents.columns_of_rows(i, rows);
                                              return Range{0, d, first, last};
                                          });
    products::add_product_anywhere<Fused>(Product<Real>{dk, d, d_scores.data(), 1, T, q, d}, T,
                                          [&](int j, int rows) noexcept {
                                              const auto [first, last] = extents.rows_of_columns(j, rows);
                                              return Range{0, d, first, last};
                                          });
}

}  // namespace
}  // namespace attention
