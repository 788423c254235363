// Tests of the equivalence check (cpp/tutorial/equivalence.cpp): the tutorial's seed-0 inputs,
// and the formula, the fused kernel and the float64 reference against PyTorch's own outputs
// (tests/fixtures/equivalence.json, written by make_fixtures.py with torch 1.13).
#include "catch.hpp"
#include "test_support.hpp"

#include "tutorial/equivalence.hpp"

#include <nlohmann/json.hpp>

#include <limits>
#include <vector>

using namespace attention;
using test_support::contains;
using test_support::fixture;
using test_support::invalid_argument_message;
using test_support::max_abs_difference;

namespace {

std::vector<float> flatten(const std::vector<Matrix>& batches) {
    std::vector<float> flat;
    for (const Matrix& m : batches) flat.insert(flat.end(), m.values.begin(), m.values.end());
    return flat;
}

}  // namespace

TEST_CASE("the equivalence inputs are the tutorial's seed-0 q, k, v", "[scenarios][equivalence][torch]") {
    const auto expected = fixture("equivalence.json");
    const EquivalenceInputs inputs = tutorial_equivalence_inputs();
    const auto [name, member] = GENERATE(table<const char*, std::vector<Matrix> EquivalenceInputs::*>(
        {{"q", &EquivalenceInputs::q}, {"k", &EquivalenceInputs::k}, {"v", &EquivalenceInputs::v}}));
    const double difference =
        max_abs_difference(flatten(inputs.*member), expected.at(name).get<std::vector<float>>());
    CAPTURE(name, difference);
    REQUIRE(difference < 1e-6);
}

TEST_CASE("the formula, the fused kernel and the float64 reference all equal PyTorch's attention",
          "[scenarios][equivalence][torch]") {
    const auto expected = fixture("equivalence.json");
    const bool causal = GENERATE(false, true);
    CAPTURE(causal);
    const auto torch_output =
        expected.at(causal ? "torch_out_causal_true" : "torch_out_causal_false").get<std::vector<float>>();
    const EquivalenceCase result = check_equivalence(tutorial_equivalence_inputs(), causal, torch_output);
    WARN(equivalence_line(result) << "  fused " << result.formula_vs_fused << "  float64 "
                                  << result.formula_vs_f64);
    REQUIRE(result.has_torch);
    REQUIRE(result.formula_vs_torch < 2e-6);
    REQUIRE(result.formula_vs_fused < 2e-6);
    REQUIRE(result.formula_vs_f64 < 2e-6);
    REQUIRE(result.ok());
    REQUIRE(contains(equivalence_line(result),
                     causal ? "causal=True   max|mine - torch| = " : "causal=False  max|mine - torch| = "));
}

TEST_CASE("a wrong PyTorch output is reported as a mismatch", "[scenarios][equivalence]") {
    const EquivalenceInputs inputs = tutorial_equivalence_inputs();
    std::vector<float> wrong(2 * 16 * 32, 0.0f);
    const EquivalenceCase result = check_equivalence(inputs, false, wrong);
    REQUIRE_FALSE(result.ok());
    REQUIRE(contains(equivalence_line(result), "MISMATCH"));
    std::vector<float> poisoned =
        fixture("equivalence.json").at("torch_out_causal_false").get<std::vector<float>>();
    poisoned[700] = std::numeric_limits<float>::quiet_NaN();
    REQUIRE_FALSE(check_equivalence(inputs, false, poisoned).ok());
    REQUIRE(
        contains(invalid_argument_message([&] { check_equivalence(inputs, false, std::vector<float>(5)); }),
                 "expected 1024"));
    EquivalenceInputs ragged = inputs;
    ragged.q[1] = Matrix(15, 32);
    ragged.k[1] = Matrix(15, 32);
    ragged.v[1] = Matrix(15, 32);
    REQUIRE(contains(invalid_argument_message([&] { check_equivalence(ragged, false, wrong); }),
                     "batch 1 has another shape"));
}
