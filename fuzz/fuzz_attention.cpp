// fuzz_attention: a libFuzzer target over the core's whole public API, built with
// AddressSanitizer and UndefinedBehaviorSanitizer (fuzz/CMakeLists.txt).
//
// Each input picks one entry point (attention kernels, the map recipe, tokenize, the scale
// study, the torch generator, softmax_row, Matrix/scale_factor, the equivalence check) and
// decodes its arguments with fuzz_input.hpp. Then, per call:
//   1. validity is decided HERE, by predicates written from the headers' documented limits
//      (not by asking the library), and the call must throw std::invalid_argument with a
//      message for exactly the invalid inputs -- any other exception, or none, is a bug;
//   2. a successful call's results must keep the documented promises: finite values, rows
//      of weights summing to 1, masked weights exactly 0, outputs inside the convex hull of
//      the visible values, fused() and the float64 reference agreeing with formula() within
//      a tolerance derived below from float32 rounding, and so on.
// A broken promise prints what was seen and aborts, which libFuzzer records as a crash.
// It is not a benchmark and not a unit test: tests/ holds the hand-checked cases.
#include "attention/formula.hpp"
#include "attention/kernel/fused.hpp"
#include "attention/reference.hpp"
#include "attention/statistics.hpp"
#include "fuzz_input.hpp"
#include "tutorial/equivalence.hpp"
#include "tutorial/map.hpp"
#include "tutorial/scale_study.hpp"
#include "tutorial/torch_random.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <typeinfo>
#include <vector>

namespace {

using attention::Matrix;
using attention::Scale;
using attention::ScaleMode;
using fuzz::FuzzInput;

// Row-major position of (row, col) in a matrix with `cols` columns, and a (rows, cols) size.
std::size_t cell(int row, int col, int cols) {
    return static_cast<std::size_t>(row) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(col);
}
std::size_t cells(int rows, int cols) {
    return static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
}

// ---- failing loudly --------------------------------------------------------------------------

[[noreturn]] void report_and_abort(const char* format, va_list arguments) {
    std::fprintf(stderr, "\n==fuzz_attention== INVARIANT BROKEN: ");
    std::vfprintf(stderr, format, arguments);
    std::fprintf(stderr, "\n");
    std::abort();
}

[[noreturn]] __attribute__((format(printf, 1, 2))) void fail(const char* format, ...) {
    va_list arguments;
    va_start(arguments, format);
    report_and_abort(format, arguments);
}

__attribute__((format(printf, 2, 3))) void require(bool condition, const char* format, ...) {
    if (condition) return;
    va_list arguments;
    va_start(arguments, format);
    report_and_abort(format, arguments);
}

// Runs `call`; it must throw std::invalid_argument, with a message, exactly when `problem`
// (our own verdict) is non-empty. Returns true when the call returned normally.
template <typename Call>
bool returns_exactly_when_valid(const char* name, const std::string& problem, Call&& call) {
    try {
        call();
    } catch (const std::invalid_argument& error) {
        require(!problem.empty(), "%s threw std::invalid_argument for valid input: %s", name, error.what());
        require(error.what()[0] != '\0', "%s threw std::invalid_argument with an empty message", name);
        return false;
    } catch (const std::exception& error) {
        fail("%s threw %s instead of std::invalid_argument: %s (our verdict: %s)", name, typeid(error).name(),
             error.what(), problem.empty() ? "valid" : problem.c_str());
    } catch (...) {
        fail("%s threw something that is not a std::exception", name);
    }
    require(problem.empty(), "%s accepted invalid input: %s", name, problem.c_str());
    return true;
}

// ---- tolerances ------------------------------------------------------------------------------
//
// Why these numbers. Let u = 2^-24 (float32 unit roundoff), eta = FLT_TRUE_MIN.
// * A float dot product of length d, in any order, with or without FMA, is within
//   gamma(d) * sum|q_c k_c| + d*eta of the exact one (Higham, Thm 3.1; the eta term covers
//   gradual underflow). Scaling by float(factor) adds two more roundings, and float(factor)
//   itself is off by up to eta/2 absolute when the factor is below FLT_MIN. So each computed
//   score is within (gamma(d+2) * factor + eta) * sum|q_c k_c| + (d*factor + 1)*eta.
// * Softmax subtracts the row's max score first (formula() after scaling, the SIMD kernel
//   before): up to two more roundings of a number as large as the row's largest score. So
//   an exponent in row i is within Delta_i = the largest bound above + 4u * factor * max|score|.
// * Softmax maps score errors of at most Delta to weight ratios within e^{±2 Delta}; two
//   implementations that each err by Delta can differ by e^{±4 Delta}. So the weights differ
//   by at most w * expm1(4 Delta), and the outputs (a weighted mean of the visible values)
//   by max|v| * expm1(4 Delta).
// * On top of that come the roundings of exp, the row sum, the division and the weighted
//   sum: about (T + d + 8) u relative, under 1e-5 for T, d <= 64. kRounding = 1e-4 allows
//   ten times that, and also any exp that is a few ulp off (a SIMD polynomial). kUnderflow
//   covers weights that flush to zero or go denormal, which have no relative accuracy.
// With |q|, |k| ~ 1 and d = 64, Delta is ~3e-5 and the bound ~2e-4 * max|v|; when scores are
// huge (|q.k| ~ 1e9, where one ulp is 64) Delta is large and a real disagreement is legitimate.
constexpr double kUnit = 0x1.0p-24;
constexpr double kRounding = 1e-4;
constexpr double kUnderflow = static_cast<double>(FLT_MIN);
constexpr double kRowSumTolerance = 1e-5;  // the promise: every weight row sums to 1

double gamma(int n) {
    return n * kUnit / (1.0 - n * kUnit);
}

// The bound on |computed score - exact score| above, for one q_i·k_j with sum|q_c k_c| = absolute.
double score_error(double absolute, int d, double factor) {
    const double eta = static_cast<double>(FLT_TRUE_MIN);
    return (gamma(d + 2) * factor + eta) * absolute + (d * factor + 1) * eta;
}

// magnitude * (drift + kRounding), where drift = expm1(n·Delta) may be infinite: then the scores
// carry no information about the weights and any difference is allowed (never 0 * inf = NaN).
double drift_tolerance(double magnitude, double drift) {
    return std::isinf(drift) ? INFINITY : magnitude * (drift + kRounding);
}

// Largest differences seen, printed when the process exits: the long run's evidence.
struct Observed {
    double fused_vs_formula = 0;      // max |fused - formula| / max|v|
    double fused_vs_formula_tol = 0;  // max |fused - formula| / tolerance
    double formula_vs_f64_tol = 0;    // max |formula - float64| / tolerance
    long valid_heads = 0, invalid_heads = 0;
};
Observed observed;

void print_observed() {
    std::fprintf(stderr,
                 "fuzz_attention: %ld valid heads, %ld rejected; max |fused-formula|/max|v| = %.3g (%.3g of "
                 "the tolerance); "
                 "max |formula-f64| = %.3g of the tolerance\n",
                 observed.valid_heads, observed.invalid_heads, observed.fused_vs_formula,
                 observed.fused_vs_formula_tol, observed.formula_vs_f64_tol);
}

// ---- our own verdict on inputs ---------------------------------------------------------------

bool all_finite(const Matrix& m) {
    return std::all_of(m.values.begin(), m.values.end(), [](float x) { return std::isfinite(x); });
}

double max_abs(const Matrix& m) {
    double largest = 0;
    for (float x : m.values) largest = std::max(largest, std::fabs(static_cast<double>(x)));
    return largest;
}

// attention/scale.hpp: a custom Scale::factor is "from kMinScaleFactor to kMaxScaleFactor"; every
// mode needs d >= 1.
std::optional<double> documented_scale(Scale scale, int d) {
    if (d < 1) return std::nullopt;
    switch (scale.mode) {
        case ScaleMode::inverse_sqrt_d:
            return 1.0 / std::sqrt(static_cast<double>(d));
        case ScaleMode::inverse_d:
            return 1.0 / d;
        case ScaleMode::none:
            return 1.0;
        case ScaleMode::custom:
            if (scale.factor >= attention::kMinScaleFactor && scale.factor <= attention::kMaxScaleFactor)
                return scale.factor;
            return std::nullopt;
    }
    return std::nullopt;  // a value outside the enum
}

std::string head_problem(const Matrix& q, const Matrix& k, const Matrix& v, Scale scale) {
    if (q.rows < 1) return "T < 1";
    if (q.cols < 1) return "d < 1";
    if (v.cols < 1) return "d_v < 1";
    if (k.rows != q.rows || k.cols != q.cols) return "k is not (T, d)";
    if (v.rows != q.rows) return "v does not have T rows";
    if (q.cols > attention::kMaxWidth || v.cols > attention::kMaxWidth) return "width above kMaxWidth";
    if (!all_finite(q) || !all_finite(k) || !all_finite(v)) return "non-finite value in q, k or v";
    const std::optional<double> factor = documented_scale(scale, q.cols);
    if (!factor) return "bad scale";
    // checks.cpp: Q·Kᵀ must not be able to overflow: d·max|q|·max|k|·max(1, scale) <= FLT_MAX/4.
    const double bound = q.cols * max_abs(q) * max_abs(k) * std::max(1.0, *factor);
    if (!(bound <= static_cast<double>(FLT_MAX) / 4)) return "d*max|q|*max|k|*scale above FLT_MAX/4";
    return "";
}

std::string formula_problem(const Matrix& q, const Matrix& k, const Matrix& v, Scale scale) {
    std::string problem = head_problem(q, k, v, scale);
    if (problem.empty() && q.rows > attention::kMaxFormulaT) problem = "T above kMaxFormulaT";
    return problem;
}

// ---- checking one head -----------------------------------------------------------------------

bool masked(bool causal, int query, int key) {
    return causal && key > query;
}

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

    std::size_t at(int i, int j) const { return cell(i, j, T); }
    double error_in_row(int i) const { return score_error[static_cast<std::size_t>(i)]; }
    double max_v_in_row(int i) const { return visible_max_v[static_cast<std::size_t>(i)]; }
};

HeadFacts facts_about(const Matrix& q, const Matrix& k, const Matrix& v, double factor, bool causal) {
    HeadFacts facts{q.rows, q.cols, v.cols, factor, causal, {}, {}, {}, {}, {}, {}};
    const int T = facts.T;
    const std::size_t scores = cells(T, T);
    facts.exact_dot.assign(scores, 0);
    facts.absolute_dot.assign(scores, 0);
    facts.score_error.assign(static_cast<std::size_t>(T), 0);
    facts.visible_max_v.assign(static_cast<std::size_t>(T), 0);
    facts.visible_low.assign(cells(T, facts.d_v), INFINITY);
    facts.visible_high.assign(cells(T, facts.d_v), -INFINITY);
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
                const std::size_t at = cell(i, c, facts.d_v);
                facts.visible_low[at] = std::min(facts.visible_low[at], x);
                facts.visible_high[at] = std::max(facts.visible_high[at], x);
                facts.visible_max_v[static_cast<std::size_t>(i)] =
                    std::max(facts.max_v_in_row(i), std::fabs(x));
            }
        }
    }
    return facts;
}

void require_shape(const Matrix& m, int rows, int cols, const char* name) {
    require(m.rows == rows && m.cols == cols && m.values.size() == cells(rows, cols),
            "%s has shape (%d, %d) with %zu values; expected (%d, %d)", name, m.rows, m.cols, m.values.size(),
            rows, cols);
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
            const std::size_t at = cell(i, c, facts.d_v);
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
                reference.output.size() == cells(T, facts.d_v),
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
            const double x64 = reference.output[cell(i, c, facts.d_v)];
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

// The three kernels on one head, each held to its verdict and, when valid, to its promises.
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

// ---- targets ---------------------------------------------------------------------------------

// Shapes: consistent most of the time; otherwise one of k's or v's sizes nudged, T past the
// formula's limit, or a width past kMaxWidth.
void fuzz_head(FuzzInput& in) {
    const std::uint8_t flags = in.byte();
    const bool causal = flags & 1;
    int T = in.byte() % 65, d = in.byte() % 65, d_v = in.byte() % 65;
    const std::uint8_t nudged = in.byte(), nudge = in.byte();
    const Scale scale = fuzz::scale_from(in);
    const int key_tile = fuzz::key_tile_from(in.byte());
    int k_rows = T, k_cols = d, v_rows = T;
    switch ((flags >> 1) % 8) {
        case 5: {
            const int delta = nudge % 7 - 3 == 0 ? 1 : nudge % 7 - 3;
            int& size = nudged % 3 == 0 ? k_rows : nudged % 3 == 1 ? k_cols : v_rows;
            size = std::max(0, size + delta);
            break;
        }
        case 6:
            T = k_rows = v_rows = attention::kMaxFormulaT + 1;
            d = k_cols = d_v = 1;
            break;
        case 7:
            T = k_rows = v_rows = 1;
            (nudged % 2 ? d_v : d) = attention::kMaxWidth + 1;
            k_cols = d;
            break;
        default:
            break;
    }
    const Matrix q(T, d, fuzz::read_values(in, cells(T, d)));
    const Matrix k(k_rows, k_cols, fuzz::read_values(in, cells(k_rows, k_cols)));
    const Matrix v(v_rows, d_v, fuzz::read_values(in, cells(v_rows, d_v)));
    check_head(q, k, v, scale, causal, key_tile);
}

// ---- text ----

// Strict UTF-8 (Unicode 15, table 3-7): no overlong forms, no surrogates, nothing past
// U+10FFFF. Returns the code points, or nullopt when the text is malformed.
std::optional<std::vector<std::pair<std::string, char32_t>>> strict_utf8(const std::string& text) {
    std::vector<std::pair<std::string, char32_t>> points;
    std::size_t i = 0;
    while (i < text.size()) {
        const auto b0 = static_cast<unsigned char>(text[i]);
        // Sequence length, bits of the lead byte, and the allowed range of the second byte.
        std::size_t length = 0;
        char32_t point = 0;
        unsigned char low = 0x80, high = 0xBF;
        if (b0 < 0x80) {
            length = 1;
            point = b0;
        } else if (b0 >= 0xC2 && b0 <= 0xDF) {
            length = 2;
            point = b0 & 0x1Fu;
        } else if (b0 >= 0xE0 && b0 <= 0xEF) {
            length = 3;
            point = b0 & 0x0Fu;
            if (b0 == 0xE0) low = 0xA0;   // overlong below U+0800
            if (b0 == 0xED) high = 0x9F;  // surrogates U+D800…U+DFFF
        } else if (b0 >= 0xF0 && b0 <= 0xF4) {
            length = 4;
            point = b0 & 0x07u;
            if (b0 == 0xF0) low = 0x90;   // overlong below U+10000
            if (b0 == 0xF4) high = 0x8F;  // past U+10FFFF
        } else {
            return std::nullopt;
        }
        if (i + length > text.size()) return std::nullopt;
        for (std::size_t n = 1; n < length; ++n) {
            const auto b = static_cast<unsigned char>(text[i + n]);
            if (b < (n == 1 ? low : 0x80) || b > (n == 1 ? high : 0xBF)) return std::nullopt;
            point = (point << 6) | (b & 0x3F);
        }
        points.emplace_back(text.substr(i, length), point);
        i += length;
    }
    return points;
}

// Unicode's White_Space property.
bool is_white_space(char32_t c) {
    return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
           (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F ||
           c == 0x3000;
}

bool is_ascii_word_character(char32_t c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '\'' ||
           c == '_';
}

// The promises of tokenize() on valid text: characters mode is list(text); words mode is
// the text in order minus its white space (Unicode's White_Space: U+202F in French, U+3000 in
// Japanese are spaces too), cut so that no token mixes word characters with ASCII symbols.
void check_tokens(const std::vector<std::string>& tokens,
                  const std::vector<std::pair<std::string, char32_t>>& points, attention::TokenMode mode) {
    if (mode == attention::TokenMode::characters) {
        require(tokens.size() == points.size(), "characters mode gave %zu tokens for %zu code points",
                tokens.size(), points.size());
        for (std::size_t t = 0; t < tokens.size(); ++t)
            require(tokens[t] == points[t].first, "character token %zu is not code point %zu", t, t);
        return;
    }
    std::string joined, without_spaces;
    for (const std::string& token : tokens) {
        const auto token_points = strict_utf8(token);
        require(!token.empty() && token_points.has_value(),
                "words mode produced an empty or malformed token");
        if (token_points->size() > 1)
            for (const auto& [bytes, point] : *token_points)
                require(point >= 0x80 ? !is_white_space(point) : is_ascii_word_character(point),
                        "word token \"%s\" contains U+%04X, which is not a word character", token.c_str(),
                        static_cast<unsigned>(point));
        joined += token;
    }
    for (const auto& [bytes, point] : points)
        if (!is_white_space(point)) without_spaces += bytes;
    require(joined == without_spaces,
            "words mode tokens \"%s\" are not the text minus its white space \"%s\"", joined.c_str(),
            without_spaces.c_str());
}

void fuzz_tokenize(FuzzInput& in) {
    const auto mode = in.byte() % 2 ? attention::TokenMode::words : attention::TokenMode::characters;
    const std::string text = in.rest();
    const auto points = strict_utf8(text);
    std::vector<std::string> tokens;
    if (returns_exactly_when_valid("tokenize", points ? "" : "text is not valid UTF-8",
                                   [&] { tokens = attention::tokenize(text, mode); }))
        check_tokens(tokens, *points, mode);
}

// ---- the map recipe ----

// Rope at position t on exact q and k rows (tutorial/map.hpp: pair (i, i + d/2), angle
// t·10000^(-2i/d)). The rows' own error bound carries through the turn (each output mixes two
// inputs), plus one rounding of each output and of the products.
void rotate_exactly(std::vector<double>& q, std::vector<double>& k, std::vector<double>& tolerance, int t) {
    const std::size_t half = q.size() / 2;
    for (std::size_t i = 0; i < half; ++i) {
        const double angle =
            t * std::pow(10000.0, -2.0 * static_cast<double>(i) / static_cast<double>(q.size()));
        const double cos_angle = std::cos(angle), sin_angle = std::sin(angle);
        for (std::vector<double>* row : {&q, &k}) {
            const double a = (*row)[i], b = (*row)[i + half];
            (*row)[i] = a * cos_angle - b * sin_angle;
            (*row)[i + half] = b * cos_angle + a * sin_angle;
        }
        const double carried = tolerance[i] + tolerance[i + half];
        const double rounding =
            4 * kUnit *
            (std::fabs(q[i]) + std::fabs(q[i + half]) + std::fabs(k[i]) + std::fabs(k[i + half]) + carried);
        tolerance[i] = tolerance[i + half] = carried + rounding;
    }
}

// Costs we are willing to pay per input for a valid recipe (multiply-adds in map_inputs).
constexpr double kMaxMapWork = 4e6;

struct MapCase {
    attention::MapRecipe recipe;
    Scale scale;
    bool causal = false;
    int key_tile = 1;
};

MapCase map_case_from(FuzzInput& in) {
    const std::uint8_t flags = in.byte();
    MapCase c;
    attention::MapRecipe& recipe = c.recipe;
    recipe.tokens = flags & 1 ? attention::TokenMode::words : attention::TokenMode::characters;
    recipe.vectors = flags & 2 ? attention::VectorMode::per_token : attention::VectorMode::per_position;
    recipe.positions = flags & 64  ? attention::Positions::rope
                       : flags & 4 ? attention::Positions::sinusoidal
                                   : attention::Positions::none;
    recipe.init = flags & 32 ? attention::Init::standard : attention::Init::tutorial;
    c.causal = flags & 8;
    recipe.d = fuzz::int_from_byte(
        in.byte(), 1, 64,
        {0, -1, attention::kMaxMapWidth, attention::kMaxMapWidth + 1, INT_MIN, INT_MAX, 1023});
    recipe.seed = fuzz::seed_from(in);
    c.scale = fuzz::scale_from(in);
    c.key_tile = fuzz::key_tile_from(in.byte());
    const int repeats = flags & 16 ? 1 + in.byte() * 8 : 1;  // up to 2041 copies: past kMaxMapTokens
    const std::string piece = in.rest();
    for (int r = 0; r < repeats && recipe.text.size() < 8192; ++r) recipe.text += piece;
    return c;
}

// Our verdict on a recipe of T tokens: d in range, strictly valid UTF-8, 1 … kMaxMapTokens
// tokens; "" when the library must accept it.
std::string map_problem(const attention::MapRecipe& recipe, std::size_t T) {
    if (recipe.d < 1 || recipe.d > attention::kMaxMapWidth) return "d outside 1…kMaxMapWidth";
    if (recipe.positions == attention::Positions::rope && recipe.d % 2 != 0) return "rope with an odd d";
    if (!strict_utf8(recipe.text)) return "text is not valid UTF-8";
    if (T == 0) return "no tokens";
    if (T > static_cast<std::size_t>(attention::kMaxMapTokens)) return "more than kMaxMapTokens tokens";
    return "";
}

// map.hpp's documented draw of x: seed, then x (per position) or E (per distinct token), plus
// the sinusoidal table. The generator is left where Wq's draw starts.
std::vector<float> documented_x(const attention::MapRecipe& recipe, const std::vector<std::string>& tokens,
                                attention::TorchGenerator& generator) {
    const auto width = static_cast<std::size_t>(recipe.d);
    std::vector<float> x;
    if (recipe.vectors == attention::VectorMode::per_position) {
        x = generator.randn(tokens.size() * width);
    } else {
        std::vector<std::string> distinct;
        for (const std::string& token : tokens)
            if (std::find(distinct.begin(), distinct.end(), token) == distinct.end())
                distinct.push_back(token);
        const std::vector<float> embedding = generator.randn(distinct.size() * width);
        for (const std::string& token : tokens) {
            const auto id = static_cast<std::size_t>(std::find(distinct.begin(), distinct.end(), token) -
                                                     distinct.begin());
            x.insert(x.end(), embedding.begin() + static_cast<std::ptrdiff_t>(id * width),
                     embedding.begin() + static_cast<std::ptrdiff_t>((id + 1) * width));
        }
    }
    if (recipe.positions == attention::Positions::sinusoidal) {
        const Matrix pe = attention::sinusoidal_positions(static_cast<int>(tokens.size()), recipe.d);
        for (std::size_t e = 0; e < x.size(); ++e) x[e] += pe.values[e];
    }
    return x;
}

// q and k are x·Wq and x·Wk (rotated for rope) within the rounding of float32 sums, with Wq,
// Wk drawn next from the generator, each times 0.5 (tutorial) or 1/√d in float32 (standard).
void check_projections(const attention::MapInputs& inputs, const attention::MapRecipe& recipe,
                       attention::TorchGenerator& generator) {
    const auto width = static_cast<std::size_t>(recipe.d);
    const std::vector<float> w_query = generator.randn(width * width), w_key = generator.randn(width * width);
    const float multiplier = recipe.init == attention::Init::tutorial
                                 ? 0.5f
                                 : static_cast<float>(1.0 / std::sqrt(static_cast<double>(recipe.d)));
    std::vector<double> q_exact(width), k_exact(width), tolerance(width);
    for (int t = 0; t < inputs.x.rows; ++t) {
        for (int c = 0; c < recipe.d; ++c) {
            double q_sum = 0, k_sum = 0, magnitude = 0;
            for (int m = 0; m < recipe.d; ++m) {
                const double x_tm = inputs.x.row(t)[m];
                const std::size_t w = static_cast<std::size_t>(m) * width + static_cast<std::size_t>(c);
                q_sum += x_tm * static_cast<double>(w_query[w] * multiplier);
                k_sum += x_tm * static_cast<double>(w_key[w] * multiplier);
                magnitude += std::fabs(x_tm) * (std::fabs(w_query[w]) + std::fabs(w_key[w]));
            }
            const auto i = static_cast<std::size_t>(c);
            q_exact[i] = q_sum;
            k_exact[i] = k_sum;
            tolerance[i] = 2 * kUnit * (std::fabs(q_sum) + std::fabs(k_sum)) + gamma(recipe.d) * magnitude;
        }
        if (recipe.positions == attention::Positions::rope) rotate_exactly(q_exact, k_exact, tolerance, t);
        for (int c = 0; c < recipe.d; ++c) {
            const auto i = static_cast<std::size_t>(c);
            require(std::fabs(inputs.q.row(t)[c] - q_exact[i]) <= tolerance[i] &&
                        std::fabs(inputs.k.row(t)[c] - k_exact[i]) <= tolerance[i],
                    "map q or k [%d][%d] is not x·W (rotated for rope)", t, c);
        }
    }
}

// attention_map() is map_inputs, then the head at the detail asked, then row statistics; the
// three details agree where they overlap, and score_of reads any cell with the formula's bits.
void check_map_details(const MapCase& c, const attention::MapInputs& inputs) {
    const std::string head = formula_problem(inputs.q, inputs.k, inputs.v, c.scale);
    attention::AttentionMap all, light, first;
    if (!returns_exactly_when_valid("attention_map", head, [&] {
            all = attention::attention_map(c.recipe, c.scale, c.causal, attention::MapDetail::all);
            light = attention::attention_map(c.recipe, c.scale, c.causal, attention::MapDetail::weights_only);
            first = attention::attention_map(c.recipe, c.scale, c.causal, attention::MapDetail::first_rows);
        }))
        return;
    const int rows = inputs.q.rows;
    require(all.inputs.q.values == inputs.q.values && light.inputs.k.values == inputs.k.values,
            "attention_map's inputs are not map_inputs'");
    require(light.head.weights.values == all.head.weights.values &&
                light.stats.peak_weight == all.stats.peak_weight && light.head.output.values.empty() &&
                all.head.output.rows == rows,
            "attention_map's details disagree");
    // first_rows: every weight, and the formula's working cut to its first kWorkingRows rows.
    const int kept = std::min(rows, attention::kWorkingRows);
    const auto cut = [kept](const attention::Matrix& m) {
        return std::vector<float>(m.values.begin(),
                                  m.values.begin() + static_cast<std::ptrdiff_t>(kept) * m.cols);
    };
    require(first.head.weights.values == all.head.weights.values && first.head.row_sum == all.head.row_sum &&
                first.head.raw_scores.values == cut(all.head.raw_scores) &&
                first.head.masked_scores.values == cut(all.head.masked_scores) &&
                first.head.output.values == cut(all.head.output),
            "attention_map's first rows are not the formula's");
    const int last = rows - 1;
    const attention::Score corner =
        attention::score_of(inputs.q.row(last), inputs.k.row(0), c.recipe.d, all.head.scale);
    require(corner.raw == all.head.raw_scores.row(last)[0] &&
                corner.scaled == all.head.scaled_scores.row(last)[0],
            "score_of disagrees with the formula at row %d", last);
}

void fuzz_map(FuzzInput& in) {
    const MapCase c = map_case_from(in);
    const attention::MapRecipe& recipe = c.recipe;
    // The token count comes from tokenize(), whose own promises fuzz_tokenize checks (and
    // judges whether it was right to refuse).
    std::size_t T = 0;
    try {
        T = attention::tokenize(recipe.text, recipe.tokens).size();
    } catch (const std::invalid_argument&) {
    }
    const std::string problem = map_problem(recipe, T);
    // Skip what would be slow to run if the library accepted it, valid or not: a text the
    // library wrongly accepts then shows up in fuzz_tokenize, not as a timeout here.
    const double d = recipe.d;
    const bool width_accepted = recipe.d >= 1 && recipe.d <= attention::kMaxMapWidth;
    if (width_accepted && T <= static_cast<std::size_t>(attention::kMaxMapTokens) &&
        static_cast<double>(T) * d * d + 2 * d * d > kMaxMapWork)
        return;

    attention::MapInputs inputs;
    if (!returns_exactly_when_valid("map_inputs", problem, [&] { inputs = attention::map_inputs(recipe); }))
        return;
    require(inputs.tokens == attention::tokenize(recipe.text, recipe.tokens),
            "map_inputs tokens differ from tokenize()");
    const int rows = static_cast<int>(T);
    require_shape(inputs.x, rows, recipe.d, "map x");
    require_shape(inputs.q, rows, recipe.d, "map q");
    require_shape(inputs.k, rows, recipe.d, "map k");
    require_shape(inputs.v, rows, recipe.d, "map v");
    require(all_finite(inputs.x) && all_finite(inputs.q) && all_finite(inputs.k),
            "map_inputs gave a non-finite value");
    require(inputs.v.values == inputs.x.values, "map v is not x");
    attention::TorchGenerator generator(recipe.seed);
    require(inputs.x.values == documented_x(recipe, inputs.tokens, generator),
            "map x is not the documented draw (seed %llu)", static_cast<unsigned long long>(recipe.seed));
    check_projections(inputs, recipe, generator);
    if (rows > 64) return;
    check_head(inputs.q, inputs.k, inputs.v, c.scale, c.causal, c.key_tile);
    check_map_details(c, inputs);
}

// ---- the scale study ----

constexpr double kMaxStudyWork = 3e5;  // multiply-adds we are willing to pay per valid input

void fuzz_scale_study(FuzzInput& in) {
    attention::ScaleStudyOptions options;
    options.causal = in.byte() & 1;
    options.T = fuzz::int_from_byte(
        in.byte(), 1, 16,
        {0, -1, attention::kMaxStudyT, attention::kMaxStudyT + 1, INT_MAX, INT_MIN, 64, 65});
    options.draws = fuzz::int_from_byte(
        in.byte(), 1, 3,
        {0, -1, attention::kMaxStudyDraws, attention::kMaxStudyDraws + 1, INT_MAX, INT_MIN, 10});
    options.widths.clear();
    const int width_count = in.byte() % 6;
    for (int w = 0; w < width_count; ++w)
        options.widths.push_back(fuzz::int_from_byte(
            in.byte(), 1, 64,
            {0, -1, -4096, attention::kMaxWidth, attention::kMaxWidth + 1, INT_MAX, INT_MIN, 256}));
    options.seed = fuzz::seed_from(in);

    std::string problem;
    double work = 0;
    if (options.T < 1 || options.T > attention::kMaxStudyT) problem = "T outside 1…kMaxStudyT";
    if (options.draws < 1 || options.draws > attention::kMaxStudyDraws)
        problem = "draws outside 1…kMaxStudyDraws";
    if (options.widths.empty()) problem = "no widths";
    for (int d : options.widths) {
        if (d < 1 || d > attention::kMaxWidth) problem = "width outside 1…kMaxWidth";
    }
    work = attention::study_multiply_adds(options.widths, options.T, options.draws);
    if (problem.empty() && work > attention::kMaxStudyMultiplyAdds)
        problem = "more than kMaxStudyMultiplyAdds";
    if (problem.empty() && work > kMaxStudyWork) return;

    attention::ScaleStudy study;
    if (!returns_exactly_when_valid("scale_study", problem, [&] { study = attention::scale_study(options); }))
        return;
    require(study.unscaled.scale.mode == ScaleMode::none &&
                study.inverse_sqrt_d.scale.mode == ScaleMode::inverse_sqrt_d &&
                study.inverse_d.scale.mode == ScaleMode::inverse_d,
            "scale_study series are not none, 1/sqrt(d), 1/d");
    const std::size_t n = options.widths.size();
    for (const attention::ScaleSeries* each : study.each()) {
        const attention::ScaleSeries& series = *each;
        require(series.peak_mean.size() == n && series.peak_spread.size() == n &&
                    series.entropy_mean.size() == n && series.entropy_spread.size() == n,
                "scale_study series has the wrong length");
        for (std::size_t w = 0; w < n; ++w) {
            const double peak = series.peak_mean[w], entropy = series.entropy_mean[w];
            require(peak >= 1.0 / options.T - kRounding && peak <= 1.0 + kRounding,
                    "scale_study peak %g outside [1/T, 1]", peak);
            require(entropy >= 0 && entropy <= std::log(options.T) + kRounding,
                    "scale_study entropy %g outside [0, ln T]", entropy);
            for (double spread : {series.peak_spread[w], series.entropy_spread[w]}) {
                require(std::isfinite(spread) && spread >= 0, "scale_study spread %g", spread);
                require(options.draws > 1 || spread == 0, "scale_study spread %g for a single draw", spread);
            }
        }
    }
}

// ---- the generator ----

void fuzz_torch(FuzzInput& in) {
    const std::uint64_t seed = fuzz::seed_from(in);
    attention::TorchGenerator generator(seed), twin(seed), low_bits(seed & 0xffffffffU);
    const int calls = 1 + in.byte() % 3;
    for (int call = 0; call < calls; ++call) {
        const auto count = static_cast<std::size_t>(
            fuzz::int_from_byte(in.byte(), 0, 64, {64, 100, 127, 128, 255, 256, 624, 625, 1000, 1248}));
        const std::vector<float> values = generator.randn(count);
        require(values.size() == count, "randn(%zu) returned %zu values", count, values.size());
        // Box-Muller's radius sqrt(-2 ln u) with u >= 2^-53 is at most 8.58.
        for (float x : values)
            require(std::isfinite(x) && std::fabs(x) <= 8.6f, "randn gave %g (seed %llu)",
                    static_cast<double>(x), static_cast<unsigned long long>(seed));
        require(twin.randn(count) == values, "randn is not deterministic for seed %llu",
                static_cast<unsigned long long>(seed));
        require(low_bits.randn(count) == values, "seed %llu differs from its low 32 bits",
                static_cast<unsigned long long>(seed));
    }
}

// ---- softmax_row ----

// Precondition (attention/formula.hpp): finite or -inf entries, at least one finite. NaN and +inf
// bytes are turned into -inf to stay inside it.
void fuzz_softmax_row(FuzzInput& in) {
    const int n = 1 + in.byte() % 64;
    std::vector<float> row = fuzz::read_values(in, static_cast<std::size_t>(n));
    for (float& x : row)
        if (std::isnan(x) || x == INFINITY) x = -INFINITY;
    if (std::none_of(row.begin(), row.end(), [](float x) { return std::isfinite(x); })) row[0] = 0.0f;
    const std::vector<float> logits = row;
    attention::softmax_row(row.data(), n);
    double sum = 0;
    for (int j = 0; j < n; ++j) {
        const auto a = static_cast<std::size_t>(j);
        require(row[a] >= 0.0f && row[a] <= 1.0f, "softmax_row gave %g", static_cast<double>(row[a]));
        if (logits[a] == -INFINITY)
            require(row[a] == 0.0f, "softmax_row gave %g for a -inf logit", static_cast<double>(row[a]));
        for (int m = 0; m < n; ++m)
            if (logits[a] >= logits[static_cast<std::size_t>(m)])
                require(row[a] >= row[static_cast<std::size_t>(m)],
                        "softmax_row is not monotonic: logits %g >= %g but weights %g < %g",
                        static_cast<double>(logits[a]),
                        static_cast<double>(logits[static_cast<std::size_t>(m)]), static_cast<double>(row[a]),
                        static_cast<double>(row[static_cast<std::size_t>(m)]));
        sum += row[a];
    }
    require(std::fabs(sum - 1.0) <= kRowSumTolerance, "softmax_row sums to %.9g", sum);
}

// ---- Matrix, scale_factor, sinusoidal_positions ----

constexpr std::size_t kMaxAllocation = std::size_t{1} << 16;  // elements we allocate per valid call

void fuzz_small_pieces(FuzzInput& in) {
    const std::initializer_list<int> edges{-1,      INT_MIN,       INT_MAX, 1 << 13, (1 << 13) + 1,
                                           1 << 26, (1 << 26) + 1, 65536};
    const int rows = fuzz::int_from_byte(in.byte(), 0, 70, edges),
              cols = fuzz::int_from_byte(in.byte(), 0, 70, edges);
    const int extra = in.byte() % 5 - 2;
    const bool negative = rows < 0 || cols < 0;
    const std::size_t count = negative ? 0 : cells(rows, cols);
    const bool too_many = !negative && count > attention::kMaxInputElements;
    const std::string shape_problem = negative   ? "negative shape"
                                      : too_many ? "more than kMaxInputElements"
                                                 : "";

    if (!shape_problem.empty() || count <= kMaxAllocation) {
        Matrix zeros;
        if (returns_exactly_when_valid("Matrix(rows, cols)", shape_problem,
                                       [&] { zeros = Matrix(rows, cols); }))
            require(zeros.values == std::vector<float>(count, 0.0f), "Matrix(rows, cols) is not all zeros");
        // (INT_MAX, 0) is a valid shape, but walking its INT_MAX empty rows only costs time.
        Matrix pe;
        const bool cheap = count > 0 || rows <= 4096;
        if (cheap && returns_exactly_when_valid("sinusoidal_positions", shape_problem,
                                                [&] { pe = attention::sinusoidal_positions(rows, cols); }))
            for (int t = 0; t < rows; ++t)
                for (int c = 0; c < cols; ++c) {
                    const double angle = t / std::pow(10000.0, 2.0 * (c / 2) / cols);
                    const double expected = c % 2 == 0 ? std::sin(angle) : std::cos(angle);
                    require(std::fabs(pe.row(t)[c] - expected) <= 1e-6, "pe[%d][%d] = %g, expected %g", t, c,
                            static_cast<double>(pe.row(t)[c]), expected);
                }
    }
    if (count <= kMaxAllocation) {
        const auto given =
            static_cast<std::size_t>(std::max<long long>(0, static_cast<long long>(count) + extra));
        const std::string problem = !shape_problem.empty() ? shape_problem
                                    : given != count       ? "value count differs from rows·cols"
                                                           : "";
        Matrix filled;
        returns_exactly_when_valid("Matrix(rows, cols, values)", problem,
                                   [&] { filled = Matrix(rows, cols, std::vector<float>(given)); });
    }

    const Scale scale = fuzz::scale_from(in);
    const int d = fuzz::int_from_byte(in.byte(), -2, 70, {INT_MIN, INT_MAX, attention::kMaxWidth});
    const std::optional<double> expected = documented_scale(scale, d);
    double factor = 0;
    if (returns_exactly_when_valid("scale_factor", expected ? "" : "bad scale or d < 1",
                                   [&] { factor = attention::scale_factor(scale, d); }))
        require(std::fabs(factor - *expected) <= 4 * DBL_EPSILON * *expected,
                "scale_factor = %.17g, expected %.17g", factor, *expected);
    std::string name;
    returns_exactly_when_valid("scale_name", "", [&] { name = attention::scale_name(scale); });
    require(!name.empty(), "scale_name is empty");
}

// ---- the equivalence check ----

void fuzz_equivalence(FuzzInput& in) {
    const std::uint8_t flags = in.byte();
    const bool causal = flags & 1, same_shapes = flags & 8;
    attention::EquivalenceInputs inputs;
    const int q_batches = in.byte() % 4, k_batches = in.byte() % 4, v_batches = in.byte() % 4;
    const int batches = std::max({q_batches, k_batches, v_batches});
    int T = 0, d = 0, d_v = 0;
    for (int b = 0; b < batches; ++b) {
        if (b == 0 || !same_shapes) {
            T = in.byte() % 9;
            d = in.byte() % 9;
            d_v = in.byte() % 9;
        }
        if (b < q_batches) inputs.q.emplace_back(T, d, fuzz::read_values(in, cells(T, d)));
        if (b < k_batches) inputs.k.emplace_back(T, d, fuzz::read_values(in, cells(T, d)));
        if (b < v_batches) inputs.v.emplace_back(T, d_v, fuzz::read_values(in, cells(T, d_v)));
    }
    // tutorial/equivalence.hpp: q, k, v are batch × (T, d) and torch's output is flat (batch, T, d_v), so
    // every batch must share batch 0's shapes, and each must be a valid head.
    std::string problem;
    if (q_batches == 0 || k_batches != q_batches || v_batches != q_batches)
        problem = "batch counts differ or are 0";
    for (std::size_t b = 0; problem.empty() && b < inputs.q.size(); ++b) {
        problem = formula_problem(inputs.q[b], inputs.k[b], inputs.v[b], Scale::inverse_sqrt_d());
        const bool same_shape =
            inputs.q[b].rows == inputs.q[0].rows && inputs.q[b].cols == inputs.q[0].cols &&
            inputs.k[b].rows == inputs.k[0].rows && inputs.k[b].cols == inputs.k[0].cols &&
            inputs.v[b].rows == inputs.v[0].rows && inputs.v[b].cols == inputs.v[0].cols;
        if (problem.empty() && !same_shape) problem = "batches of different shapes";
    }
    // None, the right size, one too many, or one too few (but at least one).
    const std::size_t expected_size = inputs.v.empty() ? 0 : inputs.v[0].values.size() * inputs.q.size();
    const std::size_t torch_sizes[] = {0, expected_size, expected_size + 1,
                                       expected_size > 1 ? expected_size - 1 : 1};
    const std::vector<float> torch_output = fuzz::read_values(in, torch_sizes[(flags >> 1) % 4]);
    if (problem.empty() && !torch_output.empty() && torch_output.size() != expected_size)
        problem = "torch output has the wrong size";
    attention::EquivalenceCase result;
    if (!returns_exactly_when_valid("check_equivalence", problem, [&] {
            result = attention::check_equivalence(inputs, causal, torch_output);
        }))
        return;
    require(result.causal == causal && result.has_torch == !torch_output.empty(),
            "check_equivalence echoes the wrong flags");
    for (double difference : {result.formula_vs_fused, result.formula_vs_f64})
        require(std::isfinite(difference) && difference >= 0,
                "check_equivalence difference %g between our own kernels", difference);
    // torch's numbers come from outside: a NaN or inf among them is a mismatch, never "OK".
    const bool torch_finite =
        std::all_of(torch_output.begin(), torch_output.end(), [](float x) { return std::isfinite(x); });
    if (torch_finite)
        require(std::isfinite(result.formula_vs_torch) && result.formula_vs_torch >= 0,
                "formula_vs_torch = %g", result.formula_vs_torch);
    require(torch_finite || !result.ok(),
            "check_equivalence says OK although torch's output has a NaN or inf");
    const bool ok = result.formula_vs_fused < attention::kEquivalenceTolerance &&
                    result.formula_vs_f64 < attention::kEquivalenceTolerance &&
                    (!result.has_torch || result.formula_vs_torch < attention::kEquivalenceTolerance);
    require(result.ok() == ok, "EquivalenceCase::ok() disagrees with its differences");
    const std::string line = attention::equivalence_line(result);
    require(line.find(ok ? "OK" : "MISMATCH") != std::string::npos, "equivalence_line \"%s\" does not say %s",
            line.c_str(), ok ? "OK" : "MISMATCH");
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    std::atexit(print_observed);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    FuzzInput in(data, size);
    switch (in.byte() % 10) {
        case 0:
        case 1:
        case 2:
            fuzz_head(in);
            break;
        case 3:
            fuzz_map(in);
            break;
        case 4:
            fuzz_tokenize(in);
            break;
        case 5:
            fuzz_scale_study(in);
            break;
        case 6:
            fuzz_torch(in);
            break;
        case 7:
            fuzz_softmax_row(in);
            break;
        case 8:
            fuzz_small_pieces(in);
            break;
        default:
            fuzz_equivalence(in);
            break;
    }
    return 0;
}
