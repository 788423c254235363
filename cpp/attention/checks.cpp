// checks.cpp: the preconditions the kernels share, each failure a message naming the argument
// and the limit.
#include "attention/checks.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <stdexcept>
#include <string>

namespace attention {

std::string shape_of(const Matrix& m) {
    return "(" + std::to_string(m.rows) + ", " + std::to_string(m.cols) + ")";
}

float max_abs(const Matrix& m) {
    float largest = 0.0f;
    for (float x : m.values) largest = std::max(largest, std::fabs(x));
    return largest;
}

void check_formula_size(int T) {
    if (T > kMaxFormulaT) {
        const double mebibytes = static_cast<double>(T) * T * sizeof(float) / (1 << 20);
        throw std::invalid_argument("T = " + std::to_string(T) + " tokens needs " +
                                    std::to_string(static_cast<long>(mebibytes)) +
                                    " MiB per T×T buffer; the limit is T = " + std::to_string(kMaxFormulaT) +
                                    " (" + std::to_string(kMaxScoreMatrixBytes >> 20) + " MiB)");
    }
}

void require_in_range(const char* name, long long value, long long low, long long high) {
    if (value < low || value > high)
        throw std::invalid_argument(std::string(name) + " = " + std::to_string(value) + " is outside " +
                                    std::to_string(low) + "…" + std::to_string(high));
}

void require_finite(const Matrix& m, const char* name) {
    for (int r = 0; r < m.rows; ++r)
        for (int c = 0; c < m.cols; ++c)
            if (!std::isfinite(m.row(r)[c]))
                throw std::invalid_argument(
                    std::string(name) + "[" + std::to_string(r) + "][" + std::to_string(c) + "] is " +
                    (std::isnan(m.row(r)[c]) ? "NaN" : "infinite") + "; attention needs finite inputs");
}

// The checks on q and k alone (what the scores need); returns the scale factor.
double validate_scores(const Matrix& q, const Matrix& k, Scale scale) {
    if (q.rows < 1)
        throw std::invalid_argument("q has T = " + std::to_string(q.rows) +
                                    " rows; attention needs at least 1 token");
    if (q.cols < 1)
        throw std::invalid_argument("q has d = " + std::to_string(q.cols) +
                                    " columns; the head width d must be at least 1");
    if (k.rows != q.rows || k.cols != q.cols)
        throw std::invalid_argument("k has shape " + shape_of(k) + " but q has " + shape_of(q) +
                                    "; keys and queries must both be (T, d)");
    if (q.cols > kMaxWidth)
        throw std::invalid_argument("head width " + std::to_string(q.cols) + " exceeds the limit of " +
                                    std::to_string(kMaxWidth));
    require_finite(q, "q");
    require_finite(k, "k");
    const double factor = scale_factor(scale, q.cols);
    // |q·k| <= d·max|q|·max|k|; keeping that (and its scaled value) far below FLT_MAX means
    // no score, partial sum or exponent argument can overflow to inf and turn into NaN.
    const double bound = static_cast<double>(q.cols) * max_abs(q) * max_abs(k) * std::max(1.0, factor);
    if (!(bound <= static_cast<double>(FLT_MAX) / 4))
        throw std::invalid_argument(
            "q and k are too large: d·max|q|·max|k|·scale = " + std::to_string(bound) +
            " would overflow float32 (limit " + std::to_string(FLT_MAX / 4) + ")");
    return factor;
}

double validate_inputs(const Matrix& q, const Matrix& k, const Matrix& v, Scale scale) {
    if (v.cols < 1)
        throw std::invalid_argument("v has d_v = " + std::to_string(v.cols) +
                                    " columns; the value width must be at least 1");
    if (v.rows != q.rows)
        throw std::invalid_argument("v has " + std::to_string(v.rows) + " rows but q has T = " +
                                    std::to_string(q.rows) + "; every token needs one value row");
    if (v.cols > kMaxWidth)
        throw std::invalid_argument("head width " + std::to_string(v.cols) + " exceeds the limit of " +
                                    std::to_string(kMaxWidth));
    const double factor = validate_scores(q, k, scale);
    require_finite(v, "v");
    return factor;
}

}  // namespace attention
