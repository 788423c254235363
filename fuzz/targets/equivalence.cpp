// equivalence.cpp: fuzz_equivalence, the tutorial's equivalence check on any batches and any
// "torch output": refused for batches of different shapes or an output of the wrong size, and
// never "OK" when torch's numbers hold a NaN.
#include "tutorial/equivalence.hpp"
#include "oracle.hpp"
#include "targets/targets.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace fuzz {

void fuzz_equivalence(FuzzInput& in) {
    const std::uint8_t flags = in.byte();
    const bool causal = flags & 1, same_shapes = flags & 8;
    attention::EquivalenceInputs inputs;
    const int q_batches = in.byte() % 4, k_batches = in.byte() % 4, v_batches = in.byte() % 4;
    const int batches = std::max({q_batches, k_batches, v_batches});
    int T = 0, d = 0, d_v = 0;
    for (int b = 0; b < batches; ++b) {
        if (b == 0 || !same_shapes) {
            T = in.byte() % 9;
            d = in.byte() % 9;
            d_v = in.byte() % 9;
        }
        if (b < q_batches) inputs.q.emplace_back(T, d, read_values(in, Matrix::element_count(T, d)));
        if (b < k_batches) inputs.k.emplace_back(T, d, read_values(in, Matrix::element_count(T, d)));
        if (b < v_batches) inputs.v.emplace_back(T, d_v, read_values(in, Matrix::element_count(T, d_v)));
    }
    // tutorial/equivalence.hpp: q, k, v are batch × (T, d) and torch's output is flat (batch, T, d_v), so
    // every batch must share batch 0's shapes, and each must be a valid head.
    std::string problem;
    if (q_batches == 0 || k_batches != q_batches || v_batches != q_batches)
        problem = "batch counts differ or are 0";
    for (std::size_t b = 0; problem.empty() && b < inputs.q.size(); ++b) {
        problem = formula_problem(inputs.q[b], inputs.k[b], inputs.v[b], Scale::inverse_sqrt_d());
        const bool same_shape =
            inputs.q[b].rows == inputs.q[0].rows && inputs.q[b].cols == inputs.q[0].cols &&
            inputs.k[b].rows == inputs.k[0].rows && inputs.k[b].cols == inputs.k[0].cols &&
            inputs.v[b].rows == inputs.v[0].rows && inputs.v[b].cols == inputs.v[0].cols;
        if (problem.empty() && !same_shape) problem = "batches of different shapes";
    }
    // None, the right size, one too many, or one too few (but at least one).
    const std::size_t expected_size = inputs.v.empty() ? 0 : inputs.v[0].values.size() * inputs.q.size();
    const std::size_t torch_sizes[] = {0, expected_size, expected_size + 1,
                                       expected_size > 1 ? expected_size - 1 : 1};
    const std::vector<float> torch_output = read_values(in, torch_sizes[(flags >> 1) % 4]);
    if (problem.empty() && !torch_output.empty() && torch_output.size() != expected_size)
        problem = "torch output has the wrong size";
    attention::EquivalenceCase result;
    if (!returns_exactly_when_valid("check_equivalence", problem, [&] {
            result = attention::check_equivalence(inputs, causal, torch_output);
        }))
        return;
    require(result.causal == causal && result.has_torch == !torch_output.empty(),
            "check_equivalence echoes the wrong flags");
    for (double difference : {result.formula_vs_fused, result.formula_vs_f64})
        require(std::isfinite(difference) && difference >= 0,
                "check_equivalence difference %g between our own kernels", difference);
    // torch's numbers come from outside: a NaN or inf among them is a mismatch, never "OK".
    const bool torch_finite =
        std::all_of(torch_output.begin(), torch_output.end(), [](float x) { return std::isfinite(x); });
    if (torch_finite)
        require(std::isfinite(result.formula_vs_torch) && result.formula_vs_torch >= 0,
                "formula_vs_torch = %g", result.formula_vs_torch);
    require(torch_finite || !result.ok(),
            "check_equivalence says OK although torch's output has a NaN or inf");
    const bool ok = result.formula_vs_fused < attention::kEquivalenceTolerance &&
                    result.formula_vs_f64 < attention::kEquivalenceTolerance &&
                    (!result.has_torch || result.formula_vs_torch < attention::kEquivalenceTolerance);
    require(result.ok() == ok, "EquivalenceCase::ok() disagrees with its differences");
    const std::string line = attention::equivalence_line(result);
    require(line.find(ok ? "OK" : "MISMATCH") != std::string::npos, "equivalence_line \"%s\" does not say %s",
            line.c_str(), ok ? "OK" : "MISMATCH");
}

}  // namespace fuzz
