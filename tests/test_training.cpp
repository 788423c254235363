// Tests of the training loop (training.hpp) and of the float16 form the trained model is
// saved in (float16.hpp).
#include "catch.hpp"
#include "test_support.hpp"

#include "float16.hpp"
#include "training.hpp"

#include <cmath>
#include <limits>

using namespace attention;
using test_support::contains;
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

TEST_CASE("float16 conversion matches hand-worked binary16 bit patterns", "[float16][hand]") {
    auto [value, bits] = GENERATE(table<float, std::uint16_t>({
        {0.0f, 0x0000},
        {-0.0f, 0x8000},
        {1.0f, 0x3c00},
        {-2.0f, 0xc000},
        {65504.0f, 0x7bff},                          // the largest float16
        {0.5f + 0.25f + 0.125f, 0x3b00},             // 0.875
        {1.0f / 3.0f, 0x3555},                       // 0.333251953125, the nearest
        {0.1f, 0x2e66},                              // 0.0999755859375
        {std::ldexp(1.0f, -14), 0x0400},             // the smallest normal
        {std::ldexp(1.0f, -24), 0x0001},             // the smallest subnormal
        {std::ldexp(1.0f, -25), 0x0000},             // half of it: a tie, to even (0)
        {std::ldexp(3.0f, -25), 0x0002},             // 1.5 steps: a tie, to even (2)
        {1.0f + std::ldexp(1.0f, -11), 0x3c00},      // a tie between 1 and its successor: to even
        {1.0f + 3 * std::ldexp(1.0f, -11), 0x3c02},  // a tie between 0x3c01 and 0x3c02: to even
        {2047.5f, 0x6800},                           // rounds up across a power of two: 2048
    }));
    CAPTURE(value, bits);
    REQUIRE(to_float16(value) == bits);
}

TEST_CASE("float16 conversion refuses what float16 cannot hold", "[float16][errors]") {
    const float value = GENERATE(65520.0f, -1e6f, std::numeric_limits<float>::infinity(),
                                 std::numeric_limits<float>::quiet_NaN());
    CAPTURE(value);
    REQUIRE(contains(invalid_argument_message([&] { to_float16(value); }), "does not fit in float16"));
}

TEST_CASE("base64 follows RFC 4648's test vectors", "[float16]") {
    auto [text, encoded] = GENERATE(table<std::string, std::string>({
        {"", ""},
        {"f", "Zg=="},
        {"fo", "Zm8="},
        {"foo", "Zm9v"},
        {"foob", "Zm9vYg=="},
        {"fooba", "Zm9vYmE="},
        {"foobar", "Zm9vYmFy"},
    }));
    CAPTURE(text);
    REQUIRE(base64(std::vector<unsigned char>(text.begin(), text.end())) == encoded);
    // 1.0 and -2.0 as little-endian float16: 00 3c 00 c0.
    REQUIRE(float16_base64({1.0f, -2.0f}) == base64({0x00, 0x3c, 0x00, 0xc0}));
}

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

TEST_CASE("a training run rejects a text too short for one window", "[training][errors]") {
    REQUIRE(invalid_argument_message([] { TrainingRun("abcabc", small_options(Scale::none())); }) ==
            "the text has 6 characters; a context of 16 needs at least 17");
}
