// statistics: the shape of each row of attention weights, as the map and the √d chart report
// it: its peak, its entropy and how many tokens that entropy is worth.
#pragma once

#include "attention/matrix.hpp"

#include <vector>

namespace attention {

struct RowStatistics {
    std::vector<float> peak_weight;       // (T,) largest weight in the row
    std::vector<float> entropy_nats;      // (T,) -Σ w ln w, 0·ln 0 taken as 0
    std::vector<float> effective_tokens;  // (T,) exp(entropy): 1 = one token, n = uniform over n
};

// weights: (T, T), each row a distribution.
RowStatistics row_statistics(const Matrix& weights);

}  // namespace attention
