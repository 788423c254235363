// oracle: what every fuzz target (fuzz/targets/) judges the core with, written from the
// headers' documented limits and never by asking the library.
//
//   * failing loudly: require() and fail() print the broken promise and abort, which libFuzzer
//     records as a crash; returns_exactly_when_valid() holds a call to our own verdict (it
//     must throw std::invalid_argument, with a message, for exactly the invalid inputs);
//   * the tolerances of float32 arithmetic, derived below;
//   * our verdicts on inputs: a head's shapes, values and scale, strict UTF-8.
// What a valid head's results must satisfy is head_checks.hpp; each target's own promises
// sit in its file.
#pragma once

#include "attention/formula.hpp"

#include <cfloat>
#include <cmath>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

namespace fuzz {

using attention::Matrix;
using attention::Scale;
using attention::ScaleMode;

// ---- failing loudly --------------------------------------------------------------------------

[[noreturn]] __attribute__((format(printf, 1, 2))) void fail(const char* format, ...);
__attribute__((format(printf, 2, 3))) void require(bool condition, const char* format, ...);

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
inline constexpr double kUnit = 0x1.0p-24;
inline constexpr double kRounding = 1e-4;
inline constexpr double kUnderflow = static_cast<double>(FLT_MIN);
inline constexpr double kRowSumTolerance = 1e-5;  // the core's promise: every weight row sums to 1

inline double gamma(int n) {
    return n * kUnit / (1.0 - n * kUnit);
}

// The bound on |computed score - exact score| above, for one q_i·k_j with sum|q_c k_c| = absolute.
inline double score_error(double absolute, int d, double factor) {
    const double eta = static_cast<double>(FLT_TRUE_MIN);
    return (gamma(d + 2) * factor + eta) * absolute + (d * factor + 1) * eta;
}

// magnitude * (drift + kRounding), where drift = expm1(n·Delta) may be infinite: then the scores
// carry no information about the weights and any difference is allowed (never 0 * inf = NaN).
inline double drift_tolerance(double magnitude, double drift) {
    return std::isinf(drift) ? INFINITY : magnitude * (drift + kRounding);
}

// Largest differences seen, printed when the process exits (print_observed): a long run's
// evidence of how close to its tolerance each comparison came.
struct Observed {
    double fused_vs_formula = 0;      // max |fused - formula| / max|v|
    double fused_vs_formula_tol = 0;  // max |fused - formula| / tolerance
    double formula_vs_f64_tol = 0;    // max |formula - float64| / tolerance
    long valid_heads = 0, invalid_heads = 0;
};
inline Observed observed;

void print_observed();

// ---- our own verdict on inputs ---------------------------------------------------------------

bool all_finite(const Matrix& m);
double max_abs(const Matrix& m);

// attention/scale.hpp: the factor a scale documents for width d, or nullopt when the scale is
// invalid there (a custom factor outside kMinScaleFactor…kMaxScaleFactor, d < 1, a mode
// outside the enum).
std::optional<double> documented_scale(Scale scale, int d);

// Why q, k, v and the scale are not a valid head for fused(), or "" when they are.
std::string head_problem(const Matrix& q, const Matrix& k, const Matrix& v, Scale scale);
// The same for formula() and reference_f64(), which also cap T at kMaxFormulaT.
std::string formula_problem(const Matrix& q, const Matrix& k, const Matrix& v, Scale scale);

// Whether a causal mask hides key from query.
inline bool masked(bool causal, int query, int key) {
    return causal && key > query;
}

// Strict UTF-8 (Unicode 15, table 3-7): no overlong forms, no surrogates, nothing past
// U+10FFFF. Returns each code point with its bytes, or nullopt when the text is malformed.
std::optional<std::vector<std::pair<std::string, char32_t>>> strict_utf8(const std::string& text);

}  // namespace fuzz
