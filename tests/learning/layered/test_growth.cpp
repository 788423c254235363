// Tests of the growth run: the held-out windows cover the tail evenly, a step trains on what the
// snippet sampler draws (the loss it returns is the forward's on that batch at the parameters
// before the step), a short run lowers the loss, and bad options are refused.
#include "catch.hpp"
#include "test_support.hpp"

#include "learning/layered/growth.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

using namespace attention;
using test_support::contains;
using test_support::invalid_argument_message;

namespace {

const std::string kText =
    "To be, or not to be, that is the question: Whether 'tis nobler in the mind to suffer the slings and "
    "arrows of outrageous fortune, or to take arms against a sea of troubles and by opposing end them. To "
    "die, to sleep, no more; and by a sleep to say we end the heart-ache and the thousand natural shocks "
    "that "
    "flesh is heir to: 'tis a consummation devoutly to be wish'd. To die, to sleep; to sleep, perchance to "
    "dream. Ay, there's the rub: for in that sleep of death what dreams may come, when we have shuffled off "
    "this mortal coil, must give us pause.";

GrowthOptions small_options() {
    GrowthOptions options;
    options.model = LayeredConfig{0, 16, 8, 2, true, Scale::inverse_sqrt_d()};
    options.batches = SnippetOptions{4, 16, 2, 4, 8};
    options.optimizer.learning_rate = 1e-2;
    options.seed = 3;
    options.held_out_windows = 2;
    options.probe_strings = 4;
    options.probe_period = 8;
    return options;
}

}  // namespace

TEST_CASE("held-out windows start evenly from the first token to the last full window", "[growth]") {
    std::vector<int> tokens(101);
    std::iota(tokens.begin(), tokens.end(), 0);
    const Batch windows = spaced_windows(tokens, 5, 10);
    REQUIRE(windows.batch == 5);
    std::vector<int> starts;
    for (int b = 0; b < 5; ++b) starts.push_back(windows.tokens[static_cast<std::size_t>(b * 11)]);
    REQUIRE(starts == std::vector<int>{0, 22, 45, 67, 90});  // linspace(0, 90, 5) rounded down
    REQUIRE(windows.tokens.back() == 100);
}

TEST_CASE("a growth step trains on the sampler's batch and reports its loss before the update", "[growth]") {
    const Vocabulary vocabulary(kText);
    const std::vector<int> tokens = vocabulary.encode(kText);
    GrowthOptions options = small_options();
    GrowthRun run(vocabulary, tokens, options);
    options.model.vocabulary = vocabulary.size();
    const std::vector<int> training(tokens.begin(),
                                    tokens.begin() + static_cast<std::ptrdiff_t>(tokens.size() * 9 / 10));
    SnippetSampler sampler(training, options.batches, options.seed);
    LayeredActivations acts;
    const double expected = layered_forward(
        options.model, layered_initial_parameters(options.model, options.seed), sampler.next(), acts);
    REQUIRE(run.step() == expected);
    REQUIRE(run.steps_taken() == 1);
    REQUIRE(run.parameters() != layered_initial_parameters(options.model, options.seed));
}

TEST_CASE("a short growth run lowers the held-out loss", "[growth]") {
    const Vocabulary vocabulary(kText);
    GrowthRun run(vocabulary, vocabulary.encode(kText), small_options());
    const GrowthMeasure before = run.measure();
    for (int step = 0; step < 60; ++step) run.step();
    const GrowthMeasure after = run.measure();
    CAPTURE(before.held_out_loss, after.held_out_loss);
    REQUIRE(after.step == 60);
    REQUIRE(after.held_out_loss < before.held_out_loss - 0.3);
    REQUIRE(after.probe.layers.size() == 2);
}

TEST_CASE("a growth run refuses batches that do not fit its model", "[growth][errors]") {
    const Vocabulary vocabulary(kText);
    GrowthOptions options = small_options();
    options.batches.context = 12;
    REQUIRE(
        contains(invalid_argument_message([&] { GrowthRun(vocabulary, vocabulary.encode(kText), options); }),
                 "the batches' context (12) must be the model's (16)"));
}

TEST_CASE("a warm-up scales the first steps' learning rate up to the full rate", "[growth]") {
    const Vocabulary vocabulary(kText);
    GrowthOptions options = small_options();
    options.warmup = 4;
    GrowthRun run(vocabulary, vocabulary.encode(kText), options);
    // Adam's first step moves every parameter with a gradient by the rate times g / (|g| + eps):
    // by the rate itself, within eps / |g|. Step s of the warm-up runs at (s + 1)/4 of 1e-2.
    std::vector<float> before = run.parameters();
    run.step();
    double largest = 0;
    for (std::size_t e = 0; e < before.size(); ++e)
        largest = std::max(largest, std::abs(static_cast<double>(run.parameters()[e] - before[e])));
    CAPTURE(largest);
    REQUIRE_THAT(largest, Catch::Matchers::WithinRel(0.25e-2, 1e-3));
    REQUIRE_THROWS_WITH(GrowthRun(vocabulary, vocabulary.encode(kText),
                                  [&] {
                                      GrowthOptions bad = small_options();
                                      bad.warmup = -1;
                                      return bad;
                                  }()),
                        Catch::Matchers::Contains("warmup must be 0 or more"));
}
