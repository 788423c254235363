// Tests of the one-head character model (cpp/learning/model.cpp): its initialisation, loss and
// hand-written gradients against PyTorch autograd (tests/fixtures/model_gradients.json), then
// determinism, learning a repeating text and bad input.
#include "catch.hpp"
#include "model_fixture.hpp"
#include "test_support.hpp"

#include "learning/corpus.hpp"
#include "learning/model.hpp"
#include "learning/optimizer.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

using namespace attention;
using namespace model_fixture_reader;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
using test_support::contains;
using test_support::invalid_argument_message;

namespace {

const std::string kShortText = "To be, or not to be, that is the question: Whether 'tis nobler in the mind";

}  // namespace

TEST_CASE("initial parameters are torch.randn's draws for the seed", "[model][torch]") {
    const std::size_t count = model_fixture().at("cases").size();
    const std::size_t n = GENERATE_COPY(range(std::size_t{0}, count));
    const nlohmann::json& c = model_fixture().at("cases")[n];
    const ModelConfig config = config_of(c);
    CAPTURE(n, config.vocabulary, config.context, config.d);
    const auto [difference, name] =
        worst_difference(initial_parameters(config, c.at("seed")), parameters_of(config, c.at("initial")));
    CAPTURE(difference, name);
    REQUIRE(difference < 1e-6);
}

TEST_CASE("the loss and every gradient match PyTorch autograd to 1e-4", "[model][torch][gradients]") {
    const std::size_t count = model_fixture().at("cases").size();
    REQUIRE(count == 5);
    const std::size_t n = GENERATE_COPY(range(std::size_t{0}, count));
    const nlohmann::json& c = model_fixture().at("cases")[n];
    const ModelConfig config = config_of(c);
    const std::string scale = c.at("scale");
    CAPTURE(n, config.vocabulary, config.context, config.d, scale);
    const Parameters initial = parameters_of(config, c.at("initial"));
    Parameters gradients = zero_parameters(config);
    const Evaluation result = evaluate(config, initial, batch_of(c, 0), &gradients);
    REQUIRE_THAT(result.loss, WithinRel(c.at("loss").get<double>(), 1e-6));
    const auto [difference, name] = worst_difference(gradients, parameters_of(config, c.at("gradients")));
    CAPTURE(difference, name);
    REQUIRE(difference < 1e-4);
    // Without gradients the same loss comes back.
    REQUIRE(evaluate(config, initial, batch_of(c, 0)).loss == result.loss);
}

TEST_CASE("the same seed gives the same run bit for bit, another seed another run", "[model][determinism]") {
    const Vocabulary vocabulary(kShortText);
    const ModelConfig config{vocabulary.size(), 8, 12, Scale::inverse_sqrt_d()};
    const auto run = [&](std::uint64_t seed) {
        Parameters parameters = initial_parameters(config, seed);
        Parameters gradients = zero_parameters(config);
        BatchSampler sampler(vocabulary.encode(kShortText), 3, 8, seed);
        Optimizer optimizer(OptimizerSettings{});
        std::vector<double> losses;
        for (int step = 0; step < 5; ++step) {
            losses.push_back(evaluate(config, parameters, sampler.next(), &gradients).loss);
            optimizer.step(parameters, gradients);
        }
        return std::make_pair(losses, parameters.query.values);
    };
    REQUIRE(run(3) == run(3));
    REQUIRE(run(3).first != run(4).first);
}

TEST_CASE("a few hundred Adam steps learn a repeating text almost perfectly", "[model][learning]") {
    const std::string text = "abcdabcdabcdabcdabcdabcdabcdabcdabcdabcd";
    const Vocabulary vocabulary(text);
    const ModelConfig config{vocabulary.size(), 6, 8, Scale::inverse_sqrt_d()};
    Parameters parameters = initial_parameters(config, 1);
    Parameters gradients = zero_parameters(config);
    BatchSampler sampler(vocabulary.encode(text), 4, 6, 1);
    OptimizerSettings settings;
    settings.learning_rate = 0.05;
    Optimizer optimizer(settings);
    const Batch held_out = consecutive_windows(vocabulary.encode(text), 4, 6);
    const double before = evaluate(config, parameters, held_out).loss;
    for (int step = 0; step < 200; ++step) {
        evaluate(config, parameters, sampler.next(), &gradients);
        optimizer.step(parameters, gradients);
    }
    const double after = evaluate(config, parameters, held_out).loss;
    CAPTURE(before, after);
    REQUIRE(before > 1.0);  // about ln 4 or worse before training
    REQUIRE(after < 0.05);  // the next character is fully determined
}

TEST_CASE("the model rejects tokens, windows and settings outside its config", "[model][errors]") {
    const ModelConfig config{5, 4, 3, Scale::none()};
    const Parameters parameters = initial_parameters(config, 1);
    auto [tokens, context, expected] = GENERATE(table<std::vector<int>, int, std::string>({
        {{0, 1, 5, 2, 3}, 4, "token id 5 is outside the vocabulary 0…4"},
        {{0, 1, -1}, 2, "token id -1 is outside the vocabulary 0…4"},
        {{0, 1, 2, 3, 4, 0}, 5, "batch windows of 5 tokens; the model's context is 1…4"},
        {{0, 1, 2, 3}, 4, "batch has 4 tokens; 1 windows of 5 need 5"},
    }));
    CAPTURE(expected);
    const Batch batch{1, context, tokens};
    REQUIRE(invalid_argument_message([&] { evaluate(config, parameters, batch); }) == expected);
    REQUIRE(invalid_argument_message([] {
                Optimizer(OptimizerSettings{OptimizerKind::sgd, -1.0});
            }) == "learning rate -1.000000 must be a finite number greater than 0");
    REQUIRE(invalid_argument_message([] {
                initial_parameters(ModelConfig{1, 4, 3, Scale::none()}, 1);
            }) == "vocabulary = 1 is outside 2…4096");
}

TEST_CASE("a diverged run stops with a message instead of a NaN loss", "[model][errors]") {
    const ModelConfig config{5, 4, 3, Scale::none()};
    Parameters parameters = initial_parameters(config, 1);
    parameters.query.at(0, 0) = std::numeric_limits<float>::infinity();
    const Batch batch{1, 4, {0, 1, 2, 3, 4}};
    REQUIRE(contains(invalid_argument_message([&] { evaluate(config, parameters, batch); }), "is infinite"));
    parameters = initial_parameters(config, 1);
    parameters.unembedding.at(0, 0) = std::numeric_limits<float>::quiet_NaN();
    REQUIRE(invalid_argument_message([&] { evaluate(config, parameters, batch); }) ==
            "the loss is not finite: the run diverged");
}

namespace {

// The no-head model's loss in float64, written out here (independent of model.cpp): the mean
// over every position of −log softmax((E[t] + P[i])·U)[next character]. E, P, U as doubles, in
// Parameters' shapes.
struct HeadlessWeights {
    std::vector<double> embedding, position, unembedding;  // (V, d), (T, d), (d, V)
};

double headless_loss(const HeadlessWeights& w, const Batch& batch, int V, int d) {
    double total = 0;
    const int T = batch.context;
    for (int b = 0; b < batch.batch; ++b)
        for (int i = 0; i < T; ++i) {
            const int token = batch.tokens[static_cast<std::size_t>(b * (T + 1) + i)];
            const int next = batch.tokens[static_cast<std::size_t>(b * (T + 1) + i + 1)];
            std::vector<double> logits(static_cast<std::size_t>(V), 0.0);
            for (int c = 0; c < d; ++c) {
                const double x = w.embedding[static_cast<std::size_t>(token * d + c)] +
                                 w.position[static_cast<std::size_t>(i * d + c)];
                for (int j = 0; j < V; ++j)
                    logits[static_cast<std::size_t>(j)] +=
                        x * w.unembedding[static_cast<std::size_t>(c * V + j)];
            }
            double sum = 0;
            for (double z : logits) sum += std::exp(z);
            total += std::log(sum) - logits[static_cast<std::size_t>(next)];
        }
    return total / (batch.batch * T);
}

std::vector<double> as_doubles(const Matrix& m) {
    return std::vector<double>(m.values.begin(), m.values.end());
}

}  // namespace

TEST_CASE("without a head, the loss and every gradient match central differences in float64",
          "[model][no-head][gradients]") {
    ModelConfig config{7, 5, 4, Scale::inverse_sqrt_d()};
    config.head = false;
    const Parameters parameters = initial_parameters(config, 11);
    const Batch batch{3, 5, {0, 1, 2, 3, 4, 5, 6, 6, 5, 4, 3, 2, 1, 0, 2, 2, 5, 5}};
    Parameters gradients = zero_parameters(config);
    const double loss = evaluate(config, parameters, batch, &gradients).loss;
    HeadlessWeights w{as_doubles(parameters.embedding), as_doubles(parameters.position),
                      as_doubles(parameters.unembedding)};
    REQUIRE_THAT(loss, WithinAbs(headless_loss(w, batch, 7, 4), 1e-6));
    const std::string name = GENERATE(as<std::string>{}, "embedding", "position", "unembedding");
    CAPTURE(name);
    std::vector<double>* weights = name == "embedding"  ? &w.embedding
                                   : name == "position" ? &w.position
                                                        : &w.unembedding;
    const Matrix* gradient = name == "embedding"  ? &gradients.embedding
                             : name == "position" ? &gradients.position
                                                  : &gradients.unembedding;
    double largest = 0, worst = 0;
    for (std::size_t e = 0; e < weights->size(); ++e) {
        const double kept = (*weights)[e], step = 1e-6;
        (*weights)[e] = kept + step;
        const double above = headless_loss(w, batch, 7, 4);
        (*weights)[e] = kept - step;
        const double below = headless_loss(w, batch, 7, 4);
        (*weights)[e] = kept;
        const double numeric = (above - below) / (2 * step);
        largest = std::max(largest, std::fabs(numeric));
        worst = std::max(worst, std::fabs(numeric - static_cast<double>(gradient->values[e])));
    }
    CAPTURE(largest, worst);
    REQUIRE(largest > 1e-3);  // the comparison is not of zeros
    REQUIRE(worst / largest < 1e-5);
}

TEST_CASE("the no-head model is the headed one's E, P and U with no head matrices", "[model][no-head]") {
    ModelConfig headed{7, 5, 4, Scale::none()};
    ModelConfig headless = headed;
    headless.head = false;
    const Parameters with = initial_parameters(headed, 3), without = initial_parameters(headless, 3);
    REQUIRE(without.embedding.values == with.embedding.values);
    REQUIRE(without.position.values == with.position.values);
    REQUIRE(without.unembedding.values == with.unembedding.values);
    for (const Matrix* m : {&without.query, &without.key, &without.value, &without.output})
        REQUIRE(m->values.empty());
    // A step of Adam moves E, P and U and nothing else breaks on the empty head matrices.
    Parameters parameters = without, gradients = zero_parameters(headless);
    const Batch batch{1, 5, {0, 1, 2, 3, 4, 5}};
    evaluate(headless, parameters, batch, &gradients);
    Optimizer(OptimizerSettings{}).step(parameters, gradients);
    REQUIRE(parameters.unembedding.values != without.unembedding.values);
    REQUIRE(contains(invalid_argument_message([&] {
                         attention_weights_for(headless, parameters, {0, 1});
                     }),
                     "without a head"));
}
