// Tests of the attention head's backward pass: PyTorch autograd's gradients (float32 and
// float64, written by tests/fixtures/make_learning_fixtures.py), central finite differences
// of a float64 forward written here, a hand-computed case, and bad input.
#include "catch.hpp"
#include "test_support.hpp"

#include "attention/formula.hpp"
#include "learning/backward.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <limits>

using namespace attention;
using Catch::Matchers::WithinAbs;
using test_support::invalid_argument_message;
using test_support::random_matrix;

namespace {

const nlohmann::json& backward_cases() {
    static const nlohmann::json cases = [] {
        std::ifstream file(std::string(FIXTURE_DIR) + "/attention_backward.json");
        REQUIRE(file.good());
        return nlohmann::json::parse(file).at("cases");
    }();
    return cases;
}

Matrix matrix_of(const nlohmann::json& values, int rows, int cols) {
    return Matrix(rows, cols, values.get<std::vector<float>>());
}

Scale scale_of(const std::string& mode, double factor) {
    if (mode == "sqrt") return Scale::inverse_sqrt_d();
    if (mode == "d") return Scale::inverse_d();
    if (mode == "none") return Scale::none();
    return Scale::custom(factor);
}

double largest_magnitude(const std::vector<double>& values) {
    double largest = 0;
    for (double x : values) largest = std::max(largest, std::fabs(x));
    return largest;
}

// max |mine - reference| / max |reference|: one number per gradient that does not blow up
// where the reference is near 0 (a saturated head's gradients mostly are).
template <typename Values>
double relative_difference(const Values& mine, const std::vector<double>& reference) {
    return test_support::max_abs_difference(mine, reference) / std::max(largest_magnitude(reference), 1e-30);
}

// Σ dO ∘ softmax(q·kᵀ·scale)·v in double, written independently of the core: the scalar
// whose gradient the backward pass returns.
double weighted_output_sum(const std::vector<double>& q, const std::vector<double>& k,
                           const std::vector<double>& v, const std::vector<double>& d_output, int T, int d,
                           int d_v, double scale, bool causal) {
    double total = 0;
    for (int i = 0; i < T; ++i) {
        const int visible = causal ? i + 1 : T;
        std::vector<double> weights(static_cast<std::size_t>(visible));
        double largest = -std::numeric_limits<double>::infinity();
        for (int j = 0; j < visible; ++j) {
            double dot = 0;
            for (int c = 0; c < d; ++c)
                dot += q[static_cast<std::size_t>(i * d + c)] * k[static_cast<std::size_t>(j * d + c)];
            weights[static_cast<std::size_t>(j)] = dot * scale;
            largest = std::max(largest, dot * scale);
        }
        double sum = 0;
        for (double& w : weights) sum += (w = std::exp(w - largest));
        for (int j = 0; j < visible; ++j)
            for (int c = 0; c < d_v; ++c)
                total += weights[static_cast<std::size_t>(j)] / sum *
                         v[static_cast<std::size_t>(j * d_v + c)] *
                         d_output[static_cast<std::size_t>(i * d_v + c)];
    }
    return total;
}

}  // namespace

TEST_CASE("backward matches PyTorch autograd for every fixture case", "[backward][torch]") {
    const std::size_t count = backward_cases().size();
    REQUIRE(count == 15);
    const std::size_t n = GENERATE_COPY(range(std::size_t{0}, count));
    const nlohmann::json& c = backward_cases()[n];
    const int T = c.at("T"), d = c.at("d"), d_v = c.at("dV");
    const bool causal = c.at("causal");
    const std::string mode = c.at("scale");
    CAPTURE(n, T, d, d_v, mode, causal);
    const Matrix q = matrix_of(c.at("q"), T, d), k = matrix_of(c.at("k"), T, d),
                 v = matrix_of(c.at("v"), T, d_v);
    const Matrix d_output = matrix_of(c.at("gradOutput"), T, d_v);
    const Scale scale = scale_of(mode, c.at("factor"));

    const AttentionGradients mine = backward(q, k, v, scale, causal, d_output);
    const AttentionGradientsF64 mine64 = backward_f64(q, k, v, scale, causal, d_output);
    const auto torch64 = [&](const char* key) { return c.at(key).get<std::vector<double>>(); };
    const double dq32 = relative_difference(mine.dq.values, torch64("dq64"));
    const double dk32 = relative_difference(mine.dk.values, torch64("dk64"));
    const double dv32 = relative_difference(mine.dv.values, torch64("dv64"));
    const double dq64 = relative_difference(mine64.dq, torch64("dq64"));
    const double dk64 = relative_difference(mine64.dk, torch64("dk64"));
    const double dv64 = relative_difference(mine64.dv, torch64("dv64"));
    // torch's own float32 gradients, against its float64 ones: the rounding float32 allows.
    const double torch32 = std::max({relative_difference(torch64("dq"), torch64("dq64")),
                                     relative_difference(torch64("dk"), torch64("dk64")),
                                     relative_difference(torch64("dv"), torch64("dv64"))});
    CAPTURE(dq32, dk32, dv32, dq64, dk64, dv64, torch32);
    REQUIRE(std::max({dq32, dk32, dv32}) < 1e-5);
    REQUIRE(std::max({dq64, dk64, dv64}) < 1e-12);
}

TEST_CASE("float64 backward agrees with central finite differences", "[backward][finite-differences]") {
    auto [T, d, d_v, mode, causal] = GENERATE(table<int, int, int, const char*, bool>({
        {1, 2, 1, "sqrt", false},
        {4, 3, 5, "none", true},
        {6, 7, 2, "d", false},
        {9, 4, 4, "sqrt", true},
        {5, 16, 3, "none", false},
        {8, 5, 6, "custom", true},
    }));
    CAPTURE(T, d, d_v, mode, causal);
    const Matrix q = random_matrix(T, d, 11), k = random_matrix(T, d, 12), v = random_matrix(T, d_v, 13);
    const Matrix d_output = random_matrix(T, d_v, 14);
    const Scale scale = scale_of(mode, 0.7);
    const double factor = scale_factor(scale, d);
    const AttentionGradientsF64 analytic = backward_f64(q, k, v, scale, causal, d_output);

    const auto widen = [](const Matrix& m) { return std::vector<double>(m.values.begin(), m.values.end()); };
    std::vector<double> inputs[3] = {widen(q), widen(k), widen(v)};
    const std::vector<double> upstream = widen(d_output);
    const std::vector<double>* gradients[3] = {&analytic.dq, &analytic.dk, &analytic.dv};
    const double step = 1e-5;
    double worst = 0;
    for (int which = 0; which < 3; ++which) {
        for (std::size_t e = 0; e < inputs[which].size(); ++e) {
            const double original = inputs[which][e];
            inputs[which][e] = original + step;
            const double above =
                weighted_output_sum(inputs[0], inputs[1], inputs[2], upstream, T, d, d_v, factor, causal);
            inputs[which][e] = original - step;
            const double below =
                weighted_output_sum(inputs[0], inputs[1], inputs[2], upstream, T, d, d_v, factor, causal);
            inputs[which][e] = original;
            const double numeric = (above - below) / (2 * step);
            worst = std::max(worst, std::fabs(numeric - (*gradients[which])[e]) / (1 + std::fabs(numeric)));
        }
    }
    CAPTURE(worst);
    REQUIRE(worst < 1e-8);
}

TEST_CASE("a 2x2 unscaled head's gradients match the hand computation", "[backward][hand]") {
    // q = k = I, no mask: W = [[a, b], [b, a]] with a = e/(e+1), b = 1/(e+1). With V = I and
    // dO = [[1, 0], [0, 0]], dV = Wᵀ·dO = [[a, 0], [b, 0]] and dW row 0 = [1, 0], so dS row 0
    // = W ∘ (dW − a) = [a(1−a), −ab] = [ab, −ab]; dQ row 0 = dS·K = [ab, −ab], dK = dSᵀ·Q.
    const Matrix identity(2, 2, {1, 0, 0, 1});
    const Matrix d_output(2, 2, {1, 0, 0, 0});
    const AttentionGradients g = backward(identity, identity, identity, Scale::none(), false, d_output);
    const double e = std::exp(1.0), a = e / (e + 1), b = 1 / (e + 1);
    REQUIRE_THAT(g.dv.at(0, 0), WithinAbs(a, 1e-7));
    REQUIRE_THAT(g.dv.at(1, 0), WithinAbs(b, 1e-7));
    REQUIRE(g.dv.at(0, 1) == 0.0f);
    REQUIRE_THAT(g.dq.at(0, 0), WithinAbs(a * b, 1e-7));
    REQUIRE_THAT(g.dq.at(0, 1), WithinAbs(-a * b, 1e-7));
    REQUIRE(g.dq.at(1, 0) == 0.0f);
    REQUIRE_THAT(g.dk.at(0, 0), WithinAbs(a * b, 1e-7));
    REQUIRE_THAT(g.dk.at(1, 0), WithinAbs(-a * b, 1e-7));
}

TEST_CASE("a causal head sends no gradient to keys its first query cannot see", "[backward][mask]") {
    // Only query 0 has an upstream gradient, and it sees only key 0.
    Matrix d_output(5, 3);
    d_output.at(0, 1) = 1.0f;
    const AttentionGradients g = backward(random_matrix(5, 4, 1), random_matrix(5, 4, 2),
                                          random_matrix(5, 3, 3), Scale::inverse_sqrt_d(), true, d_output);
    for (int j = 1; j < 5; ++j)
        for (int c = 0; c < 4; ++c) {
            CAPTURE(j, c);
            REQUIRE(g.dk.at(j, c) == 0.0f);
            REQUIRE(g.dv.at(j, c % 3) == 0.0f);
        }
    // Row 0's single weight is exactly 1, and a softmax of one entry has no gradient.
    for (int c = 0; c < 4; ++c) REQUIRE(g.dq.at(0, c) == 0.0f);
}

TEST_CASE("backward rejects bad input with the forward pass's messages", "[backward][errors]") {
    const Matrix q = random_matrix(3, 2, 1), k = random_matrix(3, 2, 2), v = random_matrix(3, 4, 3);
    Matrix nan_q = q;
    nan_q.at(1, 1) = std::numeric_limits<float>::quiet_NaN();
    const auto row = GENERATE_COPY(table<const char*, Matrix, Matrix, Matrix, Scale>({
        {"k of another shape", q, random_matrix(3, 3, 5), v, Scale::inverse_sqrt_d()},
        {"NaN in q", nan_q, k, v, Scale::inverse_sqrt_d()},
        {"scale factor 0", q, k, v, Scale::custom(0.0)},
        {"no tokens", Matrix(0, 2), Matrix(0, 2), Matrix(0, 4), Scale::none()},
    }));
    // Named copies, not structured bindings: lambdas may not capture those before C++20.
    const char* name = std::get<0>(row);
    const Matrix &bad_q = std::get<1>(row), &bad_k = std::get<2>(row), &bad_v = std::get<3>(row);
    const Scale scale = std::get<4>(row);
    CAPTURE(name);
    const Matrix d_output(bad_v.rows, bad_v.cols);  // well-formed: only the forward's inputs are bad
    const std::string forward_message =
        invalid_argument_message([&] { formula(bad_q, bad_k, bad_v, scale, true); });
    REQUIRE_FALSE(forward_message.empty());
    REQUIRE(invalid_argument_message([&] { backward(bad_q, bad_k, bad_v, scale, true, d_output); }) ==
            forward_message);
    REQUIRE(invalid_argument_message([&] { backward_f64(bad_q, bad_k, bad_v, scale, true, d_output); }) ==
            forward_message);
}

TEST_CASE("backward names gradOutput when it has the wrong shape or a non-finite value",
          "[backward][errors]") {
    const Matrix q = random_matrix(3, 2, 1), k = random_matrix(3, 2, 2), v = random_matrix(3, 4, 3);
    Matrix infinite(3, 4);
    infinite.at(2, 3) = std::numeric_limits<float>::infinity();
    const auto row = GENERATE_COPY(table<Matrix, std::string>({
        {Matrix(3, 3), "gradOutput has shape (3, 3); it must be (3, 4), the shape of the output"},
        {Matrix(2, 4), "gradOutput has shape (2, 4); it must be (3, 4), the shape of the output"},
        {infinite, "gradOutput[2][3] is infinite; attention needs finite inputs"},
    }));
    const Matrix& upstream = std::get<0>(row);
    const std::string& expected = std::get<1>(row);
    CAPTURE(expected);
    REQUIRE(invalid_argument_message([&] { backward(q, k, v, Scale::none(), false, upstream); }) == expected);
    REQUIRE(invalid_argument_message([&] { backward_f64(q, k, v, Scale::none(), false, upstream); }) ==
            expected);
}
