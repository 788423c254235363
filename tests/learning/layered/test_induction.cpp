// Tests of the copying measurements on heads built by hand: positions as one-hot vectors, token
// embeddings and the output weights zero, and a query matrix that sends position i to the key of
// position i − s with a score of 30, so each row puts 1 − O(e⁻³⁰) of its weight exactly s back.
// What the scores must be follows from that construction, not from the code under test.
#include "catch.hpp"
#include "test_support.hpp"

#include "learning/layered/induction.hpp"

#include <cmath>
#include <vector>

using namespace attention;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
using test_support::contains;
using test_support::invalid_argument_message;

namespace {

constexpr int kVocabulary = 5, kContext = 8, kWidth = 8;

// Layer l (0-based) looks `shifts[l]` positions back; U = 0, so every logit is 0.
std::vector<float> shifted_heads(const LayeredConfig& config, const std::vector<int>& shifts) {
    const ParameterLayout layout = parameter_layout(config);
    std::vector<float> p(layout.total, 0.0f);
    for (int t = 0; t < kContext; ++t) p[layout.position + static_cast<std::size_t>(t * kWidth + t)] = 1.0f;
    for (std::size_t l = 0; l < shifts.size(); ++l) {
        const LayerSlots& slots = layout.layers[l];
        for (int i = shifts[l]; i < kContext; ++i)
            p[slots.query + static_cast<std::size_t>(i * kWidth + i - shifts[l])] = 30.0f;
        for (int c = 0; c < kWidth; ++c) p[slots.key + static_cast<std::size_t>(c * kWidth + c)] = 1.0f;
    }
    return p;
}

LayeredConfig config_with(int layers) {
    return {kVocabulary, kContext, kWidth, layers, false, Scale::none()};
}

}  // namespace

TEST_CASE("a head two back on passages of three scores as a copying head", "[induction]") {
    const LayeredConfig config = config_with(2);
    // Layer 1 looks one back (a previous-token head), layer 2 two back: for P = 3, i − P + 1.
    const CopyMeasure measure =
        measure_copying(config, shifted_heads(config, {1, 2}), {{0, 1, 2}, {3, 3, 4}});
    REQUIRE(measure.rows == 4);  // rows 4 and 5 of each window
    REQUIRE_THAT(measure.layers[0].previous, WithinAbs(1.0, 1e-9));
    REQUIRE_THAT(measure.layers[0].induction, WithinAbs(0.0, 1e-9));
    REQUIRE_THAT(measure.layers[0].induction_share, WithinAbs(0.0, 1e-12));
    REQUIRE_THAT(measure.layers[0].previous_share, WithinAbs(1.0, 1e-12));
    REQUIRE_THAT(measure.layers[1].induction, WithinAbs(1.0, 1e-9));
    REQUIRE_THAT(measure.layers[1].previous, WithinAbs(0.0, 1e-9));
    REQUIRE_THAT(measure.layers[1].induction_share, WithinAbs(1.0, 1e-12));
    REQUIRE_THAT(measure.layers[1].previous_share, WithinAbs(0.0, 1e-12));
    // Every logit is 0: each next character costs log V, in either copy.
    REQUIRE_THAT(measure.first_copy_loss, WithinRel(std::log(5.0), 1e-6));
    REQUIRE_THAT(measure.second_copy_loss, WithinRel(std::log(5.0), 1e-6));
}

TEST_CASE("passages of several lengths are measured each against its own copy", "[induction]") {
    const LayeredConfig config = config_with(1);
    // A head two back is on the copy for P = 3 (2 rows) and not for P = 4 (3 rows, copy 3 back).
    const CopyMeasure measure =
        measure_copying(config, shifted_heads(config, {2}), {{0, 1, 2}, {1, 2, 3, 4}});
    REQUIRE(measure.rows == 5);
    REQUIRE_THAT(measure.layers[0].induction, WithinAbs(2.0 / 5.0, 1e-9));
    REQUIRE_THAT(measure.layers[0].induction_share, WithinAbs(2.0 / 5.0, 1e-12));
}

TEST_CASE("copying is measured only on passages whose two copies fit", "[induction][errors]") {
    const LayeredConfig config = config_with(1);
    const std::vector<float> p = shifted_heads(config, {1});
    REQUIRE(contains(invalid_argument_message([&] {
                         measure_copying(config, p, {{0, 1, 2, 3, 4}});
                     }),
                     "a passage of 5 tokens; twice it must fit the context of 8"));
    REQUIRE(contains(invalid_argument_message([&] { measure_copying(config, p, {}); }), "no passages"));
}

namespace {

// A (T, T) causal map whose row i puts half its weight on peaks[i] and spreads the rest evenly.
Matrix peaked(const std::vector<int>& peaks) {
    const int T = static_cast<int>(peaks.size());
    Matrix m(T, T);
    for (int i = 0; i < T; ++i) {
        for (int j = 0; j <= i; ++j) m.at(i, j) = 0.5f / static_cast<float>(i + 1);
        m.at(i, peaks[static_cast<std::size_t>(i)]) += 0.5f;
    }
    return m;
}

}  // namespace

TEST_CASE("a row points into an earlier copy when its peak follows its own character", "[induction]") {
    //                         a  b  a  b  c  a
    const std::vector<int> tokens{0, 1, 0, 1, 2, 0};
    // Row 2 (a) peaks on 1 (after the a at 0): yes. Row 3 (b) on 2 (after the b at 1): yes.
    // Row 4 (c) on 3: c never occurred, no. Row 5 (a) on 4 (after b): no.
    const std::vector<bool> into = points_into_earlier_copy(peaked({0, 0, 1, 2, 3, 4}), tokens);
    REQUIRE(into == std::vector<bool>{false, false, true, true, false, false});
}

TEST_CASE("spaced passages start evenly and cycle through their lengths", "[induction]") {
    std::vector<int> tokens(100);
    for (int t = 0; t < 100; ++t) tokens[static_cast<std::size_t>(t)] = t;
    const auto passages = spaced_passages(tokens, 4, 3, 4);
    REQUIRE(passages.size() == 4);
    // Lengths 3, 4, 3, 4 at starts (100 − length)·k / 4: 0, 24, 48, 72.
    REQUIRE(passages[0] == std::vector<int>{0, 1, 2});
    REQUIRE(passages[1] == std::vector<int>{24, 25, 26, 27});
    REQUIRE(passages[2] == std::vector<int>{48, 49, 50});
    REQUIRE(passages[3] == std::vector<int>{72, 73, 74, 75});
    REQUIRE(contains(invalid_argument_message([&] { spaced_passages(tokens, 4, 5, 4); }), "in order"));
    REQUIRE(contains(invalid_argument_message([&] { spaced_passages(tokens, 4, 5, 101); }), "fit the text"));
}

TEST_CASE("natural copying counts the rows whose last-layer peak follows their own character",
          "[induction]") {
    const LayeredConfig config = config_with(2);
    // Tokens 0 1 0 1 2 0 1 2: rows 2, 3, 5, 6, 7 have occurred before. A last layer s back peaks
    // on i − s, which follows an earlier occurrence when token i − s − 1 is token i:
    //   s = 1: rows 2 (t0 = 0) and 3 (t1 = 1) of the five;
    //   s = 2: rows 5 (t2 = 0), 6 (t3 = 1) and 7 (t4 = 2); row 2's peak is key 0, with nothing before.
    const Batch windows{1, kContext, {0, 1, 0, 1, 2, 0, 1, 2, 0}};
    const auto [shift, into] = GENERATE(table<int, long>({{1, 2}, {2, 3}}));
    CAPTURE(shift);
    const NaturalCopying counted = natural_copying(config, shifted_heads(config, {1, shift}), windows);
    REQUIRE(counted.rows == 5);
    REQUIRE(counted.into_copy == into);
}
