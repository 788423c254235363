// Tests of attention::TorchGenerator against numbers PyTorch 1.13 produced
// (tests/fixtures/randn.json, written by tests/fixtures/make_fixtures.py).
#include "catch.hpp"
#include "test_support.hpp"

#include "tutorial/torch_random.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using attention::TorchGenerator;

constexpr double kTolerance = 1e-6;

const nlohmann::json& randn_cases() {
    static const nlohmann::json cases = test_support::fixture("randn.json").at("cases");
    return cases;
}

std::string shape_text(const nlohmann::json& shape) {
    std::ostringstream text;
    text << '(';
    for (std::size_t i = 0; i < shape.size(); ++i) text << (i ? ", " : "") << shape[i].get<long long>();
    text << (shape.size() == 1 ? ",)" : ")");
    return text.str();
}

std::size_t element_count(const nlohmann::json& shape) {
    std::size_t count = 1;
    for (const auto& extent : shape) count *= extent.get<std::size_t>();
    return count;
}

}  // namespace

TEST_CASE("randn matches torch.randn for every seed and shape, draw after draw", "[torch_random]") {
    const nlohmann::json& cases = randn_cases();
    const std::size_t case_count = cases.size();
    REQUIRE(case_count > 0);
    const std::size_t case_index = GENERATE_COPY(range(std::size_t{0}, case_count));
    const nlohmann::json& seed_case = cases.at(case_index);
    const std::uint64_t seed = seed_case.at("seed").get<std::uint64_t>();
    CAPTURE(seed);

    // One generator for the whole sequence: each draw must continue where the last stopped,
    // so the draws run in order and the test reports the worst one.
    TorchGenerator generator(seed);
    double small_path_max = 0.0;  // < 16 elements: scalar double Box-Muller with a cached normal
    double block_path_max = 0.0;  // >= 16 elements: the 16-wide float kernel
    std::string worst_draw = "none";
    double worst = 0.0;
    const nlohmann::json& draws = seed_case.at("draws");
    for (std::size_t draw_index = 0; draw_index < draws.size(); ++draw_index) {
        const nlohmann::json& draw = draws[draw_index];
        const std::vector<float> expected = draw.at("values").get<std::vector<float>>();
        const std::vector<float> actual = generator.randn(element_count(draw.at("shape")));
        // A draw of the wrong length is as wrong as it gets.
        const double difference = actual.size() == expected.size()
                                      ? test_support::max_abs_difference(actual, expected)
                                      : std::numeric_limits<double>::infinity();
        double& path_max = expected.size() < 16 ? small_path_max : block_path_max;
        path_max = std::max(path_max, difference);
        if (difference >= worst) {
            worst = difference;
            worst_draw = "draw " + std::to_string(draw_index) + " of shape " + shape_text(draw.at("shape"));
        }
    }
    CAPTURE(worst_draw, worst);
    REQUIRE(worst <= kTolerance);
    WARN("randn seed " << seed << ": max |C++ - torch| = " << small_path_max << " (< 16 elements), "
                       << block_path_max << " (>= 16 elements)");
}

TEST_CASE("a seed of 2^32 or more acts like its low 32 bits, as in torch.manual_seed", "[torch_random]") {
    TorchGenerator low(5);
    TorchGenerator high((std::uint64_t{1} << 32) + 5);
    for (const std::size_t count : {std::size_t{3}, std::size_t{40}, std::size_t{1}}) {
        CAPTURE(count);
        REQUIRE(low.randn(count) == high.randn(count));
    }
}

TEST_CASE("randn(0) is empty and leaves the stream where it was", "[torch_random]") {
    TorchGenerator drawn_nothing(42);
    TorchGenerator untouched(42);
    REQUIRE(drawn_nothing.randn(0).empty());
    REQUIRE(drawn_nothing.randn(5) == untouched.randn(5));
    REQUIRE(drawn_nothing.randn(0).empty());  // also with a cached normal pending
    REQUIRE(drawn_nothing.randn(33) == untouched.randn(33));
}

TEST_CASE("randn(1) for seed 5489 is Box-Muller on the standard mt19937's first four outputs",
          "[torch_random]") {
    // 3499211612 is the well-known first output of mt19937 with its default seed 5489.
    std::mt19937 reference(5489U);
    const std::uint64_t words[4] = {reference(), reference(), reference(), reference()};
    REQUIRE(words[0] == 3499211612U);

    // torch: 53-bit uniforms from (first << 32 | second); the first uniform is the angle.
    const auto uniform = [](std::uint64_t high, std::uint64_t low) {
        return static_cast<double>(((high << 32) | low) & ((std::uint64_t{1} << 53) - 1)) /
               9007199254740992.0;
    };
    const double angle = 2.0 * 3.14159265358979323846 * uniform(words[0], words[1]);
    const double radius = std::sqrt(-2.0 * std::log(1.0 - uniform(words[2], words[3])));

    TorchGenerator generator(5489);
    const std::vector<float> first = generator.randn(1);
    const std::vector<float> second = generator.randn(1);  // the cached partner
    REQUIRE_THAT(static_cast<double>(first.at(0)),
                 Catch::Matchers::WithinAbs(radius * std::cos(angle), kTolerance));
    REQUIRE_THAT(static_cast<double>(second.at(0)),
                 Catch::Matchers::WithinAbs(radius * std::sin(angle), kTolerance));
}
