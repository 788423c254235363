// head_checks.cpp: the checks of one head (head_checks.hpp), each kernel against our verdict,
// the exact dot products and the other kernels.
#include "head_checks.hpp"

#include "attention/kernel/fused.hpp"
#include "attention/reference.hpp"
#include "attention/statistics.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>
#include <vector>

namespace fuzz {

namespace {

// What every check of a head needs, computed once in double precision.
struct HeadFacts {
    int T, d, d_v;
    double factor;
    bool causal;
    std::vector<double> exact_dot;                  // (T, T) q_i·k_j, exact up to double rounding
    std::vector<double> absolute_dot;               // (T, T) Σ_c |q_ic k_jc|
    std::vector<double> score_error;                // (T,) Delta for row i (the largest over its keys)
    std::vector<double> visible_max_v;              // (T,) max |v_jc| over the keys row i can see
    std::vector<double> visible_low, visible_high;  // (T, d_v) min / max of v_jc over visible j

    std::size_t at(int i, int j) const { return Matrix::index(i, j, T); }
    double error_in_row(int i) const { return score_error[static_cast<std::size_t>(i)]; }
    double max_v_in_row(int i) const { return visible_max_v[static_cast<std::size_t>(i)]; }
};

HeadFacts facts_about(const Matrix& q, const Matrix& k, const Matrix& v, double factor, bool causal) {
    HeadFacts facts{q.rows, q.cols, v.cols, factor, causal, {}, {}, {}, {}, {}, {}};
    const int T = facts.T;
    const std::size_t scores = Matrix::element_count(T, T);
    facts.exact_dot.assign(scores, 0);
    facts.absolute_dot.assign(scores, 0);
    facts.score_error.assign(static_cast<std::size_t>(T), 0);
    facts.visible_max_v.assign(static_cast<std::size_t>(T), 0);
    facts.visible_low.assign(Matrix::element_count(T, facts.d_v), INFINITY);
    facts.visible_high.assign(Matrix::element_count(T, facts.d_v), -INFINITY);
    for (int i = 0; i < T; ++i) {
        double& row_error = facts.score_error[static_cast<std::size_t>(i)];
        for (int j = 0; j < T; ++j) {
            double dot = 0, absolute = 0;
            for (int c = 0; c < facts.d; ++c) {
                const double product = static_cast<double>(q.row(i)[c]) * static_cast<double>(k.row(j)[c]);
                dot += product;
                absolute += std::fabs(product);
            }
            facts.exact_dot[facts.at(i, j)] = dot;
            facts.absolute_dot[facts.at(i, j)] = absolute;
            if (masked(causal, i, j)) continue;
            row_error =
                std::max(row_error, score_error(absolute, facts.d, factor) + 4 * kUnit * factor * absolute);
            for (int c = 0; c < facts.d_v; ++c) {
                const double x = v.row(j)[c];
                const std::size_t at = Matrix::index(i, c, facts.d_v);
                facts.visible_low[at] = std::min(facts.visible_low[at], x);
                facts.visible_high[at] = std::max(facts.visible_high[at], x);
                facts.visible_max_v[static_cast<std::size_t>(i)] =
                    std::max(facts.max_v_in_row(i), std::fabs(x));
            }
        }
    }
    return facts;
}

// out: (T, d_v), finite, and each row a weighted mean of the values its query can see.
void require_weighted_mean_of_values(const Matrix& out, const HeadFacts& facts, const char* name) {
    require_shape(out, facts.T, facts.d_v, name);
    for (int i = 0; i < facts.T; ++i)
        for (int c = 0; c < facts.d_v; ++c) {
            const double x = out.row(i)[c];
            require(std::isfinite(x),
                    "%s[%d][%d] = %g for finite input (T=%d d=%d d_v=%d scale=%g causal=%d)", name, i, c, x,
                    facts.T, facts.d, facts.d_v, facts.factor, facts.causal);
            const std::size_t at = Matrix::index(i, c, facts.d_v);
            const double slack = kRounding * facts.max_v_in_row(i) + facts.T * kUnderflow;
            require(x >= facts.visible_low[at] - slack && x <= facts.visible_high[at] + slack,
                    "%s[%d][%d] = %.9g lies outside the visible values' range [%.9g, %.9g]", name, i, c, x,
                    facts.visible_low[at], facts.visible_high[at]);
        }
}

void check_formula(const attention::Intermediates& result, const HeadFacts& facts) {
    const int T = facts.T;
    require(std::fabs(result.scale - facts.factor) <= 4 * DBL_EPSILON * facts.factor,
            "formula().scale = %.17g, expected %.17g", result.scale, facts.factor);
    require_shape(result.raw_scores, T, T, "raw_scores");
    require_shape(result.scaled_scores, T, T, "scaled_scores");
    require_shape(result.masked_scores, T, T, "masked_scores");
    require_shape(result.weights, T, T, "weights");
    for (int i = 0; i < T; ++i) {
        double row_sum = 0;
        for (int j = 0; j < T; ++j) {
            const double raw = result.raw_scores.row(i)[j], scaled = result.scaled_scores.row(i)[j];
            const double exact = facts.exact_dot[facts.at(i, j)],
                         absolute = facts.absolute_dot[facts.at(i, j)];
            const double eta = static_cast<double>(FLT_TRUE_MIN);
            require(std::isfinite(raw) && std::fabs(raw - exact) <= gamma(facts.d) * absolute + facts.d * eta,
                    "raw_scores[%d][%d] = %.9g but q_i·k_j = %.9g", i, j, raw, exact);
            require(std::isfinite(scaled) && std::fabs(scaled - exact * facts.factor) <=
                                                 score_error(absolute, facts.d, facts.factor),
                    "scaled_scores[%d][%d] = %.9g but q_i·k_j·scale = %.9g (scale %.9g)", i, j, scaled,
                    exact * facts.factor, facts.factor);
            const float masked_score = result.masked_scores.row(i)[j], weight = result.weights.row(i)[j];
            if (masked(facts.causal, i, j)) {
                require(masked_score == -INFINITY, "masked_scores[%d][%d] = %g, expected -inf", i, j,
                        static_cast<double>(masked_score));
                require(weight == 0.0f, "masked weight[%d][%d] = %g, expected exactly 0", i, j,
                        static_cast<double>(weight));
            } else {
                require(masked_score == result.scaled_scores.row(i)[j],
                        "unmasked masked_scores[%d][%d] differs from scaled_scores", i, j);
            }
            require(weight >= 0.0f && weight <= 1.0f, "weight[%d][%d] = %g is not a probability", i, j,
                    static_cast<double>(weight));
            row_sum += weight;
        }
        require(std::fabs(row_sum - 1.0) <= kRowSumTolerance, "weights row %d sums to %.9g", i, row_sum);
    }
    require_weighted_mean_of_values(result.output, facts, "formula output");

    const attention::RowStatistics stats = attention::row_statistics(result.weights);
    require(stats.peak_weight.size() == static_cast<std::size_t>(T) &&
                stats.entropy_nats.size() == static_cast<std::size_t>(T) &&
                stats.effective_tokens.size() == static_cast<std::size_t>(T),
            "row_statistics returned the wrong number of rows");
    for (int i = 0; i < T; ++i) {
        const auto row = static_cast<std::size_t>(i);
        const double visible = facts.causal ? i + 1 : T;
        const double peak = stats.peak_weight[row], entropy = stats.entropy_nats[row],
                     effective = stats.effective_tokens[row];
        require(peak >= 1.0 / visible - kRounding && peak <= 1.0 + kRounding,
                "row %d peak weight %g outside [1/%g, 1]", i, peak, visible);
        require(entropy >= 0.0 && entropy <= std::log(visible) + kRounding,
                "row %d entropy %g outside [0, ln %g]", i, entropy, visible);
        require(effective >= 1.0 - kRounding && effective <= visible * (1.0 + kRounding),
                "row %d effective tokens %g outside [1, %g]", i, effective, visible);
    }
}

void check_reference_f64(const attention::ReferenceF64& reference, const attention::Intermediates& formula,
                         const HeadFacts& facts) {
    const int T = facts.T;
    require(reference.T == T && reference.d_v == facts.d_v &&
                reference.weights.size() == facts.exact_dot.size() &&
                reference.output.size() == Matrix::element_count(T, facts.d_v),
            "reference_f64 returned the wrong shape");
    for (int i = 0; i < T; ++i) {
        const double drift = std::expm1(2 * facts.error_in_row(i));
        double row_sum = 0;
        for (int j = 0; j < T; ++j) {
            const double w64 = reference.weights[facts.at(i, j)];
            require(std::isfinite(w64) && w64 >= 0 && w64 <= 1, "reference weight[%d][%d] = %g", i, j, w64);
            if (masked(facts.causal, i, j))
                require(w64 == 0.0, "masked reference weight[%d][%d] = %g", i, j, w64);
            row_sum += w64;
            const double w = formula.weights.row(i)[j], tolerance = drift_tolerance(w64, drift) + kUnderflow;
            observed.formula_vs_f64_tol =
                std::max(observed.formula_vs_f64_tol, std::fabs(w - w64) / tolerance);
            require(std::fabs(w - w64) <= tolerance,
                    "formula weight[%d][%d] = %.9g but float64 gives %.9g (tolerance %.3g)", i, j, w, w64,
                    tolerance);
        }
        require(std::fabs(row_sum - 1.0) <= 1e-12 * T, "reference weights row %d sums to %.17g", i, row_sum);
        const double max_v = facts.max_v_in_row(i);
        for (int c = 0; c < facts.d_v; ++c) {
            const double x64 = reference.output[Matrix::index(i, c, facts.d_v)];
            const double x = formula.output.row(i)[c],
                         tolerance = drift_tolerance(max_v, drift) + T * kUnderflow;
            require(std::isfinite(x64), "reference output[%d][%d] = %g", i, c, x64);
            observed.formula_vs_f64_tol =
                std::max(observed.formula_vs_f64_tol, std::fabs(x - x64) / tolerance);
            require(std::fabs(x - x64) <= tolerance,
                    "formula output[%d][%d] = %.9g but float64 gives %.9g (tolerance %.3g)", i, c, x, x64,
                    tolerance);
        }
    }
}

void check_fused(const Matrix& out, const attention::Intermediates& formula, const HeadFacts& facts,
                 int key_tile) {
    require_weighted_mean_of_values(out, facts, "fused output");
    for (int i = 0; i < facts.T; ++i) {
        const double max_v = facts.max_v_in_row(i);
        const double drift = std::expm1(4 * facts.error_in_row(i));
        const double tolerance = drift_tolerance(max_v, drift) + facts.T * kUnderflow;
        for (int c = 0; c < facts.d_v; ++c) {
            const double difference =
                std::fabs(static_cast<double>(out.row(i)[c]) - formula.output.row(i)[c]);
            if (max_v > 0)
                observed.fused_vs_formula = std::max(observed.fused_vs_formula, difference / max_v);
            observed.fused_vs_formula_tol = std::max(observed.fused_vs_formula_tol, difference / tolerance);
            require(difference <= tolerance,
                    "fused[%d][%d] = %.9g but formula gives %.9g: |diff| %.3g > tolerance %.3g (T=%d d=%d "
                    "d_v=%d key_tile=%d "
                    "causal=%d scale=%g)",
                    i, c, static_cast<double>(out.row(i)[c]), static_cast<double>(formula.output.row(i)[c]),
                    difference, tolerance, facts.T, facts.d, facts.d_v, key_tile, facts.causal, facts.factor);
        }
    }
}

// Each row's softmax terms: the max of its masked scores, and a sum of exponentials whose
// largest term is exp(0) = 1, so it lies in [1, visible keys].
void check_softmax_terms(const attention::Intermediates& formula, const HeadFacts& facts) {
    const int T = formula.weights.rows;
    require(formula.row_max.size() == static_cast<std::size_t>(T) &&
                formula.row_sum.size() == static_cast<std::size_t>(T),
            "row_max or row_sum has the wrong length");
    for (int i = 0; i < T; ++i) {
        const float* masked_i = formula.masked_scores.row(i);
        const auto row = static_cast<std::size_t>(i);
        const double visible = facts.causal ? i + 1 : T;
        require(formula.row_max[row] == *std::max_element(masked_i, masked_i + T),
                "row_max[%d] is not the max of the masked scores", i);
        require(formula.row_sum[row] >= 1.0f && formula.row_sum[row] <= visible * (1.0 + kRounding),
                "row_sum[%d] = %g outside [1, %g]", i, static_cast<double>(formula.row_sum[row]), visible);
    }
}

// The weights-only path runs the formula's steps 1–3 in one buffer, in the same order: the
// same bits, and none of the other T×T buffers.
void check_weights_only(const Matrix& q, const Matrix& k, Scale scale, bool causal,
                        const attention::Intermediates& formula) {
    attention::Intermediates light;
    if (!returns_exactly_when_valid("attention_weights", "",
                                    [&] { light = attention::attention_weights(q, k, scale, causal); }))
        return;
    require(light.weights.values == formula.weights.values && light.row_max == formula.row_max &&
                light.row_sum == formula.row_sum && light.scale == formula.scale,
            "attention_weights differs from the formula's weights");
    require(light.raw_scores.values.empty() && light.scaled_scores.values.empty() &&
                light.masked_scores.values.empty() && light.output.values.empty(),
            "attention_weights built more than the weights");
}

}  // namespace

void require_shape(const Matrix& m, int rows, int cols, const char* name) {
    require(m.rows == rows && m.cols == cols && m.values.size() == Matrix::element_count(rows, cols),
            "%s has shape (%d, %d) with %zu values; expected (%d, %d)", name, m.rows, m.cols, m.values.size(),
            rows, cols);
}

// The three kernels on one head, each held to its verdict and, when valid, to its promises.
void check_head(const Matrix& q, const Matrix& k, const Matrix& v, Scale scale, bool causal, int key_tile) {
    const std::string problem = formula_problem(q, k, v, scale);
    std::string fused_problem = head_problem(q, k, v, scale);
    if (fused_problem.empty() && key_tile < 1) fused_problem = "key_tile < 1";
    (problem.empty() ? observed.valid_heads : observed.invalid_heads)++;

    attention::Intermediates formula;
    const bool formula_ran = returns_exactly_when_valid(
        "formula", problem, [&] { formula = attention::formula(q, k, v, scale, causal); });
    attention::ReferenceF64 reference;
    const bool reference_ran = returns_exactly_when_valid(
        "reference_f64", problem, [&] { reference = attention::reference_f64(q, k, v, scale, causal); });
    // fused() has no T limit: past the formula's, a valid call would only cost time, so it
    // runs when it must throw or when the formula gives something to compare with.
    Matrix out;
    const bool fused_ran =
        (!fused_problem.empty() || formula_ran) && returns_exactly_when_valid("fused", fused_problem, [&] {
            out = attention::fused(q, k, v, scale, causal, key_tile);
        });
    if (!formula_ran) return;

    const HeadFacts facts = facts_about(q, k, v, *documented_scale(scale, q.cols), causal);
    check_formula(formula, facts);
    check_softmax_terms(formula, facts);
    check_weights_only(q, k, scale, causal, formula);
    if (reference_ran) check_reference_f64(reference, formula, facts);
    if (fused_ran) check_fused(out, formula, facts, key_tile);
}

}  // namespace fuzz
