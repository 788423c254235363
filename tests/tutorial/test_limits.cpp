// Tests of the limits the page reads (cpp/tutorial/limits.cpp): each one is where the core
// starts refusing, so the page's checks before it asks agree with the core's own. Just inside a
// limit is accepted (where that is cheap to run), just outside it is refused.
#include "catch.hpp"
#include "test_support.hpp"

#include "attention/checks.hpp"
#include "tutorial/limits.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

using namespace attention;
using test_support::contains;
using test_support::fixture;
using test_support::invalid_argument_message;

namespace {

MapRecipe map_of(int tokens, int d) {
    MapRecipe recipe;
    recipe.text = std::string(static_cast<std::size_t>(tokens), 'a');
    recipe.d = d;
    return recipe;
}

ScaleStudyOptions study_of(int width, int T, int draws) {
    ScaleStudyOptions options;
    options.widths = {width};
    options.T = T;
    options.draws = draws;
    return options;
}

}  // namespace

TEST_CASE("the map's limits on tokens and width are where map_inputs starts refusing", "[limits][map]") {
    const Limits limit = limits();
    REQUIRE(map_inputs(map_of(limit.max_map_tokens, 2)).tokens.size() ==
            static_cast<std::size_t>(limit.max_map_tokens));
    REQUIRE(contains(invalid_argument_message([&] { map_inputs(map_of(limit.max_map_tokens + 1, 2)); }),
                     "at most " + std::to_string(limit.max_map_tokens)));
    REQUIRE(map_inputs(map_of(1, limit.max_map_width)).q.cols == limit.max_map_width);
    REQUIRE(contains(invalid_argument_message([&] { map_inputs(map_of(1, limit.max_map_width + 1)); }),
                     "d = " + std::to_string(limit.max_map_width + 1) + " is outside"));
}

TEST_CASE("the formula's, the width's and the scale's limits are where the checks start refusing",
          "[limits][formula]") {
    const Limits limit = limits();
    REQUIRE(invalid_argument_message([&] { check_formula_size(limit.max_formula_t); }).empty());
    REQUIRE(contains(invalid_argument_message([&] { check_formula_size(limit.max_formula_t + 1); }),
                     "the limit is T = " + std::to_string(limit.max_formula_t)));
    const std::vector<float> row(static_cast<std::size_t>(limit.max_width) + 1, 0.5f);
    REQUIRE(score_of(row.data(), row.data(), limit.max_width, 1.0).raw > 0);
    REQUIRE(contains(
        invalid_argument_message([&] { score_of(row.data(), row.data(), limit.max_width + 1, 1.0); }),
        "from 1 to " + std::to_string(limit.max_width)));
    REQUIRE(scale_factor(Scale::custom(limit.min_scale_factor), 8) == limit.min_scale_factor);
    REQUIRE(scale_factor(Scale::custom(limit.max_scale_factor), 8) == limit.max_scale_factor);
    REQUIRE(contains(
        invalid_argument_message([&] { scale_factor(Scale::custom(limit.min_scale_factor / 2), 8); }),
        "must be a finite number"));
    REQUIRE(contains(
        invalid_argument_message([&] { scale_factor(Scale::custom(limit.max_scale_factor * 2), 8); }),
        "must be a finite number"));
}

TEST_CASE("the study's limits on T, draws and work are where scale_study starts refusing",
          "[limits][scale]") {
    const Limits limit = limits();
    REQUIRE(scale_study(study_of(1, limit.max_study_t, 1)).inverse_sqrt_d.peak_mean.size() == 1);
    REQUIRE(contains(invalid_argument_message([&] { scale_study(study_of(1, limit.max_study_t + 1, 1)); }),
                     "T = " + std::to_string(limit.max_study_t + 1) + " is outside"));
    REQUIRE(scale_study(study_of(1, 1, limit.max_study_draws)).inverse_sqrt_d.peak_mean.size() == 1);
    REQUIRE(
        contains(invalid_argument_message([&] { scale_study(study_of(1, 1, limit.max_study_draws + 1)); }),
                 "draws = " + std::to_string(limit.max_study_draws + 1) + " is outside"));
    // The smallest number of draws of a (T, d) = (1024, 1024) study past the work budget.
    int draws = 1;
    while (study_multiply_adds({1024}, 1024, draws) <= limit.max_study_multiply_adds) ++draws;
    REQUIRE(draws <= limit.max_study_draws);
    REQUIRE(
        contains(invalid_argument_message([&] { scale_study(study_of(1024, 1024, draws)); }),
                 "the limit is " + std::to_string(static_cast<long long>(limit.max_study_multiply_adds))));
}

TEST_CASE("the equivalence tolerance is where a difference from PyTorch becomes a mismatch",
          "[limits][equivalence]") {
    const Limits limit = limits();
    const EquivalenceInputs inputs = tutorial_equivalence_inputs();
    const auto torch = fixture("equivalence.json").at("torch_out_causal_false").get<std::vector<float>>();
    REQUIRE(check_equivalence(inputs, false, torch).ok());
    const float offset = GENERATE(0.5f, 2.0f);
    CAPTURE(offset);
    std::vector<float> shifted = torch;
    shifted[100] += offset * static_cast<float>(limit.equivalence_tolerance);
    REQUIRE(check_equivalence(inputs, false, shifted).ok() == (offset < 1.0f));
}
