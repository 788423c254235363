// Tests of seeded sampling from the character model (cpp/trained/sample.hpp): the pick from a
// probability vector on hand-worked cumulative sums, and whole samples from models built by
// hand whose next character is known (a cycle a → b → c → a) or uniform.
#include "catch.hpp"
#include "test_support.hpp"

#include "trained/sample.hpp"

#include <array>
#include <cmath>
#include <vector>

using namespace attention;
using test_support::contains;
using test_support::invalid_argument_message;

namespace {

// V = 3, d = 4, context = 4, every weight 0 but E[i][i] = 1 and U[i][(i + 1) mod 3] = 50: q, k
// and v are 0, so h = x = E[t] and the logits after token t are 50 for t + 1 and 0 for the
// others, a probability of 1 / (1 + 2e⁻⁵⁰) for the next character of the cycle.
ModelConfig cycle_config(bool head = true) {
    ModelConfig config{3, 4, 4, Scale::inverse_sqrt_d()};
    config.head = head;
    return config;
}

Parameters cycle_parameters(bool head = true) {
    Parameters p = zero_parameters(cycle_config(head));
    for (int i = 0; i < 3; ++i) {
        p.embedding.values[static_cast<std::size_t>(i * 4 + i)] = 1.0f;
        p.unembedding.values[static_cast<std::size_t>(i * 3 + (i + 1) % 3)] = 50.0f;
    }
    return p;
}

}  // namespace

TEST_CASE("pick_token returns the first index whose running sum passes the draw", "[sample][hand]") {
    // Running sums of (0.2, 0.5, 0.3): 0.2, 0.7, 1.0.
    const std::array<float, 3> p{0.2f, 0.5f, 0.3f};
    auto [uniform, expected] = GENERATE(table<double, int>({
        {0.0, 0},
        {0.19, 0},
        {0.21, 1},
        {0.69, 1},
        {0.71, 2},
        {0.999, 2},
    }));
    CAPTURE(uniform);
    REQUIRE(pick_token(p.data(), 3, uniform) == expected);
}

TEST_CASE("pick_token never picks a character of probability 0", "[sample][hand]") {
    const std::array<float, 4> p{0.0f, 0.5f, 0.5f, 0.0f};
    REQUIRE(pick_token(p.data(), 4, 0.0) == 1);
    // A draw at or past the rounded total falls to the last possible index, not index 3.
    REQUIRE(pick_token(p.data(), 4, 1.0) == 2);
    const std::array<float, 2> zeros{0.0f, 0.0f};
    REQUIRE(contains(invalid_argument_message([&] { pick_token(zeros.data(), 2, 0.5); }),
                     "every probability is 0"));
}

TEST_CASE("a model whose next character is certain writes its cycle, past its context", "[sample][hand]") {
    auto [prompt, expected] = GENERATE(table<std::vector<int>, std::vector<int>>({
        {{0}, {1, 2, 0, 1, 2, 0, 1}},
        {{2}, {0, 1, 2, 0, 1, 2, 0}},
        {{0, 1, 2, 0, 1, 2}, {0, 1, 2, 0, 1, 2, 0}},  // longer than the context of 4
    }));
    CAPTURE(prompt);
    REQUIRE(sample_tokens(cycle_config(), cycle_parameters(), prompt, 7, 3) == expected);
}

TEST_CASE("a model with uniform probabilities writes each character about a third of the time", "[sample]") {
    const ModelConfig config = cycle_config();
    const Parameters zeros = zero_parameters(config);  // every logit 0: 1/3 each
    const std::vector<int> written = sample_tokens(config, zeros, {0}, 3000, 11);
    std::array<int, 3> counts{};
    for (int id : written) counts[static_cast<std::size_t>(id)] += 1;
    for (int count : counts) {
        CAPTURE(count);
        REQUIRE(std::abs(count - 1000) < 90);  // about 3.5 standard deviations (√(3000·2/9) ≈ 26)
    }
    // The same seed draws the same text; another seed another.
    REQUIRE(sample_tokens(config, zeros, {0}, 40, 11) ==
            std::vector<int>(written.begin(), written.begin() + 40));
    REQUIRE(sample_tokens(config, zeros, {0}, 40, 12) !=
            std::vector<int>(written.begin(), written.begin() + 40));
}

TEST_CASE("sampling refuses an empty prompt, a token outside the vocabulary and a negative length",
          "[sample]") {
    const ModelConfig config = cycle_config();
    const Parameters p = cycle_parameters();
    REQUIRE(
        contains(invalid_argument_message([&] { sample_tokens(config, p, {}, 5, 0); }), "prompt is empty"));
    REQUIRE(contains(invalid_argument_message([&] { sample_tokens(config, p, {7}, 5, 0); }),
                     "outside the vocabulary"));
    REQUIRE(contains(invalid_argument_message([&] { sample_tokens(config, p, {0}, -1, 0); }), "below 0"));
    REQUIRE(sample_tokens(config, p, {0}, 0, 0).empty());
}

TEST_CASE("a model with no head writes through the same forward pass", "[sample][hand]") {
    // h = x = E[t] without the head: the same cycle.
    REQUIRE(sample_tokens(cycle_config(false), cycle_parameters(false), {1}, 4, 0) ==
            std::vector<int>{2, 0, 1, 2});
}
