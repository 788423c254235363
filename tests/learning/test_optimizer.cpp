// Tests of the optimizer (cpp/learning/optimizer.cpp): Adam's and SGD's steps against
// torch.optim's over the model fixture's batches (tests/fixtures/model_gradients.json).
#include "catch.hpp"
#include "model_fixture.hpp"
#include "test_support.hpp"

#include "learning/model.hpp"
#include "learning/optimizer.hpp"

#include <nlohmann/json.hpp>

#include <string>

using namespace attention;
using namespace model_fixture_reader;
using Catch::Matchers::WithinRel;

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

TEST_CASE("an optimizer is named adam or sgd, and any other name is refused with the names",
          "[optimizer][errors]") {
    REQUIRE(parse_optimizer("adam") == OptimizerKind::adam);
    REQUIRE(parse_optimizer("sgd") == OptimizerKind::sgd);
    REQUIRE(optimizer_name(OptimizerKind::adam) == "adam");
    REQUIRE(optimizer_name(OptimizerKind::sgd) == "sgd");
    const std::string name = GENERATE(as<std::string>{}, "adamw", "Adam", "", "sgd ");
    CAPTURE(name);
    REQUIRE(test_support::invalid_argument_message([&] { parse_optimizer(name); }) ==
            "optimizer \"" + name + "\" is not one of adam, sgd");
}

TEST_CASE("a new learning rate takes effect from the next step", "[optimizer]") {
    OptimizerSettings settings;
    settings.kind = OptimizerKind::sgd;
    settings.learning_rate = 0.5;
    Optimizer optimizer(settings);
    Parameters values, slopes;
    values.embedding = Matrix(1, 2, {1.0f, -1.0f});
    slopes.embedding = Matrix(1, 2, {1.0f, 2.0f});
    optimizer.step(values, slopes);  // p − 0.5·g
    REQUIRE(values.embedding.values == std::vector<float>{0.5f, -2.0f});
    optimizer.set_learning_rate(0.25);
    optimizer.step(values, slopes);  // p − 0.25·g
    REQUIRE(values.embedding.values == std::vector<float>{0.25f, -2.5f});
    REQUIRE_THROWS_WITH(optimizer.set_learning_rate(0), Catch::Matchers::Contains("greater than 0"));
}
