// backward.cpp: the attention head's gradients, in float32 from formula()'s weights and in
// float64 from reference_f64()'s. See backward.hpp for the formulas. Both precisions run the
// same four passes (one template); the float64 one is checked against PyTorch and against
// finite differences independently, so sharing the code hides no error from the tests.
#include "backward.hpp"

#include "checks.hpp"

#include <stdexcept>
#include <string>

namespace attention {

namespace {

std::size_t index(int row, int col, int cols) {
    return static_cast<std::size_t>(row) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(col);
}

std::string shape_text(int rows, int cols) {
    return "(" + std::to_string(rows) + ", " + std::to_string(cols) + ")";
}

void require_shape(const Matrix& m, int rows, int cols, const char* name) {
    if (m.rows != rows || m.cols != cols)
        throw std::invalid_argument(std::string(name) + " has shape " + shape_text(m.rows, m.cols) +
                                    "; it must be " + shape_text(rows, cols) + ", the shape of the output");
}

// Row-major buffers of one precision. q, k: (T, d); v, d_output: (T, d_v); weights: (T, T)
// with masked entries exactly 0. Outputs dq, dk: (T, d) and dv: (T, d_v), zero on entry.
template <typename Real>
void gradients(const Real* q, const Real* k, const Real* v, const Real* weights, Real scale,
               const Real* d_output, int T, int d, int d_v, Real* dq, Real* dk, Real* dv) {
    std::vector<Real> d_scores(static_cast<std::size_t>(T) * static_cast<std::size_t>(T), Real(0));
    for (int i = 0; i < T; ++i) {
        const Real* w_row = &weights[index(i, 0, T)];
        const Real* d_out_row = &d_output[index(i, 0, d_v)];
        Real* d_score_row = &d_scores[index(i, 0, T)];
        // 1. dV += W[i][j]·dO[i] for every key j this query saw (a masked weight is exactly 0
        //    and contributes nothing, so it is skipped).
        for (int j = 0; j < T; ++j) {
            if (w_row[j] == Real(0)) continue;
            Real* dv_row = &dv[index(j, 0, d_v)];
            for (int c = 0; c < d_v; ++c) dv_row[c] += w_row[j] * d_out_row[c];
        }
        // 2. dW[i][j] = dO[i]·V[j], and the row's weighted mean of it.
        Real weighted_mean = 0;
        for (int j = 0; j < T; ++j) {
            if (w_row[j] == Real(0)) continue;
            const Real* v_row = &v[index(j, 0, d_v)];
            Real dot = 0;
            for (int c = 0; c < d_v; ++c) dot += d_out_row[c] * v_row[c];
            d_score_row[j] = dot;
            weighted_mean += w_row[j] * dot;
        }
        // 3. Through the softmax: dS = W ∘ (dW − mean), then through the scale. A weight that
        //    underflowed to 0 (a saturated row) passes no gradient, exactly as in the forward.
        for (int j = 0; j < T; ++j) d_score_row[j] = scale * w_row[j] * (d_score_row[j] - weighted_mean);
    }
    // 4. dQ[i] = Σ_j dS[i][j]·K[j] and dK[j] = Σ_i dS[i][j]·Q[i].
    for (int i = 0; i < T; ++i) {
        const Real* d_score_row = &d_scores[index(i, 0, T)];
        const Real* q_row = &q[index(i, 0, d)];
        Real* dq_row = &dq[index(i, 0, d)];
        for (int j = 0; j < T; ++j) {
            const Real g = d_score_row[j];
            if (g == Real(0)) continue;
            const Real* k_row = &k[index(j, 0, d)];
            Real* dk_row = &dk[index(j, 0, d)];
            for (int c = 0; c < d; ++c) {
                dq_row[c] += g * k_row[c];
                dk_row[c] += g * q_row[c];
            }
        }
    }
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

}  // namespace attention
