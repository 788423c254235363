// statistics.cpp: peak, entropy and effective tokens of each row, summed in double.
#include "attention/statistics.hpp"

#include <algorithm>
#include <cmath>

namespace attention {

RowStatistics row_statistics(const Matrix& weights) {
    RowStatistics stats;
    for (int i = 0; i < weights.rows; ++i) {
        double peak = 0.0, entropy = 0.0;
        for (int j = 0; j < weights.cols; ++j) {
            const double w = weights.row(i)[j];
            peak = std::max(peak, w);
            if (w > 0.0) entropy -= w * std::log(w);  // the limit of w·ln w at 0 is 0
        }
        entropy = std::max(entropy, 0.0);  // rounding can leave -1e-8 for a one-hot row
        stats.peak_weight.push_back(static_cast<float>(peak));
        stats.entropy_nats.push_back(static_cast<float>(entropy));
        stats.effective_tokens.push_back(static_cast<float>(std::exp(entropy)));
    }
    return stats;
}

}  // namespace attention
