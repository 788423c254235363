// equivalence.cpp: the formula, the fused kernel and the float64 reference on the tutorial's
// inputs, each compared with the others and with PyTorch's outputs when given.
#include "tutorial/equivalence.hpp"

#include "attention/formula.hpp"
#include "attention/kernel/fused.hpp"
#include "attention/reference.hpp"
#include "tutorial/torch_random.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace attention {

namespace {

Matrix batch_slice(const std::vector<float>& values, int batch_index, int T, int d) {
    const auto begin = values.begin() + static_cast<std::ptrdiff_t>(batch_index) * T * d;
    return Matrix(T, d, std::vector<float>(begin, begin + static_cast<std::ptrdiff_t>(T) * d));
}

}  // namespace

EquivalenceInputs tutorial_equivalence_inputs() {
    EquivalenceInputs inputs;
    TorchGenerator generator(0);
    const std::size_t count = static_cast<std::size_t>(inputs.batch * inputs.T * inputs.d);
    const std::vector<float> q = generator.randn(count), k = generator.randn(count),
                             v = generator.randn(count);
    for (int b = 0; b < inputs.batch; ++b) {
        inputs.q.push_back(batch_slice(q, b, inputs.T, inputs.d));
        inputs.k.push_back(batch_slice(k, b, inputs.T, inputs.d));
        inputs.v.push_back(batch_slice(v, b, inputs.T, inputs.d));
    }
    return inputs;
}

bool EquivalenceCase::ok() const {
    return formula_vs_fused < kEquivalenceTolerance && formula_vs_f64 < kEquivalenceTolerance &&
           (!has_torch || formula_vs_torch < kEquivalenceTolerance);
}

EquivalenceCase check_equivalence(const EquivalenceInputs& inputs, bool causal,
                                  const std::vector<float>& torch_output) {
    const int batch = static_cast<int>(inputs.q.size());
    if (batch == 0 || inputs.k.size() != inputs.q.size() || inputs.v.size() != inputs.q.size())
        throw std::invalid_argument(
            "equivalence inputs need the same number (at least 1) of q, k and v batches");
    for (std::size_t b = 1; b < inputs.q.size(); ++b)
        if (inputs.q[b].rows != inputs.q[0].rows || inputs.q[b].cols != inputs.q[0].cols ||
            inputs.v[b].cols != inputs.v[0].cols)
            throw std::invalid_argument("equivalence batch " + std::to_string(b) +
                                        " has another shape than batch 0");
    const std::size_t per_batch = inputs.v[0].values.size();
    if (!torch_output.empty() && torch_output.size() != per_batch * static_cast<std::size_t>(batch))
        throw std::invalid_argument("torch output has " + std::to_string(torch_output.size()) +
                                    " values; expected " +
                                    std::to_string(per_batch * static_cast<std::size_t>(batch)));

    // std::max(worst, NaN) keeps worst: a NaN anywhere must instead stick and fail the check.
    const auto record = [](double& worst, double difference) {
        if (!std::isnan(worst) && !(difference <= worst)) worst = difference;
    };
    EquivalenceCase result;
    result.causal = causal;
    result.has_torch = !torch_output.empty();
    for (int b = 0; b < batch; ++b) {
        const auto i = static_cast<std::size_t>(b);
        const Scale scale = Scale::inverse_sqrt_d();
        const Matrix mine = formula(inputs.q[i], inputs.k[i], inputs.v[i], scale, causal).output;
        const Matrix tiled = fused(inputs.q[i], inputs.k[i], inputs.v[i], scale, causal);
        const ReferenceF64 exact = reference_f64(inputs.q[i], inputs.k[i], inputs.v[i], scale, causal);
        for (std::size_t e = 0; e < mine.values.size(); ++e) {
            const double x = mine.values[e];
            record(result.formula_vs_fused, std::fabs(x - tiled.values[e]));
            record(result.formula_vs_f64, std::fabs(x - exact.output[e]));
            if (result.has_torch)
                record(result.formula_vs_torch, std::fabs(x - torch_output[i * per_batch + e]));
        }
    }
    return result;
}

std::string equivalence_line(const EquivalenceCase& result) {
    char line[128];
    std::snprintf(line, sizeof line, "causal=%-5s  max|mine - %s| = %.2e  %s",
                  result.causal ? "True" : "False", result.has_torch ? "torch" : "float64",
                  result.has_torch ? result.formula_vs_torch : result.formula_vs_f64,
                  result.ok() ? "OK" : "MISMATCH");
    return line;
}

}  // namespace attention
