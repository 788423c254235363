// Tests of the one-head character model: its initialisation, loss, hand-written gradients and
// optimizer steps against PyTorch autograd (tests/fixtures/model_gradients.json), then the
// vocabulary, the seeded sampler, determinism and bad input.
#include "catch.hpp"
#include "test_support.hpp"

#include "learning/corpus.hpp"
#include "learning/model.hpp"
#include "learning/optimizer.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <map>

using namespace attention;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
using test_support::contains;
using test_support::invalid_argument_message;

namespace {

const nlohmann::json& model_fixture() {
    static const nlohmann::json document = [] {
        std::ifstream file(std::string(FIXTURE_DIR) + "/model_gradients.json");
        REQUIRE(file.good());
        return nlohmann::json::parse(file);
    }();
    return document;
}

Scale scale_of(const std::string& mode, double factor) {
    if (mode == "sqrt") return Scale::inverse_sqrt_d();
    if (mode == "d") return Scale::inverse_d();
    if (mode == "none") return Scale::none();
    return Scale::custom(factor);
}

ModelConfig config_of(const nlohmann::json& c) {
    return {c.at("vocabulary").get<int>(), c.at("context").get<int>(), c.at("d").get<int>(),
            scale_of(c.at("scale"), c.at("factor"))};
}

// The fixture's matrices, in Parameters order, with the shapes the config gives.
Parameters parameters_of(const ModelConfig& config, const nlohmann::json& named) {
    Parameters p = zero_parameters(config);
    for (int n = 0; n < Parameters::kCount; ++n) {
        Matrix& m = *p.all()[static_cast<std::size_t>(n)];
        m = Matrix(m.rows, m.cols,
                   named.at(Parameters::names()[static_cast<std::size_t>(n)]).get<std::vector<float>>());
    }
    return p;
}

// Window `step` of the fixture's (steps, batch, context + 1) tokens.
Batch batch_of(const nlohmann::json& c, int step) {
    Batch batch;
    batch.batch = c.at("batch");
    batch.context = c.at("context");
    const std::vector<int> all = c.at("tokens").get<std::vector<int>>();
    const std::size_t size =
        static_cast<std::size_t>(batch.batch) * static_cast<std::size_t>(batch.context + 1);
    batch.tokens.assign(all.begin() + static_cast<std::ptrdiff_t>(size * static_cast<std::size_t>(step)),
                        all.begin() + static_cast<std::ptrdiff_t>(size * static_cast<std::size_t>(step + 1)));
    return batch;
}

// max |mine − reference| / max |reference| over one matrix.
double relative_difference(const Matrix& mine, const Matrix& reference) {
    double largest = 1e-30;
    for (float x : reference.values) largest = std::max(largest, static_cast<double>(std::fabs(x)));
    return test_support::max_abs_difference(mine.values, reference.values) / largest;
}

// The worst relative_difference over the seven matrices, and which one it was.
std::pair<double, std::string> worst_difference(const Parameters& mine, const Parameters& reference) {
    std::pair<double, std::string> worst{0.0, ""};
    for (int n = 0; n < Parameters::kCount; ++n) {
        const double difference = relative_difference(*mine.all()[static_cast<std::size_t>(n)],
                                                      *reference.all()[static_cast<std::size_t>(n)]);
        if (difference >= worst.first) worst = {difference, Parameters::names()[static_cast<std::size_t>(n)]};
    }
    return worst;
}

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

TEST_CASE("Adam and SGD take the steps torch.optim takes", "[model][torch][optimizer]") {
    const std::size_t count = model_fixture().at("cases").size();
    const std::size_t n = GENERATE_COPY(range(std::size_t{0}, count));
    const std::string kind = GENERATE(as<std::string>{}, "adam", "sgd");
    const nlohmann::json& c = model_fixture().at("cases")[n];
    const nlohmann::json& expected = c.at(kind);
    const ModelConfig config = config_of(c);
    CAPTURE(n, kind);
    OptimizerSettings settings;
    settings.kind = kind == "adam" ? OptimizerKind::adam : OptimizerKind::sgd;
    settings.learning_rate = expected.at("learningRate");
    Optimizer optimizer(settings);
    Parameters parameters = parameters_of(config, c.at("initial"));
    Parameters gradients = zero_parameters(config);
    const int steps = model_fixture().at("steps");
    for (int step = 0; step < steps; ++step) {
        const double loss = evaluate(config, parameters, batch_of(c, step), &gradients).loss;
        CAPTURE(step);
        REQUIRE_THAT(loss,
                     WithinRel(expected.at("losses")[static_cast<std::size_t>(step)].get<double>(), 1e-4));
        optimizer.step(parameters, gradients);
    }
    const auto [difference, name] =
        worst_difference(parameters, parameters_of(config, expected.at("parameters")));
    CAPTURE(difference, name);
    REQUIRE(difference < 1e-4);
}

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
