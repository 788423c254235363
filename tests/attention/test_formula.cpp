// Tests of the formula, the fused kernel, the float64 reference and the row statistics:
// hand-computed small cases first, then properties over random inputs, then bad input.
#include "catch.hpp"
#include "test_support.hpp"

#include "attention/formula.hpp"
#include "attention/kernel/fused.hpp"
#include "attention/reference.hpp"
#include "attention/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <string>

using namespace attention;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
using test_support::contains;
using test_support::invalid_argument_message;
using test_support::max_abs_difference;
using test_support::random_matrix;

namespace {

bool is_finite(float x) {
    return std::isfinite(x);
}

}  // namespace

TEST_CASE("a 2x2 head without mask matches the hand computation", "[formula][hand]") {
    // scores = I, no scale: row 0 is softmax([1, 0]) = [e, 1] / (e + 1).
    const Matrix q(2, 2, {1, 0, 0, 1}), k(2, 2, {1, 0, 0, 1}), v(2, 2, {1, 2, 3, 4});
    const Intermediates head = formula(q, k, v, Scale::none(), false);
    const double e = std::exp(1.0);
    const double heavy = e / (e + 1), light = 1 / (e + 1);
    REQUIRE_THAT(head.weights.row(0)[0], WithinAbs(heavy, 1e-7));
    REQUIRE_THAT(head.weights.row(0)[1], WithinAbs(light, 1e-7));
    REQUIRE_THAT(head.weights.row(1)[0], WithinAbs(light, 1e-7));
    REQUIRE_THAT(head.output.row(0)[0], WithinAbs(heavy * 1 + light * 3, 1e-6));
    REQUIRE_THAT(head.output.row(0)[1], WithinAbs(heavy * 2 + light * 4, 1e-6));
    REQUIRE_THAT(head.output.row(1)[1], WithinAbs(light * 2 + heavy * 4, 1e-6));
}

TEST_CASE("a 2x2 causal head lets row 0 see only itself", "[formula][hand][mask]") {
    const Matrix q(2, 2, {1, 0, 0, 1}), k(2, 2, {1, 0, 0, 1}), v(2, 2, {1, 2, 3, 4});
    const Intermediates head = formula(q, k, v, Scale::none(), true);
    const double e = std::exp(1.0);
    REQUIRE(head.weights.row(0)[0] == 1.0f);
    REQUIRE(head.weights.row(0)[1] == 0.0f);
    REQUIRE(head.masked_scores.row(0)[1] == -std::numeric_limits<float>::infinity());
    REQUIRE_THAT(head.output.row(0)[0], WithinAbs(1.0, 1e-7));
    REQUIRE_THAT(head.output.row(1)[0], WithinAbs((1 * 1 + e * 3) / (1 + e), 1e-6));
}

TEST_CASE("a 3x3 causal head with 1/sqrt(d) matches the hand computation", "[formula][hand][mask]") {
    // d = 4 so the scale is exactly 1/2. Raw scores [[2,0,0],[0,2,0],[1,1,0]] -> scaled
    // [[1,0,0],[0,1,0],[.5,.5,0]]. V = I (padded), so the output rows are the weights.
    const Matrix q(3, 4, {2, 0, 0, 0, 0, 2, 0, 0, 1, 1, 0, 0});
    const Matrix k(3, 4, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0});
    const Matrix v(3, 3, {1, 0, 0, 0, 1, 0, 0, 0, 1});
    const Intermediates head = formula(q, k, v, Scale::inverse_sqrt_d(), true);
    REQUIRE(head.scale == 0.5);
    REQUIRE(head.raw_scores.row(2)[0] == 1.0f);
    REQUIRE(head.scaled_scores.row(2)[0] == 0.5f);
    REQUIRE(head.scaled_scores.row(0)[1] == 0.0f);  // unmasked before step 2
    const double e = std::exp(1.0), root_e = std::exp(0.5);
    REQUIRE_THAT(head.weights.row(1)[0], WithinAbs(1 / (1 + e), 1e-7));
    REQUIRE_THAT(head.weights.row(1)[1], WithinAbs(e / (1 + e), 1e-7));
    REQUIRE_THAT(head.weights.row(2)[0], WithinAbs(root_e / (2 * root_e + 1), 1e-7));
    REQUIRE_THAT(head.weights.row(2)[2], WithinAbs(1 / (2 * root_e + 1), 1e-7));
    const std::vector<float> output_2(head.output.row(2), head.output.row(2) + 3);
    const std::vector<float> weights_2(head.weights.row(2), head.weights.row(2) + 3);
    REQUIRE(max_abs_difference(output_2, weights_2) < 1e-7);
}

TEST_CASE("every row of weights sums to 1 and masked weights are exactly 0", "[formula][mask][property]") {
    const int T = GENERATE(1, 2, 7, 33);
    const int d = GENERATE(1, 5, 64);
    const bool causal = GENERATE(false, true);
    CAPTURE(T, d, causal);
    const Intermediates head = formula(random_matrix(T, d, 1), random_matrix(T, d, 2), random_matrix(T, 3, 3),
                                       Scale::inverse_sqrt_d(), causal);
    // Over all rows: the sum furthest from 1, and any weight on the wrong side of the mask.
    int worst_row = 0, masked_but_nonzero = 0, visible_but_not_positive = 0;
    double worst_sum = 1.0;
    for (int i = 0; i < T; ++i) {
        const float* weights_i = head.weights.row(i);
        double sum = 0;
        for (int j = 0; j < T; ++j) {
            sum += weights_i[j];
            const bool masked = causal && j > i;
            masked_but_nonzero += masked && weights_i[j] != 0.0f;
            visible_but_not_positive += !masked && !(weights_i[j] > 0.0f);
        }
        if (std::fabs(sum - 1.0) > std::fabs(worst_sum - 1.0)) {
            worst_sum = sum;
            worst_row = i;
        }
    }
    CAPTURE(worst_row, worst_sum);
    REQUIRE_THAT(worst_sum, WithinAbs(1.0, 1e-6));
    REQUIRE(masked_but_nonzero == 0);
    REQUIRE(visible_but_not_positive == 0);
    if (causal) REQUIRE(head.weights.row(0)[0] == 1.0f);
}

TEST_CASE("softmax does not change when every logit is shifted by the same amount", "[softmax]") {
    const float shift = GENERATE(-1000.0f, -3.5f, 0.0f, 42.0f, 1e4f);
    CAPTURE(shift);
    std::vector<float> plain{0.5f, -1.0f, 2.0f, 0.0f}, shifted = plain;
    for (float& x : shifted) x += shift;
    softmax_row(plain.data(), 4);
    softmax_row(shifted.data(), 4);
    // 1e4 + 2 is representable only to ~1e-3 in float32, so the tolerance follows the shift.
    const double tolerance = 1e-6 + 1e-7 * std::fabs(shift) * 2;
    const double difference = max_abs_difference(shifted, plain);
    CAPTURE(difference);
    REQUIRE(difference <= tolerance);
}

TEST_CASE("logits of plus and minus 1e30 give finite weights and no NaN", "[softmax][extreme]") {
    std::vector<float> row{1e30f, -1e30f, 0.0f, 1e30f};
    softmax_row(row.data(), 4);
    REQUIRE(row == std::vector<float>{0.5f, 0.0f, 0.0f, 0.5f});

    // The same through the whole head: q·k = ±1e30 with d = 1 and no scale.
    const Matrix q(2, 1, {1e15f, 1e15f}), k(2, 1, {1e15f, -1e15f}), v(2, 1, {3, 5});
    const Intermediates head = formula(q, k, v, Scale::none(), false);
    REQUIRE(std::all_of(head.weights.values.begin(), head.weights.values.end(), is_finite));
    REQUIRE(head.weights.row(0)[0] == 1.0f);
    REQUIRE(head.output.row(0)[0] == 3.0f);
    const Matrix tiled = fused(q, k, v, Scale::none(), false, 1);
    REQUIRE(tiled.row(0)[0] == 3.0f);
}

TEST_CASE("values at the edge of float32 give a finite weighted mean", "[formula][extreme]") {
    // Uniform weights over three values of FLT_MAX: the mean is FLT_MAX, but float32 partial
    // sums of (1/3 rounded up)·FLT_MAX overflow.
    const float largest = std::numeric_limits<float>::max();
    const Matrix q(3, 1), k(3, 1), v(3, 1, {largest, largest, largest});
    const Intermediates head = formula(q, k, v, Scale::none(), false);
    REQUIRE(head.output.values == std::vector<float>(3, largest));
    const Matrix tiled = fused(q, k, v, Scale::none(), false);
    REQUIRE(std::all_of(tiled.values.begin(), tiled.values.end(), is_finite));
}

TEST_CASE("a single token with d = 1 attends fully to itself", "[formula][edge]") {
    const Matrix q(1, 1, {0.3f}), k(1, 1, {-2.0f}), v(1, 1, {7.25f});
    const bool causal = GENERATE(false, true);
    CAPTURE(causal);
    const Intermediates head = formula(q, k, v, Scale::inverse_sqrt_d(), causal);
    REQUIRE(head.weights.values == std::vector<float>{1.0f});
    REQUIRE(head.output.values == std::vector<float>{7.25f});
    REQUIRE(fused(q, k, v, Scale::inverse_sqrt_d(), causal).values == std::vector<float>{7.25f});
}

TEST_CASE("dot_products gives the plain triple loop's float32 sums bit for bit, blocked or not",
          "[formula][scores]") {
    // Shapes on both sides of its 4 × 8 register blocks, and edges of every width.
    const auto [n, m, w] = GENERATE(table<int, int, int>({{1, 1, 1},
                                                          {4, 8, 3},
                                                          {5, 9, 7},
                                                          {13, 13, 24},
                                                          {8, 16, 64},
                                                          {11, 37, 33},
                                                          {37, 37, 5},
                                                          {40, 12, 9}}));
    // lower_only: the entries a causal mask keeps (j ≤ i), the others 0.
    const bool lower_only = GENERATE(false, true);
    CAPTURE(n, m, w, lower_only);
    const Matrix a = random_matrix(n, w, 11), b = random_matrix(m, w, 12);
    const Matrix out = dot_products(a, b, lower_only);
    std::vector<float> plain(static_cast<std::size_t>(n) * static_cast<std::size_t>(m));
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < m && (!lower_only || j <= i); ++j) {
            float sum = 0.0f;
            for (int c = 0; c < w; ++c) sum += a.row(i)[c] * b.row(j)[c];
            plain[static_cast<std::size_t>(i * m + j)] = sum;
        }
    REQUIRE(out.values == plain);
}

TEST_CASE("every scale mode multiplies the raw scores by its factor", "[scale]") {
    const int d = 16;
    struct Row {
        Scale scale;
        double factor;
    };
    const Row row =
        GENERATE(Row{Scale::inverse_sqrt_d(), 0.25}, Row{Scale::inverse_d(), 1.0 / 16},
                 Row{Scale::none(), 1.0}, Row{Scale::custom(0.3), 0.3}, Row{Scale::custom(5.0), 5.0});
    CAPTURE(scale_name(row.scale));
    REQUIRE(scale_factor(row.scale, d) == row.factor);
    const Intermediates head =
        formula(random_matrix(5, d, 4), random_matrix(5, d, 5), random_matrix(5, 2, 6), row.scale, false);
    REQUIRE(head.scale == row.factor);
    for (std::size_t e = 0; e < head.raw_scores.values.size(); ++e)
        REQUIRE_THAT(head.scaled_scores.values[e], WithinRel(head.raw_scores.values[e] * row.factor, 1e-6));
}

TEST_CASE("a larger scale sharpens the attention: peak weight grows with the factor", "[scale][property]") {
    const Matrix q = random_matrix(8, 4, 7), k = random_matrix(8, 4, 8), v = random_matrix(8, 4, 9);
    std::vector<double> peaks;  // summed over rows, for factors 0.01, 0.1, 1, 10
    for (double factor : {0.01, 0.1, 1.0, 10.0}) {
        const auto stats = row_statistics(formula(q, k, v, Scale::custom(factor), false).weights);
        peaks.push_back(std::accumulate(stats.peak_weight.begin(), stats.peak_weight.end(), 0.0));
    }
    CAPTURE(peaks);
    REQUIRE(std::adjacent_find(peaks.begin(), peaks.end(), std::greater_equal<double>()) == peaks.end());
}

TEST_CASE("the float32 formula stays within float32 noise of the float64 reference",
          "[reference][property]") {
    const int T = GENERATE(2, 17, 100);
    const int d = GENERATE(4, 64);
    const bool causal = GENERATE(false, true);
    CAPTURE(T, d, causal);
    const Matrix q = random_matrix(T, d, 21), k = random_matrix(T, d, 22), v = random_matrix(T, d, 23);
    const Intermediates head = formula(q, k, v, Scale::inverse_sqrt_d(), causal);
    const ReferenceF64 exact = reference_f64(q, k, v, Scale::inverse_sqrt_d(), causal);
    const double weight_difference = max_abs_difference(head.weights.values, exact.weights);
    const double output_difference = max_abs_difference(head.output.values, exact.output);
    CAPTURE(weight_difference, output_difference);
    REQUIRE(weight_difference < 1e-6);
    REQUIRE(output_difference < 1e-5);
}

TEST_CASE("row statistics: one-hot, uniform and a hand-computed two-key row", "[statistics][hand]") {
    const Matrix weights(3, 4, {1, 0, 0, 0, 0.25f, 0.25f, 0.25f, 0.25f, 0.25f, 0.75f, 0, 0});
    const RowStatistics stats = row_statistics(weights);
    REQUIRE(stats.peak_weight == std::vector<float>{1.0f, 0.25f, 0.75f});
    REQUIRE(stats.entropy_nats[0] == 0.0f);
    REQUIRE(stats.effective_tokens[0] == 1.0f);
    REQUIRE_THAT(stats.entropy_nats[1], WithinAbs(std::log(4.0), 1e-6));
    REQUIRE_THAT(stats.effective_tokens[1], WithinAbs(4.0, 1e-5));
    const double two_key = -(0.25 * std::log(0.25) + 0.75 * std::log(0.75));
    REQUIRE_THAT(stats.entropy_nats[2], WithinAbs(two_key, 1e-6));
    REQUIRE_THAT(stats.effective_tokens[2], WithinAbs(std::exp(two_key), 1e-6));
}

namespace {

// Inputs for the error table: built inside each call, so that the table's rows (which
// GENERATE keeps across the test's runs) hold no references to a run's locals.
Matrix q_ok() {
    return random_matrix(4, 3, 31);
}
Matrix k_ok() {
    return random_matrix(4, 3, 32);
}
Matrix v_ok() {
    return random_matrix(4, 2, 33);
}
Matrix with_entry(Matrix m, int i, int j, float value) {
    m.row(i)[j] = value;
    return m;
}
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInfinity = std::numeric_limits<float>::infinity();

}  // namespace

TEST_CASE("bad input is rejected with a message naming the argument and the limit", "[errors]") {
    using Call = void (*)();
    const auto [what, call, expected] = GENERATE(table<const char*, Call, const char*>({
        {"k of another width", [] { formula(q_ok(), random_matrix(4, 2, 1), v_ok(), Scale::none(), false); },
         "keys and queries must both be (T, d)"},
        {"v of another length", [] { fused(q_ok(), k_ok(), random_matrix(3, 2, 1), Scale::none(), false); },
         "every token needs one value row"},
        {"T = 0", [] { formula(Matrix(0, 3), Matrix(0, 3), Matrix(0, 2), Scale::none(), false); },
         "at least 1 token"},
        {"d = 0", [] { fused(Matrix(4, 0), Matrix(4, 0), v_ok(), Scale::none(), false); },
         "head width d must be at least 1"},
        {"d_v = 0", [] { formula(q_ok(), k_ok(), Matrix(4, 0), Scale::none(), false); },
         "value width must be at least 1"},
        {"zero scale", [] { formula(q_ok(), k_ok(), v_ok(), Scale::custom(0.0), false); }, "greater than 0"},
        {"negative scale", [] { fused(q_ok(), k_ok(), v_ok(), Scale::custom(-1.0), false); },
         "greater than 0"},
        {"NaN scale", [] { formula(q_ok(), k_ok(), v_ok(), Scale::custom(std::nan("")), false); },
         "finite number"},
        {"infinite scale", [] { reference_f64(q_ok(), k_ok(), v_ok(), Scale::custom(HUGE_VAL), false); },
         "finite number"},
        {"a scale past float32's range", [] { formula(q_ok(), k_ok(), v_ok(), Scale::custom(1e39), false); },
         "scale factor 1e+39 must be a finite number greater than 0, from 1e-30 to 1e30"},
        {"a scale that rounds to 0 in float32",
         [] { fused(q_ok(), k_ok(), v_ok(), Scale::custom(1e-46), false); }, "from 1e-30 to 1e30"},
        {"NaN in q", [] { formula(with_entry(q_ok(), 1, 2, kNaN), k_ok(), v_ok(), Scale::none(), false); },
         "q[1][2] is NaN"},
        {"inf in k",
         [] { fused(q_ok(), with_entry(k_ok(), 3, 0, -kInfinity), v_ok(), Scale::none(), false); },
         "k[3][0] is infinite"},
        {"NaN in v",
         [] { reference_f64(q_ok(), k_ok(), with_entry(v_ok(), 0, 1, kNaN), Scale::none(), false); },
         "v[0][1] is NaN"},
        {"NaN in k, weights only",
         [] { attention_weights(q_ok(), with_entry(k_ok(), 2, 1, kNaN), Scale::none(), false); },
         "k[2][1] is NaN"},
        {"scores that would overflow",
         [] {
             formula(Matrix(2, 1, {1e20f, 1}), Matrix(2, 1, {1e20f, 1}), Matrix(2, 1), Scale::none(), false);
         },
         "would overflow float32"},
        {"T over the formula's budget",
         [] { formula(Matrix(4097, 1), Matrix(4097, 1), Matrix(4097, 1), Scale::none(), false); },
         "the limit is T = 4096"},
        {"T over the budget, weights only",
         [] { attention_weights(Matrix(4097, 1), Matrix(4097, 1), Scale::none(), false); },
         "the limit is T = 4096"},
        {"key tile of 0", [] { fused(q_ok(), k_ok(), v_ok(), Scale::none(), false, 0); },
         "key_tile = 0 must be at least 1"},
        {"too few values for a shape",
         [] {
             Matrix(2, 2, {1, 2, 3});
         },
         "needs 4 values, got 3"},
        {"a cell's score at width 0", [] { score_of(q_ok().row(0), k_ok().row(0), 0, 1.0); },
         "from 1 to 4096"},
        {"NaN in a cell's query row",
         [] { score_of(with_entry(q_ok(), 0, 1, kNaN).row(0), k_ok().row(0), q_ok().cols, 1.0); },
         "q row[0][1] is NaN"},
        {"negative shape", [] { Matrix(-1, 2); }, "is negative"},
        {"a matrix over the element limit", [] { Matrix(1 << 14, 1 << 13); }, "the limit is 67108864"},
    }));
    const std::string message = invalid_argument_message(call);
    CAPTURE(what, message);
    REQUIRE(contains(message, expected));
}
