// Tests of the float64 reference (cpp/attention/reference.cpp) against the float32 formula.
#include "catch.hpp"
#include "test_support.hpp"

#include "attention/formula.hpp"
#include "attention/reference.hpp"

using namespace attention;
using test_support::max_abs_difference;
using test_support::random_matrix;

TEST_CASE("the float32 formula stays within float32 noise of the float64 reference",
          "[reference][property]") {
    const int T = GENERATE(2, 17, 100);
    const int d = GENERATE(4, 64);
    const bool causal = GENERATE(false, true);
    CAPTURE(T, d, causal);
    const Matrix q = random_matrix(T, d, 21), k = random_matrix(T, d, 22), v = random_matrix(T, d, 23);
    const Intermediates head = formula(q, k, v, Scale::inverse_sqrt_d(), causal);
    const ReferenceF64 exact = reference_f64(q, k, v, Scale::inverse_sqrt_d(), causal);
    const double weight_difference = max_abs_difference(head.weights.values, exact.weights);
    const double output_difference = max_abs_difference(head.output.values, exact.output);
    CAPTURE(weight_difference, output_difference);
    REQUIRE(weight_difference < 1e-6);
    REQUIRE(output_difference < 1e-5);
}
