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

// The step in shares: a tree sum whose order can be told apart, one Adam step from the shares that
// matches the whole batch's step to rounding, and the same parameters bit for bit whichever
// aligned blocks the shares are taken in (as one worker or several would take them).

TEST_CASE("the tree sum adds pairs level by level, in that order", "[growth]") {
    // In float, 1e8 + 1 rounds back to 1e8: left to right the sum is ((1e8 + 1) − 1e8) + 1 = 1,
    // as a tree it is (1e8 + 1) + (−1e8 + 1) = 1e8 − 1e8 = 0.
    REQUIRE(tree_sum<float>({{1e8f, 2.0f}, {1.0f, 3.0f}, {-1e8f, 5.0f}, {1.0f, 7.0f}}) ==
            std::vector<float>{0.0f, 17.0f});
    REQUIRE(tree_sum<double>({{0.5}}) == std::vector<double>{0.5});
    REQUIRE(tree_sum<double>({{1.0}, {2.0}}) == std::vector<double>{3.0});
    REQUIRE(contains(invalid_argument_message([] {
                         tree_sum<float>({{1.0f}, {2.0f}, {3.0f}});
                     }),
                     "must be a power of two in number, not 3"));
    REQUIRE(contains(invalid_argument_message([] { tree_sum<float>({}); }), "not 0"));
    REQUIRE(contains(invalid_argument_message([] {
                         tree_sum<float>({{1.0f}, {2.0f, 3.0f}});
                     }),
                     "the parts to add differ in size"));
}

TEST_CASE("a share's gradient is the backward pass of its windows alone", "[growth]") {
    const Vocabulary vocabulary(kText);
    const std::vector<int> tokens = vocabulary.encode(kText);
    GrowthOptions options = small_options();  // batch 4 in 4 shares: one window each
    GrowthRun run(vocabulary, tokens, options);
    options.model.vocabulary = vocabulary.size();
    const std::vector<int> training(tokens.begin(),
                                    tokens.begin() + static_cast<std::ptrdiff_t>(tokens.size() * 9 / 10));
    const Batch batch = SnippetSampler(training, options.batches, options.seed).next();
    const std::vector<float> initial = layered_initial_parameters(options.model, options.seed);
    const auto width = static_cast<std::ptrdiff_t>(batch.context + 1);
    const ShareGradient block = run.share_gradient(2, 1);
    const Batch third{1, batch.context,
                      std::vector<int>(batch.tokens.begin() + 2 * width, batch.tokens.begin() + 3 * width)};
    LayeredActivations acts;
    std::vector<float> gradient;
    const double loss = layered_forward(options.model, initial, third, acts);
    layered_backward(options.model, initial, third, acts, gradient);
    REQUIRE(block.first == 2);
    REQUIRE(block.count == 1);
    REQUIRE(block.loss == loss);
    REQUIRE(block.gradient == gradient);
}

TEST_CASE("a step in shares is the whole batch's step to rounding", "[growth]") {
    const Vocabulary vocabulary(kText);
    GrowthRun whole(vocabulary, vocabulary.encode(kText), small_options());
    GrowthRun shared(vocabulary, vocabulary.encode(kText), small_options());
    for (int step = 0; step < 5; ++step) {
        const double a = whole.step(), b = shared.step_in_shares();
        CAPTURE(step, a, b);
        REQUIRE_THAT(b, Catch::Matchers::WithinRel(a, 1e-5));
    }
    double largest = 0;
    for (std::size_t e = 0; e < whole.parameters().size(); ++e)
        largest =
            std::max(largest, std::abs(static_cast<double>(whole.parameters()[e] - shared.parameters()[e])));
    CAPTURE(largest);
    REQUIRE(largest < 1e-4);  // 5 Adam steps of 1e-2 move each parameter by up to 5e-2
    REQUIRE(shared.steps_taken() == 5);
}

TEST_CASE("a step in shares gives the same parameters bit for bit for any number of workers", "[growth]") {
    const Vocabulary vocabulary(kText);
    const std::vector<int> tokens = vocabulary.encode(kText);
    GrowthRun one(vocabulary, tokens, small_options());
    std::vector<GrowthRun> two(2, GrowthRun(vocabulary, tokens, small_options()));
    std::vector<GrowthRun> four(4, GrowthRun(vocabulary, tokens, small_options()));
    for (int step = 0; step < 4; ++step) {
        const double loss = one.step_in_shares();
        std::vector<ShareGradient> halves, quarters;
        for (int w = 0; w < 2; ++w)
            halves.push_back(two[static_cast<std::size_t>(w)].share_gradient(2 * w, 2));
        for (int w = 0; w < 4; ++w)
            quarters.push_back(four[static_cast<std::size_t>(w)].share_gradient(w, 1));
        for (GrowthRun& run : two) REQUIRE(run.apply_shares(halves) == loss);
        for (GrowthRun& run : four) REQUIRE(run.apply_shares(quarters) == loss);
    }
    for (const GrowthRun& run : two) REQUIRE(run.parameters() == one.parameters());
    for (const GrowthRun& run : four) REQUIRE(run.parameters() == one.parameters());
    REQUIRE(one.parameters() != GrowthRun(vocabulary, tokens, small_options()).parameters());
}

TEST_CASE("a step in shares refuses blocks that do not fit", "[growth][errors]") {
    const Vocabulary vocabulary(kText);
    const std::vector<int> tokens = vocabulary.encode(kText);
    GrowthRun run(vocabulary, tokens, small_options());
    REQUIRE(contains(invalid_argument_message([&] { run.apply_shares({}); }), "no gradient was taken"));
    REQUIRE(contains(invalid_argument_message([&] { run.share_gradient(1, 2); }),
                     "are not an aligned block of the 4 shares"));
    REQUIRE(contains(invalid_argument_message([&] { run.share_gradient(0, 3); }), "aligned block"));
    REQUIRE(contains(invalid_argument_message([&] { run.share_gradient(4, 1); }), "aligned block"));
    const ShareGradient first = run.share_gradient(0, 2);
    REQUIRE(contains(invalid_argument_message([&] { run.step(); }), "a step in shares is under way"));
    REQUIRE(
        contains(invalid_argument_message([&] { run.apply_shares({first}); }), "cover 2 of the 4 shares"));
    ShareGradient short_gradient = first;
    short_gradient.gradient.pop_back();
    REQUIRE(contains(invalid_argument_message([&] {
                         run.apply_shares({short_gradient, first});
                     }),
                     "in order, each of"));
    REQUIRE(run.steps_taken() == 0);
    const ShareGradient second = run.share_gradient(2, 2);
    run.apply_shares({first, second});
    REQUIRE(run.steps_taken() == 1);
    GrowthOptions odd = small_options();
    odd.shares = 3;
    REQUIRE(contains(invalid_argument_message([&] { GrowthRun(vocabulary, tokens, odd); }),
                     "shares = 3 must be a power of two that divides the batch (4)"));
    odd.shares = 8;
    REQUIRE(contains(invalid_argument_message([&] { GrowthRun(vocabulary, tokens, odd); }), "shares = 8"));
}

TEST_CASE("the held-out copy share is the census's, on the same passages at every step", "[growth]") {
    const Vocabulary vocabulary(kText);
    GrowthOptions options = small_options();
    options.model.context = options.batches.context = 48;  // passages of 20 to 24 characters
    GrowthRun run(vocabulary, vocabulary.encode(kText), options);
    const auto expected = [&] {
        const auto passages = held_out_passages(run.config(), run.held_out_tokens());
        REQUIRE(passages.size() == 400);
        return measure_copying(run.config(), run.parameters(), passages).layers.back().induction_share;
    };
    for (int round = 0; round < 2; ++round) {
        const double share = run.held_out_copy_share();
        REQUIRE(share >= 0.0);
        REQUIRE(share <= 1.0);
        REQUIRE(share == expected());
        for (int step = 0; step < 20; ++step) run.step();
    }
}
