// reference: the formula in double precision, the yardstick every float32 path is measured
// against in checks and tests. Never on the page's hot path.
#pragma once

#include "attention/matrix.hpp"
#include "attention/scale.hpp"

#include <vector>

namespace attention {

struct ReferenceF64 {
    int T = 0;
    int d_v = 0;
    std::vector<double> weights;  // (T, T)
    std::vector<double> output;   // (T, d_v)
};

// q: (T, d), k: (T, d), v: (T, d_v). Weights and output of softmax(q·kᵀ·scale)·v in double.
ReferenceF64 reference_f64(const Matrix& q, const Matrix& k, const Matrix& v, Scale scale, bool causal);

}  // namespace attention
