// Tests of the corpus (cpp/learning/corpus.cpp): the vocabulary, the seeded sampler of
// consecutive windows, and the loss both models learn from.
#include "catch.hpp"
#include "test_support.hpp"

#include "learning/corpus.hpp"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <string>
#include <vector>

using namespace attention;
using test_support::contains;
using test_support::invalid_argument_message;

TEST_CASE("the vocabulary is the sorted distinct characters and encodes text to their indices", "[corpus]") {
    const Vocabulary vocabulary("banana é!");
    REQUIRE(vocabulary.characters() == std::vector<std::string>{" ", "!", "a", "b", "n", "é"});
    REQUIRE(vocabulary.encode("nab é") == std::vector<int>{4, 2, 3, 0, 5});
    REQUIRE(vocabulary.contains("é"));
    REQUIRE_FALSE(vocabulary.contains("z"));
    REQUIRE(invalid_argument_message([&] { vocabulary.encode("bad"); }) ==
            "character 2 (\"d\") is not in the model's vocabulary of 6 characters");
    REQUIRE(contains(invalid_argument_message([] { Vocabulary("aaaa"); }), "1 distinct characters"));
    REQUIRE(Vocabulary(vocabulary.characters()).encode("banana") == vocabulary.encode("banana"));
    REQUIRE(contains(invalid_argument_message([] {
                         Vocabulary(std::vector<std::string>{"b", "a"});
                     }),
                     "distinct and sorted"));
}

TEST_CASE("the sampler cuts consecutive windows and reaches every start equally often", "[corpus][sampler]") {
    std::vector<int> tokens(10);
    for (int i = 0; i < 10; ++i) tokens[static_cast<std::size_t>(i)] = i;
    BatchSampler sampler(tokens, 4, 3, 7);
    std::map<int, int> starts;
    for (int draw = 0; draw < 1750; ++draw) {
        const Batch batch = sampler.next();
        REQUIRE(batch.tokens.size() == 16u);
        for (int b = 0; b < 4; ++b) {
            const int start = batch.tokens[static_cast<std::size_t>(b * 4)];
            for (int t = 1; t < 4; ++t)
                REQUIRE(batch.tokens[static_cast<std::size_t>(b * 4 + t)] == start + t);
            ++starts[start];
        }
    }
    // 7000 windows over the 7 possible starts 0…6: 1000 each expected, σ ≈ 29.
    REQUIRE(starts.size() == 7u);
    for (const auto& [start, seen] : starts) {
        CAPTURE(start, seen);
        REQUIRE(std::abs(seen - 1000) < 150);
    }
}

TEST_CASE("a batch is checked against a model's context and vocabulary", "[corpus][batch]") {
    const Batch fits{2, 3, {0, 1, 2, 3, 4, 4, 3, 2}};  // 2 windows of 3 + 1 ids, in 0…4
    REQUIRE_NOTHROW(check_batch(fits, 3, 5));
    REQUIRE_NOTHROW(check_batch(fits, 8, 5));  // a shorter window than the context
    REQUIRE_THROWS_WITH(check_batch(fits, 2, 5), "batch windows of 3 tokens; the model's context is 1…2");
    REQUIRE_THROWS_WITH(check_batch(fits, 3, 4), "token id 4 is outside the vocabulary 0…3");
    const Batch short_one{2, 3, {0, 1, 2, 3, 4, 4, 3}};
    REQUIRE_THROWS_WITH(check_batch(short_one, 3, 5), "batch has 7 tokens; 2 windows of 4 need 8");
    REQUIRE_THROWS_WITH(check_batch(Batch{0, 3, {}}, 3, 5), "batch has 0 tokens; 0 windows of 4 need 0");
}

TEST_CASE("a text file is read whole, as bytes, and a missing one is named", "[corpus][file]") {
    const std::string path = std::string(DATA_DIR) + "/tinyshakespeare.txt";
    const std::string text = read_text_file(path);
    // The corpus's first line, and its size in bytes as the file system reports it.
    REQUIRE(text.rfind("First Citizen:\n", 0) == 0);
    REQUIRE(text.size() ==
            static_cast<std::size_t>(std::ifstream(path, std::ios::binary | std::ios::ate).tellg()));
    REQUIRE(invalid_argument_message([] { read_text_file("no/such/file.txt"); }) ==
            "cannot open no/such/file.txt");
}

// The loss, against values worked by hand: which token a row reads and guesses, −log softmax of
// the target, its gradient.
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
