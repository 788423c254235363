// equivalence: the tutorial's check that the hand-written formula equals PyTorch's fused
// kernel, on PyTorch's own seed-0 inputs, and the line it prints.
#pragma once

#include "attention/matrix.hpp"

#include <string>
#include <vector>

namespace attention {

// torch.manual_seed(0); q, k, v = randn(2, 16, 32) each, in that order. One Matrix per batch.
struct EquivalenceInputs {
    int batch = 2, T = 16, d = 32;
    std::vector<Matrix> q, k, v;  // batch × (T, d)
};
EquivalenceInputs tutorial_equivalence_inputs();

constexpr double kEquivalenceTolerance = 1e-5;  // the tutorial's "OK" threshold

struct EquivalenceCase {
    bool causal = false;
    double formula_vs_fused = 0;  // max |formula - fused| over all batches and entries
    double formula_vs_f64 = 0;    // max |formula - float64 reference|
    bool has_torch = false;
    double formula_vs_torch = 0;  // max |formula - PyTorch|, when torch's outputs were given
    bool ok() const;              // every difference measured is below kEquivalenceTolerance
};

// torch_output: flat (batch, T, d_v) PyTorch outputs for these inputs, or empty to skip that
// comparison.
EquivalenceCase check_equivalence(const EquivalenceInputs& inputs, bool causal,
                                  const std::vector<float>& torch_output = {});

// "causal=False  max|mine - torch| = 4.77e-07  OK", the tutorial's line format.
std::string equivalence_line(const EquivalenceCase& result);

}  // namespace attention
