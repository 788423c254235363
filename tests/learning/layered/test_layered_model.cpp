// Tests of the L-layer model: its initial parameters, loss, hand-written gradients and Adam steps
// against PyTorch autograd on seven configurations (tests/fixtures/layered_model_gradients.json:
// no head, one layer with and without LayerNorm, two and three layers, four scales), then bad input.
#include "catch.hpp"
#include "test_support.hpp"

#include "learning/layered/layered_model.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <utility>
#include <vector>

using namespace attention;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
using test_support::contains;
using test_support::invalid_argument_message;

namespace {

const nlohmann::json& layered_fixture() {
    static const nlohmann::json document = test_support::fixture("layered_model_gradients.json");
    return document;
}

Scale scale_of(const std::string& mode, double factor) {
    if (mode == "sqrt") return Scale::inverse_sqrt_d();
    if (mode == "d") return Scale::inverse_d();
    if (mode == "none") return Scale::none();
    return Scale::custom(factor);
}

LayeredConfig config_of(const nlohmann::json& c) {
    return {c.at("vocabulary").get<int>(), c.at("context").get<int>(),
            c.at("d").get<int>(),          c.at("layers").get<int>(),
            c.at("layerNorm").get<bool>(), scale_of(c.at("scale"), c.at("factor"))};
}

// The fixture's named tensors laid into the flat buffer, each where parameter_layout() puts it.
std::vector<float> flat_of(const LayeredConfig& config, const nlohmann::json& named) {
    const ParameterLayout layout = parameter_layout(config);
    std::vector<float> values(layout.total, 0.0f);
    for (const TensorSlot& slot : layout.tensors) {
        const std::vector<float> tensor = named.at(slot.name).get<std::vector<float>>();
        REQUIRE(tensor.size() == static_cast<std::size_t>(slot.rows * slot.cols));
        std::copy(tensor.begin(), tensor.end(), values.begin() + static_cast<std::ptrdiff_t>(slot.offset));
    }
    return values;
}

Batch batch_of(const nlohmann::json& c, int step) {
    Batch batch;
    batch.batch = c.at("batch");
    batch.context = c.at("context");
    const std::vector<int> all = c.at("tokens").get<std::vector<int>>();
    const std::size_t size =
        static_cast<std::size_t>(batch.batch) * static_cast<std::size_t>(batch.context + 1);
    const auto begin = all.begin() + static_cast<std::ptrdiff_t>(size * static_cast<std::size_t>(step));
    batch.tokens.assign(begin, begin + static_cast<std::ptrdiff_t>(size));
    return batch;
}

// The worst max |mine − reference| / max |reference| over the named tensors, and its name.
std::pair<double, std::string> worst_difference(const LayeredConfig& config, const std::vector<float>& mine,
                                                const std::vector<float>& reference) {
    std::pair<double, std::string> worst{0.0, ""};
    for (const TensorSlot& slot : parameter_layout(config).tensors) {
        const auto begin = static_cast<std::ptrdiff_t>(slot.offset);
        const auto end = begin + static_cast<std::ptrdiff_t>(slot.rows * slot.cols);
        const std::vector<float> a(mine.begin() + begin, mine.begin() + end);
        const std::vector<float> b(reference.begin() + begin, reference.begin() + end);
        double largest = 1e-30;
        for (float x : b) largest = std::max(largest, static_cast<double>(std::fabs(x)));
        const double difference = test_support::max_abs_difference(a, b) / largest;
        if (difference >= worst.first) worst = {difference, slot.name};
    }
    return worst;
}

std::size_t case_count() {
    return layered_fixture().at("cases").size();
}

}  // namespace

TEST_CASE("the layout names the fixture's tensors in the fixture's order", "[layered][torch]") {
    const std::size_t n = GENERATE_COPY(range(std::size_t{0}, case_count()));
    const nlohmann::json& c = layered_fixture().at("cases")[n];
    std::vector<std::string> names;
    for (const TensorSlot& slot : parameter_layout(config_of(c)).tensors) names.push_back(slot.name);
    CAPTURE(n);
    REQUIRE(names == c.at("names").get<std::vector<std::string>>());
}

TEST_CASE("layered initial parameters are torch.randn's draws for the seed", "[layered][torch]") {
    const std::size_t n = GENERATE_COPY(range(std::size_t{0}, case_count()));
    const nlohmann::json& c = layered_fixture().at("cases")[n];
    const LayeredConfig config = config_of(c);
    const auto [difference, name] =
        worst_difference(config, layered_initial_parameters(config, c.at("seed").get<std::uint64_t>()),
                         flat_of(config, c.at("initial")));
    CAPTURE(n, difference, name);
    REQUIRE(difference < 1e-6);
}

TEST_CASE("the layered loss and every gradient match PyTorch autograd to 1e-4",
          "[layered][torch][gradients]") {
    REQUIRE(case_count() == 7);
    const std::size_t n = GENERATE_COPY(range(std::size_t{0}, case_count()));
    const nlohmann::json& c = layered_fixture().at("cases")[n];
    const LayeredConfig config = config_of(c);
    CAPTURE(n, config.layers, config.layer_norm, config.d, c.at("scale").get<std::string>());
    const std::vector<float> parameters = flat_of(config, c.at("initial"));
    const Batch batch = batch_of(c, 0);
    LayeredActivations activations;
    const double loss = layered_forward(config, parameters, batch, activations);
    REQUIRE_THAT(loss, WithinRel(c.at("loss").get<double>(), 1e-5));
    std::vector<float> gradients;
    layered_backward(config, parameters, batch, activations, gradients);
    const auto [difference, name] = worst_difference(config, gradients, flat_of(config, c.at("gradients")));
    CAPTURE(difference, name);
    REQUIRE(difference < 1e-4);
}

TEST_CASE("three Adam steps on the flat buffers land where torch.optim.Adam does",
          "[layered][torch][optimizer]") {
    const std::size_t n = GENERATE_COPY(range(std::size_t{0}, case_count()));
    const nlohmann::json& c = layered_fixture().at("cases")[n];
    const nlohmann::json& adam = c.at("adam");
    const LayeredConfig config = config_of(c);
    OptimizerSettings settings;
    settings.learning_rate = adam.at("learningRate");
    Optimizer optimizer(settings);
    std::vector<float> parameters = flat_of(config, c.at("initial")), gradients;
    for (int step = 0; step < layered_fixture().at("steps").get<int>(); ++step) {
        LayeredActivations activations;
        const Batch batch = batch_of(c, step);
        const double loss = layered_forward(config, parameters, batch, activations);
        CAPTURE(n, step);
        REQUIRE_THAT(loss, WithinRel(adam.at("losses")[static_cast<std::size_t>(step)].get<double>(), 1e-4));
        layered_backward(config, parameters, batch, activations, gradients);
        layered_optimizer_step(optimizer, parameters, gradients);
    }
    const auto [difference, name] =
        worst_difference(config, parameters, flat_of(config, adam.at("parameters")));
    CAPTURE(n, difference, name);
    REQUIRE(difference < 1e-4);
}

TEST_CASE("the fast path's loss and gradients agree with the reference within atol + rtol·|reference|",
          "[layered][fast]") {
    // The seven fixture configurations, then the recipe's size (d = 32, T = 96, batch 16) at its
    // initial parameters and after 150 reference steps, when attention is peaked.
    struct Case {
        LayeredConfig config;
        std::vector<float> parameters;
        Batch batch;
    };
    std::vector<Case> cases;
    for (const nlohmann::json& c : layered_fixture().at("cases"))
        cases.push_back({config_of(c), flat_of(config_of(c), c.at("initial")), batch_of(c, 0)});
    const LayeredConfig recipe{65, 96, 32, 2, true, Scale::inverse_sqrt_d()};
    std::mt19937 engine(5);
    Batch batch{16, 96, std::vector<int>(16 * 97)};
    for (int& token : batch.tokens) token = static_cast<int>(engine() % 65);
    std::vector<float> trained = layered_initial_parameters(recipe, 1), gradients;
    cases.push_back({recipe, trained, batch});
    Optimizer optimizer(OptimizerSettings{});
    for (int step = 0; step < 150; ++step) {
        LayeredActivations activations;
        layered_forward(recipe, trained, batch, activations);
        layered_backward(recipe, trained, batch, activations, gradients);
        layered_optimizer_step(optimizer, trained, gradients);
    }
    cases.push_back({recipe, trained, batch});
    // atol: 1e-5 of each tensor's largest reference entry; rtol 1e-3.
    double largest_loss = 0, largest_scaled = 0;
    for (std::size_t n = 0; n < cases.size(); ++n) {
        const Case& c = cases[n];
        LayeredActivations reference_acts, fast_acts;
        std::vector<float> reference, fast;
        const double loss = layered_forward(c.config, c.parameters, c.batch, reference_acts);
        const double fast_loss =
            layered_forward(c.config, c.parameters, c.batch, fast_acts, LayeredPath::fast);
        layered_backward(c.config, c.parameters, c.batch, reference_acts, reference);
        layered_backward(c.config, c.parameters, c.batch, fast_acts, fast, LayeredPath::fast);
        CAPTURE(n, loss, fast_loss);
        REQUIRE_THAT(fast_loss, WithinAbs(loss, 1e-6 + 1e-5 * std::fabs(loss)));
        largest_loss = std::max(largest_loss, std::fabs(fast_loss - loss));
        for (const TensorSlot& slot : parameter_layout(c.config).tensors) {
            const auto begin = reference.begin() + static_cast<std::ptrdiff_t>(slot.offset);
            const auto end = begin + slot.rows * slot.cols;
            const double scale = std::fabs(
                *std::max_element(begin, end, [](float a, float b) { return std::fabs(a) < std::fabs(b); }));
            for (std::size_t e = slot.offset;
                 e < slot.offset + static_cast<std::size_t>(slot.rows * slot.cols); ++e) {
                const double difference = std::fabs(static_cast<double>(fast[e]) - reference[e]);
                largest_scaled = std::max(largest_scaled, difference / std::max(scale, 1e-30));
                if (difference > 1e-5 * scale + 1e-3 * std::fabs(reference[e])) {
                    CAPTURE(slot.name, e, reference[e], fast[e], scale);
                    FAIL("the fast path's gradient is outside atol + rtol·|reference|");
                }
            }
        }
    }
    WARN("fast path against the reference over "
         << cases.size() << " cases: max |loss difference| = " << largest_loss
         << ", max |gradient difference| / tensor's largest = " << largest_scaled);
}

TEST_CASE("the layered model refuses input outside its config with a message", "[layered][errors]") {
    const LayeredConfig config{5, 4, 3, 2, true, Scale::inverse_sqrt_d()};
    const std::vector<float> parameters = layered_initial_parameters(config, 0);
    LayeredActivations activations;
    Batch batch{1, 4, {0, 1, 2, 3, 4}};
    batch.tokens[2] = 9;
    REQUIRE(
        contains(invalid_argument_message([&] { layered_forward(config, parameters, batch, activations); }),
                 "token id 9 is outside the vocabulary 0…4"));
    batch.tokens[2] = 2;
    const std::vector<float> short_buffer(parameters.begin(), parameters.end() - 1);
    REQUIRE(
        contains(invalid_argument_message([&] { layered_forward(config, short_buffer, batch, activations); }),
                 "the parameter buffer holds"));
    LayeredConfig too_deep = config;
    too_deep.layers = kMaxLayers + 1;
    REQUIRE(
        contains(invalid_argument_message([&] { parameter_layout(too_deep); }), "layers = 9 is outside 0…8"));
}
