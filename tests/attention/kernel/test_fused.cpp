// Tests of the fast path (cpp/attention/kernel/fused.cpp) against formula(), the readable reference: a table
// of lengths that are no multiple of any tile or vector width, head widths from 1 to 256 with d_v != d, both
// masks and several key tiles; then the cases the fast path treats specially (skipped tiles, exact zeros
// under the mask, logits whose exp underflows) and the extremes that fuzz/ found (scores near 1e18, values
// near FLT_MAX, a scale that rounds to 0).
#include "catch.hpp"
#include "test_support.hpp"

#include "attention/formula.hpp"
#include "attention/kernel/fused.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

using namespace attention;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
using test_support::max_abs_difference;
using test_support::random_matrix;

namespace {

double tolerance(float expected) {
    return 1e-5 + 1e-5 * std::fabs(expected);
}

// The entry furthest outside (or least inside) its tolerance: one assertion per comparison
// instead of one per entry, and a failure names the worst entry.
std::size_t worst_entry(const Matrix& actual, const Matrix& expected) {
    std::size_t worst = 0;
    double worst_margin = -1.0;
    for (std::size_t e = 0; e < expected.values.size(); ++e) {
        const double margin =
            std::fabs(actual.values[e] - expected.values[e]) / tolerance(expected.values[e]);
        if (margin > worst_margin) {
            worst = e;
            worst_margin = margin;
        }
    }
    return worst;
}

}  // namespace

TEST_CASE("the fast path equals the formula for every length, width, mask and key tile",
          "[fused][fast][property]") {
    const int T = GENERATE(1, 2, 3, 5, 17, 63, 64, 65, 129, 257, 1000);
    const bool causal = GENERATE(false, true);
    CAPTURE(T, causal);
    // (d, d_v): every d from 1 to 256 the table names, with d_v != d (and d_v not a multiple of 4)
    // beside most of them.
    const std::vector<std::tuple<int, int>> widths = {{1, 1},    {1, 5},     {2, 3},   {3, 3},   {7, 64},
                                                      {16, 16},  {31, 17},   {64, 64}, {64, 33}, {100, 100},
                                                      {128, 64}, {256, 256}, {256, 1}};
    // Every (width, key tile) pair runs; the test then judges the pair whose worst entry is
    // furthest outside its tolerance, so a failure names the width, tile and entry.
    double largest_difference = 0.0, worst_margin = -1.0;
    std::string worst_case = "none";
    float worst_actual = 0.0f, worst_expected = 0.0f;
    for (const auto& [d, d_v] : widths) {
        const auto seed = static_cast<unsigned>(T * 1000 + d * 10 + d_v);
        const Matrix q = random_matrix(T, d, seed), k = random_matrix(T, d, seed + 1),
                     v = random_matrix(T, d_v, seed + 2);
        const Matrix expected = formula(q, k, v, Scale::inverse_sqrt_d(), causal).output;
        for (int key_tile : {1, 7, 16, kDefaultKeyTile, 100, 5000}) {
            const Matrix actual = fused(q, k, v, Scale::inverse_sqrt_d(), causal, key_tile);
            const std::string name = "d " + std::to_string(d) + ", d_v " + std::to_string(d_v) +
                                     ", key tile " + std::to_string(key_tile);
            if (actual.rows != T || actual.cols != d_v) {
                FAIL_CHECK(name << ": output shape (" << actual.rows << ", " << actual.cols << ")");
                continue;
            }
            const std::size_t e = worst_entry(actual, expected);
            const double margin =
                std::fabs(actual.values[e] - expected.values[e]) / tolerance(expected.values[e]);
            if (margin > worst_margin) {
                worst_margin = margin;
                worst_case = name + ", entry " + std::to_string(e);
                worst_actual = actual.values[e];
                worst_expected = expected.values[e];
            }
            largest_difference =
                std::max(largest_difference, max_abs_difference(actual.values, expected.values));
        }
    }
    CAPTURE(worst_case);
    REQUIRE_THAT(worst_actual, WithinAbs(worst_expected, tolerance(worst_expected)));
    WARN("T = " << T << (causal ? " causal" : "") << ": max |fast path - formula| = " << largest_difference
                << " over " << widths.size() << " widths x 6 key tiles");
}

TEST_CASE("under the causal mask the first query copies the first value exactly", "[fused][fast][hand]") {
    const Matrix q(3, 2, {1, 0, 0, 1, 1, 1}), k(3, 2, {2, 1, 0, 3, -1, 1}), v(3, 2, {0.25f, -4, 7, 8, 9, 10});
    const Matrix out = fused(q, k, v, Scale::inverse_sqrt_d(), true);
    // Query 0 sees only key 0: weight exp(0) = 1 exactly, so its output is v_0 to the bit.
    REQUIRE(out.row(0)[0] == 0.25f);
    REQUIRE(out.row(0)[1] == -4.0f);
    const Matrix expected = formula(q, k, v, Scale::inverse_sqrt_d(), true).output;
    for (std::size_t e = 0; e < expected.values.size(); ++e)
        REQUIRE_THAT(out.values[e], WithinAbs(expected.values[e], tolerance(expected.values[e])));
}

TEST_CASE("under the causal mask a later token's key and value never reach an earlier row",
          "[fused][fast][mask]") {
    // Masked keys get weight exactly 0 (-inf through exp), and wholly hidden tiles are skipped,
    // so earlier rows must come out bit for bit the same whatever the later tokens hold.
    const int T = GENERATE(5, 40, 100, 300);
    const int changed = GENERATE_COPY(T / 2, T - 1);
    const int key_tile = GENERATE(1, 16, kDefaultKeyTile);
    CAPTURE(T, changed, key_tile);
    const Matrix q = random_matrix(T, 24, 51), k = random_matrix(T, 24, 52), v = random_matrix(T, 10, 53);
    Matrix k_changed = k, v_changed = v;
    for (int c = 0; c < k.cols; ++c) k_changed.row(changed)[c] += 3.0f;
    for (int c = 0; c < v.cols; ++c) v_changed.row(changed)[c] = -100.0f;
    const Matrix before = fused(q, k, v, Scale::inverse_sqrt_d(), true, key_tile);
    const Matrix after = fused(q, k_changed, v_changed, Scale::inverse_sqrt_d(), true, key_tile);
    const std::vector<float> earlier_before(before.row(0), before.row(changed)),
        earlier_after(after.row(0), after.row(changed));
    REQUIRE(earlier_after == earlier_before);
    REQUIRE(after.row(changed)[0] != before.row(changed)[0]);
}

TEST_CASE("logits so spread that most weights underflow still match the formula", "[fused][fast][extreme]") {
    // Whole-number q and k make every score an exact integer (|q·k| <= 16·8·8) in any summation
    // order, so both paths see the same logits. They lie so far apart that exp(score - max) is 0
    // in float32 for most keys of most rows: the fast path's exp clamps and returns exact 0s.
    const bool causal = GENERATE(false, true);
    const int T = GENERATE(33, 200);
    CAPTURE(causal, T);
    auto whole_numbers = [T](unsigned seed) {
        Matrix m = random_matrix(T, 16, seed);
        for (float& x : m.values) x = std::clamp(std::round(x * 4.0f), -8.0f, 8.0f);
        return m;
    };
    const Matrix q = whole_numbers(61), k = whole_numbers(62), v = random_matrix(T, 3, 63);
    const Intermediates head = formula(q, k, v, Scale::none(), causal);
    const long visible = causal ? T * (T + 1) / 2 : T * T;
    const long hidden = T * T - visible;
    const long underflowed =
        std::count(head.weights.values.begin(), head.weights.values.end(), 0.0f) - hidden;
    REQUIRE(underflowed > visible / 3);
    const Matrix actual = fused(q, k, v, Scale::none(), causal);
    const double difference = max_abs_difference(actual.values, head.output.values);
    CAPTURE(underflowed, difference);
    const std::size_t e = worst_entry(actual, head.output);
    REQUIRE_THAT(actual.values[e], WithinAbs(head.output.values[e], tolerance(head.output.values[e])));
}

TEST_CASE("scores near 1e18 give the formula's output, not NaN", "[fused][fast][extreme]") {
    // Found by fuzz/: with score·scale - max·scale, a fused multiply-add left exp an argument
    // of +1e10 instead of 0, and the row came out NaN. Every value of v is -6, so every output is.
    const Matrix q(4, 3,
                   {4.73411871e-38f, 1.18474993e-38f, -2.88256833e+17f, -4.97338659e+17f, -4.97338659e+17f,
                    -4.97338659e+17f, -4.97338659e+17f, -4.97338659e+17f, -4.97338659e+17f, 4.6090931e+24f,
                    1.41531145e-43f, 0.0f});
    const Matrix k(4, 3, std::vector<float>(12, -6.0f)), v(4, 2, std::vector<float>(8, -6.0f));
    const bool causal = GENERATE(false, true);
    const int key_tile = GENERATE(1, 54, kDefaultKeyTile);
    CAPTURE(causal, key_tile);
    const Matrix out = fused(q, k, v, Scale::inverse_sqrt_d(), causal, key_tile);
    const double difference = max_abs_difference(out.values, std::vector<float>(out.values.size(), -6.0f));
    CAPTURE(difference);
    REQUIRE(difference < 1e-5);
}

TEST_CASE("values near FLT_MAX give a finite weighted mean, as the formula does", "[fused][fast][extreme]") {
    // Found by fuzz/: the unnormalised sum of up to T weights (each <= 1) times |v| ~ 3e38 overflowed.
    const int T = GENERATE(2, 40, 300);
    const bool causal = GENERATE(false, true);
    CAPTURE(T, causal);
    Matrix v = random_matrix(T, 5, 91);
    for (float& x : v.values) x = x > 0 ? 3.0e38f : -3.0e38f;
    const Matrix q = random_matrix(T, 8, 92), k = random_matrix(T, 8, 93);
    const Matrix expected = formula(q, k, v, Scale::inverse_sqrt_d(), causal).output;
    const Matrix actual = fused(q, k, v, Scale::inverse_sqrt_d(), causal);
    for (std::size_t e = 0; e < expected.values.size(); ++e) {
        CAPTURE(e);
        REQUIRE(std::isfinite(actual.values[e]));
        REQUIRE_THAT(actual.values[e], WithinRel(static_cast<double>(expected.values[e]), 1e-5) ||
                                           WithinAbs(expected.values[e], 3e33));
    }
}

TEST_CASE("the smallest allowed scale weighs every visible key equally", "[fused][fast][extreme]") {
    // Found by fuzz/ with a scale that rounded to 0 in float32 (-inf times 0 is NaN). Such
    // scales are now rejected; the smallest accepted one must still give a plain average.
    const bool causal = GENERATE(false, true);
    CAPTURE(causal);
    const Matrix q = random_matrix(7, 3, 94), k = random_matrix(7, 3, 95), v = random_matrix(7, 2, 96);
    const Matrix expected = formula(q, k, v, Scale::custom(kMinScaleFactor), causal).output;
    const Matrix actual = fused(q, k, v, Scale::custom(kMinScaleFactor), causal, 4);
    // The plain average of the visible values, by hand: row i sees keys 0…i (or all 7).
    std::vector<double> average;
    for (int i = 0; i < 7; ++i)
        for (int c = 0; c < 2; ++c) {
            const int visible = causal ? i + 1 : 7;
            double mean = 0;
            for (int j = 0; j < visible; ++j) mean += static_cast<double>(v.row(j)[c]) / visible;
            average.push_back(mean);
        }
    REQUIRE(max_abs_difference(actual.values, average) < 1e-6);
    REQUIRE(max_abs_difference(actual.values, expected.values) < 1e-6);
}

TEST_CASE("every scale mode gives the formula's output on the fast path", "[fused][fast][scale]") {
    const Scale scale = GENERATE(Scale::inverse_sqrt_d(), Scale::inverse_d(), Scale::none(),
                                 Scale::custom(0.01), Scale::custom(3.0));
    CAPTURE(scale_name(scale));
    const bool causal = GENERATE(false, true);
    CAPTURE(causal);
    const Matrix q = random_matrix(70, 12, 71), k = random_matrix(70, 12, 72), v = random_matrix(70, 9, 73);
    const Matrix expected = formula(q, k, v, scale, causal).output;
    const Matrix actual = fused(q, k, v, scale, causal);
    const std::size_t e = worst_entry(actual, expected);
    CAPTURE(e);
    REQUIRE_THAT(actual.values[e], WithinAbs(expected.values[e], tolerance(expected.values[e])));
}

TEST_CASE("a key tile below 1 is rejected before any work, naming the argument", "[fused][fast][errors]") {
    const Matrix q = random_matrix(4, 3, 81), k = random_matrix(4, 3, 82), v = random_matrix(4, 2, 83);
    const int key_tile = GENERATE(0, -1, -1000);
    CAPTURE(key_tile);
    const std::string message =
        test_support::invalid_argument_message([&] { fused(q, k, v, Scale::none(), false, key_tile); });
    REQUIRE(
        test_support::contains(message, "key_tile = " + std::to_string(key_tile) + " must be at least 1"));
}

TEST_CASE("the fast path rejects exactly what the formula rejects, with the same message",
          "[fused][fast][errors]") {
    // fused() decides the common, valid case with its own vectorised scan and leaves every other
    // input to validate_inputs(): a disagreement on any of these would be a rule applied twice.
    // `where` is the matrix given `value` at `index` ('b': q and k both, at index 0).
    static constexpr float nan = std::numeric_limits<float>::quiet_NaN();
    static constexpr float inf = std::numeric_limits<float>::infinity();
    const auto [what, where, index, value, d, d_v, factor] =
        GENERATE(table<const char*, char, int, float, int, int, double>({
            {"valid", '-', 0, 0.0f, 8, 8, 0.5},
            {"NaN first in q", 'q', 0, nan, 8, 8, 0.5},
            {"-inf last in k", 'k', 5 * 8 - 1, -inf, 8, 8, 0.5},
            {"NaN in v", 'v', 7, nan, 8, 3, 0.5},
            {"inf in v", 'v', 0, inf, 8, 3, 0.5},
            // d·max|q|·max|k| against FLT_MAX / 4 ≈ 8.5e37: 8.1e37 passes at d = 1, not at d = 2.
            {"scores just within float32", 'b', 0, 9e18f, 1, 1, 1.0},
            {"scores that would overflow", 'b', 0, 9e18f, 2, 1, 1.0},
            {"a large scale makes them overflow", 'b', 0, 1e15f, 4, 4, 1e9},
            {"a scale out of range", '-', 0, 0.0f, 8, 8, 1e31},
            {"d past the width limit", '-', 0, 0.0f, kMaxWidth + 1, 1, 0.5},
            {"d_v past the width limit", '-', 0, 0.0f, 1, kMaxWidth + 1, 0.5},
        }));
    CAPTURE(what);
    Matrix q = random_matrix(5, d, 91), k = random_matrix(5, d, 92), v = random_matrix(5, d_v, 93);
    const auto at = static_cast<std::size_t>(index);
    if (where == 'q' || where == 'b') q.values[at] = value;
    if (where == 'k' || where == 'b') k.values[at] = value;
    if (where == 'v') v.values[at] = value;
    const Scale scale = Scale::custom(factor);  // C++17 lambdas cannot capture a structured binding
    const std::string by_formula =
        test_support::invalid_argument_message([&] { formula(q, k, v, scale, false); });
    CAPTURE(by_formula);
    REQUIRE(test_support::invalid_argument_message([&] { fused(q, k, v, scale, false); }) == by_formula);
}
