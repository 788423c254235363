// Tests of the training loop (cpp/learning/training.cpp): a run lowers the held-out loss and
// repeats bit for bit, its first step is the model's own gradient, and too short a text is
// refused.
#include "catch.hpp"
#include "test_support.hpp"

#include "learning/training.hpp"

#include <string>
#include <tuple>
#include <vector>

using namespace attention;
using test_support::invalid_argument_message;

namespace {

// A text with an obvious next character most of the time, long enough to hold some out.
std::string rhyme() {
    std::string text;
    for (int i = 0; i < 40; ++i) text += "the cat sat on the mat. ";
    return text;
}

TrainingOptions small_options(Scale scale) {
    TrainingOptions options;
    options.context = 16;
    options.d = 16;
    options.scale = scale;
    options.batch = 8;
    options.seed = 5;
    options.optimizer.learning_rate = 0.02;
    options.evaluation_windows = 8;
    return options;
}

}  // namespace

TEST_CASE("a training run lowers the held-out loss and repeats bit for bit", "[training]") {
    const auto run = [](Scale scale) {
        TrainingRun training(rhyme(), small_options(scale));
        const Evaluation before = training.evaluate();
        StepReport last;
        for (int step = 0; step < 60; ++step) last = training.step();
        return std::make_tuple(before.loss, training.evaluate().loss, last.loss, last.step);
    };
    const auto [before, after, last_batch_loss, steps] = run(Scale::inverse_sqrt_d());
    CAPTURE(before, after, last_batch_loss);
    REQUIRE(steps == 60);
    REQUIRE(before > 2.0);  // about ln 11 for the 11 characters, untrained
    REQUIRE(after < 1.0);
    REQUIRE(run(Scale::inverse_sqrt_d()) == std::make_tuple(before, after, last_batch_loss, steps));
}

TEST_CASE("a training run's first step is the model's gradient on the sampler's first batch", "[training]") {
    TrainingRun training(rhyme(), small_options(Scale::none()));
    const StepReport first = training.step();
    // Redo it by hand: the first 90% of the text is sampled, from the run's seed, and the
    // parameters start from initial_parameters with that seed.
    std::vector<int> tokens = training.vocabulary().encode(rhyme());
    tokens.resize(tokens.size() / 10 * 9);
    BatchSampler sampler(tokens, 8, 16, 5);
    const ModelConfig& config = training.config();
    Parameters gradients = zero_parameters(config);
    const Evaluation expected = evaluate(config, initial_parameters(config, 5), sampler.next(), &gradients);
    REQUIRE(first.step == 1);
    REQUIRE(first.loss == expected.loss);
    REQUIRE(first.query_gradient_norm == frobenius_norm(gradients.query));
    REQUIRE(first.key_gradient_norm == frobenius_norm(gradients.key));
    REQUIRE(first.query_gradient_norm > 0);
}

TEST_CASE("the held-out loss over many windows is their mean, 32 windows at a time", "[training][held-out]") {
    std::string text;
    for (int i = 0; i < 500; ++i)
        text += i % 7 == 0 ? "a rose by any other name. " : "the cat sat on the mat. ";
    TrainingOptions options = small_options(Scale::inverse_sqrt_d());
    options.evaluation_windows = kWholeHeldOut;
    TrainingRun training(text, options);
    for (int step = 0; step < 5; ++step) training.step();
    const Batch& all = training.held_out();
    REQUIRE(all.batch ==
            static_cast<int>(text.size() - text.size() / 10 * 9) / 17);  // every window of the tail
    REQUIRE(all.batch > 64);
    // All of it as one batch: the same mean, up to the order of the sums.
    const Evaluation whole = evaluate(training.config(), training.parameters(), all);
    const Evaluation chunked = training.evaluate();
    REQUIRE_THAT(chunked.loss, Catch::Matchers::WithinRel(whole.loss, 1e-12));
    REQUIRE_THAT(chunked.attention.mean_peak_weight,
                 Catch::Matchers::WithinRel(whole.attention.mean_peak_weight, 1e-12));
    // The first 32 windows: bit for bit what a run that keeps only 32 measures.
    options.evaluation_windows = 32;
    TrainingRun page(text, options);
    for (int step = 0; step < 5; ++step) page.step();
    REQUIRE(training.evaluate(32).loss == page.evaluate().loss);
    REQUIRE(training.evaluate(32).loss != chunked.loss);
}

TEST_CASE("a run without a head learns, and has no attention to summarise", "[training][no-head]") {
    TrainingOptions options = small_options(Scale::inverse_sqrt_d());
    options.head = false;
    TrainingRun training(rhyme(), options);
    const double before = training.evaluate().loss;
    StepReport last;
    for (int step = 0; step < 60; ++step) last = training.step();
    const Evaluation after = training.evaluate();
    CAPTURE(before, after.loss);
    REQUIRE(after.loss < before - 1.0);
    REQUIRE(last.query_gradient_norm == 0);
    REQUIRE(after.attention.mean_peak_weight == 0);
}
TEST_CASE("a training run rejects a text too short for one window", "[training][errors]") {
    REQUIRE(invalid_argument_message([] { TrainingRun("abcabc", small_options(Scale::none())); }) ==
            "the text has 6 characters; a context of 16 needs at least 17");
}
