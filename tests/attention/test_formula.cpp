// Tests of the formula (cpp/attention/formula.cpp): hand-computed small cases first, then
// properties over random inputs, softmax at the extremes, and the blocked dot products.
#include "catch.hpp"
#include "test_support.hpp"

#include "attention/formula.hpp"
#include "attention/kernel/fused.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

using namespace attention;
using Catch::Matchers::WithinAbs;
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
    std::vector<float> plain(Matrix::element_count(n, m));
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < m && (!lower_only || j <= i); ++j) {
            float sum = 0.0f;
            for (int c = 0; c < w; ++c) sum += a.row(i)[c] * b.row(j)[c];
            plain[Matrix::index(i, j, m)] = sum;
        }
    REQUIRE(out.values == plain);
}
