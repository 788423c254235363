// reference.cpp: the formula in double precision, one row at a time, for checks and tests.
#include "attention/reference.hpp"

#include "attention/checks.hpp"
#include "attention/formula.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attention {

ReferenceF64 reference_f64(const Matrix& q, const Matrix& k, const Matrix& v, Scale scale, bool causal) {
    const double factor = validate_inputs(q, k, v, scale);
    const int T = q.rows, d = q.cols, d_v = v.cols;
    check_formula_size(T);

    ReferenceF64 result;
    result.T = T;
    result.d_v = d_v;
    result.weights.assign(Matrix::element_count(T, T), 0.0);
    result.output.assign(Matrix::element_count(T, d_v), 0.0);
    for (int i = 0; i < T; ++i) {
        double* row = &result.weights[Matrix::index(i, 0, T)];
        double* out_i = &result.output[Matrix::index(i, 0, d_v)];
        const float* q_i = q.row(i);
        double row_max = -std::numeric_limits<double>::infinity();
        for (int j = 0; j < T; ++j) {
            if (is_masked(causal, i, j)) continue;
            const float* k_j = k.row(j);
            double dot = 0.0;
            for (int c = 0; c < d; ++c) dot += static_cast<double>(q_i[c]) * k_j[c];
            row[j] = dot * factor;
            row_max = std::max(row_max, row[j]);
        }
        double sum = 0.0;
        for (int j = 0; j < T; ++j) {
            row[j] = is_masked(causal, i, j) ? 0.0 : std::exp(row[j] - row_max);
            sum += row[j];
        }
        for (int j = 0; j < T; ++j) {
            row[j] /= sum;
            const float* v_j = v.row(j);
            for (int c = 0; c < d_v; ++c) out_i[c] += row[j] * v_j[c];
        }
    }
    return result;
}

}  // namespace attention
