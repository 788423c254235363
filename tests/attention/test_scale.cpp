// Tests of the scale (cpp/attention/scale.cpp): the factor each mode gives, applied to the raw
// scores, and what a larger factor does to the weights.
#include "catch.hpp"
#include "test_support.hpp"

#include "attention/formula.hpp"
#include "attention/statistics.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <vector>

using namespace attention;
using Catch::Matchers::WithinRel;
using test_support::random_matrix;

TEST_CASE("every scale mode multiplies the raw scores by its factor", "[scale]") {
    const int d = 16;
    struct Row {
        Scale scale;
        double factor;
    };
    const Row row =
        GENERATE(Row{Scale::inverse_sqrt_d(), 0.25}, Row{Scale::inverse_d(), 1.0 / 16},
                 Row{Scale::none(), 1.0}, Row{Scale::custom(0.3), 0.3}, Row{Scale::custom(5.0), 5.0});
    CAPTURE(scale_name(row.scale));
    REQUIRE(scale_factor(row.scale, d) == row.factor);
    const Intermediates head =
        formula(random_matrix(5, d, 4), random_matrix(5, d, 5), random_matrix(5, 2, 6), row.scale, false);
    REQUIRE(head.scale == row.factor);
    for (std::size_t e = 0; e < head.raw_scores.values.size(); ++e)
        REQUIRE_THAT(head.scaled_scores.values[e], WithinRel(head.raw_scores.values[e] * row.factor, 1e-6));
}

TEST_CASE("a larger scale sharpens the attention: peak weight grows with the factor", "[scale][property]") {
    const Matrix q = random_matrix(8, 4, 7), k = random_matrix(8, 4, 8), v = random_matrix(8, 4, 9);
    std::vector<double> peaks;  // summed over rows, for factors 0.01, 0.1, 1, 10
    for (double factor : {0.01, 0.1, 1.0, 10.0}) {
        const auto stats = row_statistics(formula(q, k, v, Scale::custom(factor), false).weights);
        peaks.push_back(std::accumulate(stats.peak_weight.begin(), stats.peak_weight.end(), 0.0));
    }
    CAPTURE(peaks);
    REQUIRE(std::adjacent_find(peaks.begin(), peaks.end(), std::greater_equal<double>()) == peaks.end());
}
