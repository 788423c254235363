// backward.cpp: the attention head's gradients, in float32 from formula()'s weights and in
// float64 from reference_f64()'s. See backward.hpp for the formulas. Both precisions run the
// same four passes (one template); the float64 one is checked against PyTorch and against
// finite differences independently, so sharing the code hides no error from the tests.
#include "learning/backward.hpp"

#include "attention/checks.hpp"
#include "attention/kernel/product_job.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace attention {

namespace {

std::string shape_text(int rows, int cols) {
    return "(" + std::to_string(rows) + ", " + std::to_string(cols) + ")";
}

void require_shape(const Matrix& m, int rows, int cols, const char* name) {
    if (m.rows != rows || m.cols != cols)
        throw std::invalid_argument(std::string(name) + " has shape " + shape_text(m.rows, m.cols) +
                                    "; it must be " + shape_text(rows, cols) + ", the shape of the output");
}

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
// queries i for dV and dK, over the keys j for dQ, over the columns c for dW).
template <typename Real>
void gradients(const Real* q, const Real* k, const Real* v, const Real* weights, Real scale,
               const Real* d_output, int T, int d, int d_v, Real* dq, Real* dk, Real* dv) {
    using products::Product;
    using products::Range;
    const Extents<Real> extents(weights, T);
    // 1. dV = Wᵀ·dO: dV[j] sums W[i][j]·dO[i] over the queries i that saw key j.
    products::add_product_anywhere(Product<Real>{dv, d_v, weights, 1, T, d_output, d_v}, T,
                                   [&](int j, int rows) noexcept {
                                       const auto [first, last] = extents.rows_of_columns(j, rows);
                                       return Range{0, d_v, first, last};
                                   });
    // 2. dW = dO·Vᵀ, for the keys each query saw.
    std::vector<Real> v_transposed(Matrix::element_count(d_v, T));
    products::transpose(v_transposed.data(), v, T, d_v);
    std::vector<Real> d_scores(Matrix::element_count(T, T), Real(0));
    products::add_product_anywhere(
        Product<Real>{d_scores.data(), T, d_output, d_v, 1, v_transposed.data(), T}, T,
        [&](int i, int rows) noexcept {
            const auto [first, last] = extents.columns_of_rows(i, rows);
            return Range{first, last, 0, d_v};
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
        for (int j = first; j < last; ++j) weighted_mean += w_row[j] * d_score_row[j];
        for (int j = first; j < last; ++j)
            d_score_row[j] = scale * w_row[j] * (d_score_row[j] - weighted_mean);
        for (int j = 0; j < T; ++j)
            if (j < first || j >= last) d_score_row[j] = Real(0);
    }
    // 4. dQ = dS·K and dK = dSᵀ·Q.
    products::add_product_anywhere(Product<Real>{dq, d, d_scores.data(), T, 1, k, d}, T,
                                   [&](int i, int rows) noexcept {
                                       const auto [first, last] = extents.columns_of_rows(i, rows);
                                       return Range{0, d, first, last};
                                   });
    products::add_product_anywhere(Product<Real>{dk, d, d_scores.data(), 1, T, q, d}, T,
                                   [&](int j, int rows) noexcept {
                                       const auto [first, last] = extents.rows_of_columns(j, rows);
                                       return Range{0, d, first, last};
                                   });
}

void require_matching(const Matrix& q, const Matrix& k, const Matrix& v, const Matrix& weights,
                      const Matrix& d_output) {
    const int T = q.rows;
    require_shape(k, T, q.cols, "k");
    if (v.rows != T)
        throw std::invalid_argument("v has " + std::to_string(v.rows) + " rows but q has T = " +
                                    std::to_string(T) + "; every token needs one value row");
    require_shape(weights, T, T, "weights");
    require_shape(d_output, T, v.cols, "gradOutput");
}

}  // namespace

AttentionGradients backward_from_weights(const Matrix& q, const Matrix& k, const Matrix& v,
                                         const Matrix& weights, double scale_factor, const Matrix& d_output) {
    require_matching(q, k, v, weights, d_output);
    const int T = q.rows, d = q.cols, d_v = v.cols;
    AttentionGradients result{Matrix(T, d), Matrix(T, d), Matrix(T, d_v)};
    gradients<float>(q.values.data(), k.values.data(), v.values.data(), weights.values.data(),
                     static_cast<float>(scale_factor), d_output.values.data(), T, d, d_v,
                     result.dq.values.data(), result.dk.values.data(), result.dv.values.data());
    return result;
}

AttentionGradients backward(const Matrix& q, const Matrix& k, const Matrix& v, Scale scale, bool causal,
                            const Matrix& d_output) {
    const Intermediates forward = formula(q, k, v, scale, causal);
    require_shape(d_output, q.rows, v.cols, "gradOutput");
    require_finite(d_output, "gradOutput");
    return backward_from_weights(q, k, v, forward.weights, forward.scale, d_output);
}

AttentionGradientsF64 backward_f64(const Matrix& q, const Matrix& k, const Matrix& v, Scale scale,
                                   bool causal, const Matrix& d_output) {
    const ReferenceF64 forward = reference_f64(q, k, v, scale, causal);
    require_shape(d_output, q.rows, v.cols, "gradOutput");
    require_finite(d_output, "gradOutput");
    const auto widen = [](const Matrix& m) { return std::vector<double>(m.values.begin(), m.values.end()); };
    const std::vector<double> q64 = widen(q), k64 = widen(k), v64 = widen(v), d_output64 = widen(d_output);
    const int T = q.rows, d = q.cols, d_v = v.cols;
    AttentionGradientsF64 result;
    result.dq.assign(q64.size(), 0.0);
    result.dk.assign(k64.size(), 0.0);
    result.dv.assign(v64.size(), 0.0);
    gradients<double>(q64.data(), k64.data(), v64.data(), forward.weights.data(), scale_factor(scale, d),
                      d_output64.data(), T, d, d_v, result.dq.data(), result.dk.data(), result.dv.data());
    return result;
}

Matrix rows_of(const Matrix& m, int first, int count) {
    const auto begin = m.values.begin() + static_cast<std::ptrdiff_t>(Matrix::index(first, 0, m.cols));
    return Matrix(count, m.cols,
                  std::vector<float>(begin, begin + static_cast<std::ptrdiff_t>(count) * m.cols));
}

void set_rows(Matrix& m, int first, const Matrix& block) {
    std::copy(block.values.begin(), block.values.end(),
              m.values.begin() + static_cast<std::ptrdiff_t>(Matrix::index(first, 0, m.cols)));
}

}  // namespace attention
