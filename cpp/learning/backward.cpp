// backward.cpp: the attention head's gradients, in float32 from formula()'s weights and in
// float64 from reference_f64()'s. See backward.hpp for the formulas. Both precisions run the
// same four passes (one template); the float64 one is checked against PyTorch and against
// finite differences independently, so sharing the code hides no error from the tests.
#include "learning/backward.hpp"

#include "attention/checks.hpp"
#include "learning/attention_gradients.hpp"

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
    attention_gradients<float>(q.values.data(), k.values.data(), v.values.data(), weights.values.data(),
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
    attention_gradients<double>(q64.data(), k64.data(), v64.data(), forward.weights.data(),
                                scale_factor(scale, d), d_output64.data(), T, d, d_v, result.dq.data(),
                                result.dk.data(), result.dv.data());
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
