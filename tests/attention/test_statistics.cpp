// Tests of the row statistics (cpp/attention/statistics.cpp) on hand-computed rows.
#include "catch.hpp"

#include "attention/statistics.hpp"

#include <cmath>
#include <vector>

using namespace attention;
using Catch::Matchers::WithinAbs;

TEST_CASE("row statistics: one-hot, uniform and a hand-computed two-key row", "[statistics][hand]") {
    const Matrix weights(3, 4, {1, 0, 0, 0, 0.25f, 0.25f, 0.25f, 0.25f, 0.25f, 0.75f, 0, 0});
    const RowStatistics stats = row_statistics(weights);
    REQUIRE(stats.peak_weight == std::vector<float>{1.0f, 0.25f, 0.75f});
    REQUIRE(stats.entropy_nats[0] == 0.0f);
    REQUIRE(stats.effective_tokens[0] == 1.0f);
    REQUIRE_THAT(stats.entropy_nats[1], WithinAbs(std::log(4.0), 1e-6));
    REQUIRE_THAT(stats.effective_tokens[1], WithinAbs(4.0, 1e-5));
    const double two_key = -(0.25 * std::log(0.25) + 0.75 * std::log(0.75));
    REQUIRE_THAT(stats.entropy_nats[2], WithinAbs(two_key, 1e-6));
    REQUIRE_THAT(stats.effective_tokens[2], WithinAbs(std::exp(two_key), 1e-6));
}
