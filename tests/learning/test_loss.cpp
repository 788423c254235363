// Tests of the loss both models learn from (cpp/learning/loss.cpp), against values worked by
// hand: which token a row reads and guesses, −log softmax of the target, its gradient.
#include "catch.hpp"
#include "test_support.hpp"

#include "learning/loss.hpp"

#include <cmath>
#include <limits>
#include <vector>

using namespace attention;
using test_support::contains;
using test_support::invalid_argument_message;

namespace {

// Two windows of three tokens, each with the one after it: "abcd" and "dcba" as ids 0–3.
Batch two_windows() {
    return Batch{2, 3, {0, 1, 2, 3, 3, 2, 1, 0}};
}

}  // namespace

TEST_CASE("row n of a batch reads token n of its window and guesses the next", "[loss]") {
    const Batch batch = two_windows();
    REQUIRE(std::vector<int>{input_token(batch, 0), input_token(batch, 2), input_token(batch, 3)} ==
            std::vector<int>{0, 2, 3});
    REQUIRE(std::vector<int>{target_token(batch, 0), target_token(batch, 2), target_token(batch, 5)} ==
            std::vector<int>{1, 3, 0});
}

TEST_CASE("the loss of a row is −log of its target's softmax, worked by hand", "[loss]") {
    // Logits (0, ln 3): softmax (1/4, 3/4). Guessing the second costs −ln(3/4), the first ln 4.
    std::vector<float> row{0.0f, static_cast<float>(std::log(3.0))};
    REQUIRE(row_loss(row.data(), 2, 1) == Approx(-std::log(0.75)).epsilon(1e-7));
    REQUIRE(row[0] == Approx(0.25f));
    REQUIRE(row[1] == Approx(0.75f));
    // Equal logits, however large: softmax 1/V, loss ln V (the max keeps exp finite).
    std::vector<float> large{1000.0f, 1000.0f, 1000.0f, 1000.0f};
    REQUIRE(row_loss(large.data(), 4, 2) == Approx(std::log(4.0)).epsilon(1e-12));
    REQUIRE(large[3] == 0.25f);
}

TEST_CASE("the mean loss and its gradient (softmax − one-hot) / rows", "[loss]") {
    Batch batch{1, 2, {0, 1, 0}};  // row 0 guesses 1, row 1 guesses 0
    Matrix logits(2, 2);
    logits.values = {0.0f, static_cast<float>(std::log(3.0)), 0.0f, 0.0f};
    // (−ln 3/4 + ln 2) / 2
    REQUIRE(cross_entropy(logits, batch) == Approx((-std::log(0.75) + std::log(2.0)) / 2).epsilon(1e-7));
    to_loss_gradient(logits, batch);
    const std::vector<float> expected{0.125f, (0.75f - 1.0f) / 2, (0.5f - 1.0f) / 2, 0.25f};
    for (std::size_t e = 0; e < expected.size(); ++e) REQUIRE(logits.values[e] == Approx(expected[e]));
}

TEST_CASE("a loss that is not finite says the run diverged", "[loss]") {
    Batch batch{1, 1, {0, 1}};
    Matrix logits(1, 2);
    logits.values = {std::numeric_limits<float>::quiet_NaN(), 0.0f};
    REQUIRE(contains(invalid_argument_message([&] { cross_entropy(logits, batch); }), "diverged"));
}
