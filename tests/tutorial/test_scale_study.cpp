// Tests of the scale study (cpp/tutorial/scale_study.cpp) against PyTorch's numbers
// (tests/fixtures/scale_demo.json) and against statistics known independently of this code.
#include "catch.hpp"
#include "test_support.hpp"

#include "tutorial/scale_study.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

using namespace attention;
using Catch::Matchers::WithinAbs;
using test_support::contains;
using test_support::fixture;
using test_support::invalid_argument_message;
using test_support::max_abs_difference;

TEST_CASE("the scale demo reproduces the tutorial's curve and its d = 256 numbers",
          "[scenarios][scale][torch]") {
    const auto expected = fixture("scale_demo.json");
    const ScaleStudy study = scale_study(ScaleStudyOptions{});
    REQUIRE(study.options.widths == expected.at("widths").get<std::vector<int>>());
    const auto [key, series] =
        GENERATE(table<const char*, ScaleSeries ScaleStudy::*>({{"peak_unscaled", &ScaleStudy::unscaled},
                                                                {"peak_scaled", &ScaleStudy::inverse_sqrt_d},
                                                                {"peak_inverse_d", &ScaleStudy::inverse_d}}));
    const auto torch_peaks = expected.at(key).get<std::vector<double>>();
    const double difference = max_abs_difference((study.*series).peak_mean, torch_peaks);
    CAPTURE(key, difference);
    REQUIRE(difference < 1e-4);
    // The tutorial's quoted figures: 0.88 unscaled, 0.11 scaled at d = 256.
    REQUIRE_THAT(study.unscaled.peak_mean.back(), WithinAbs(0.880, 0.001));
    REQUIRE_THAT(study.inverse_sqrt_d.peak_mean.back(), WithinAbs(0.112, 0.001));
}

TEST_CASE("the results file's d = 256 numbers come from a fresh seed-0 draw", "[scenarios][scale][torch]") {
    const auto expected = fixture("scale_demo.json").at("results_csv");
    ScaleStudyOptions fresh;
    fresh.widths = {256};
    const ScaleStudy study = scale_study(fresh);
    REQUIRE_THAT(study.unscaled.peak_mean[0],
                 WithinAbs(expected.at("peak_unscaled_d256").get<double>(), 1e-4));
    REQUIRE_THAT(study.inverse_sqrt_d.peak_mean[0],
                 WithinAbs(expected.at("peak_scaled_d256").get<double>(), 1e-4));
}

TEST_CASE("averaged over many draws the scale study matches the known statistics",
          "[scenarios][scale][property]") {
    // Independent reference (many draws, T = 64, no mask): with 1/sqrt(d) the mean peak is
    // about 0.107 at every width; unscaled it climbs from about 0.27 (d = 4) to about 0.90
    // (d = 256); with 1/d it falls toward uniform, 1/64.
    ScaleStudyOptions options;
    options.widths = {4, 64, 256};
    options.draws = 40;
    options.seed = 7;
    const ScaleStudy study = scale_study(options);
    const ScaleSeries &unscaled = study.unscaled, &scaled = study.inverse_sqrt_d,
                      &inverse_d = study.inverse_d;
    const double scaled_lowest = *std::min_element(scaled.peak_mean.begin(), scaled.peak_mean.end());
    const double scaled_highest = *std::max_element(scaled.peak_mean.begin(), scaled.peak_mean.end());
    CAPTURE(scaled.peak_mean);
    REQUIRE_THAT(scaled_lowest, WithinAbs(0.107, 0.01));
    REQUIRE_THAT(scaled_highest, WithinAbs(0.107, 0.01));
    REQUIRE_THAT(unscaled.peak_mean[0], WithinAbs(0.27, 0.02));
    REQUIRE_THAT(unscaled.peak_mean[2], WithinAbs(0.90, 0.02));
    REQUIRE_THAT(inverse_d.peak_mean[2], WithinAbs(1.0 / 64, 0.003));
    REQUIRE(inverse_d.entropy_mean[2] < std::log(64.0));
    REQUIRE_THAT(inverse_d.entropy_mean[2], WithinAbs(std::log(64.0), 0.05));
    REQUIRE(*std::min_element(scaled.peak_spread.begin(), scaled.peak_spread.end()) > 0.0);
}

TEST_CASE("a causal scale study makes the first rows peakier than an unmasked one", "[scenarios][scale]") {
    ScaleStudyOptions options;
    options.widths = {16};
    options.draws = 8;
    const double unmasked = scale_study(options).inverse_sqrt_d.peak_mean[0];
    options.causal = true;
    const double masked = scale_study(options).inverse_sqrt_d.peak_mean[0];
    REQUIRE(masked > unmasked + 0.05);  // row 0 alone has peak 1; early rows see few keys
}

namespace {

ScaleStudyOptions study_with(std::vector<int> widths, int T, int draws) {
    ScaleStudyOptions options;
    options.widths = std::move(widths);
    options.T = T;
    options.draws = draws;
    return options;
}

}  // namespace

TEST_CASE("a bad scale study is rejected with a message naming the argument", "[scenarios][errors]") {
    const auto [what, options, expected] = GENERATE(table<const char*, ScaleStudyOptions, const char*>({
        {"T = 0", study_with({4}, 0, 1), "T = 0 is outside 1…1024"},
        {"no draws", study_with({4}, 64, 0), "draws = 0"},
        {"no widths", study_with({}, 64, 1), "widths is empty"},
        {"a negative width", study_with({4, -2}, 64, 1), "width = -2"},
        {"over the work budget", study_with({4096}, 1024, 10), "multiply-adds; the limit is"},
    }));
    const std::string message = invalid_argument_message([&bad = options] { scale_study(bad); });
    CAPTURE(what, message);
    REQUIRE(contains(message, expected));
}
