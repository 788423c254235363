// softmax_row.cpp: fuzz_softmax_row, one row's softmax in place: weights in [0, 1] that sum to 1,
// exactly 0 for a -inf logit, and in the order of their logits.
#include "oracle.hpp"
#include "targets/targets.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace fuzz {

// Precondition (attention/formula.hpp): finite or -inf entries, at least one finite. NaN and +inf
// bytes are turned into -inf to stay inside it.
void fuzz_softmax_row(FuzzInput& in) {
    const int n = 1 + in.byte() % 64;
    std::vector<float> row = read_values(in, static_cast<std::size_t>(n));
    for (float& x : row)
        if (std::isnan(x) || x == INFINITY) x = -INFINITY;
    if (std::none_of(row.begin(), row.end(), [](float x) { return std::isfinite(x); })) row[0] = 0.0f;
    const std::vector<float> logits = row;
    attention::softmax_row(row.data(), n);
    double sum = 0;
    for (int j = 0; j < n; ++j) {
        const auto a = static_cast<std::size_t>(j);
        require(row[a] >= 0.0f && row[a] <= 1.0f, "softmax_row gave %g", static_cast<double>(row[a]));
        if (logits[a] == -INFINITY)
            require(row[a] == 0.0f, "softmax_row gave %g for a -inf logit", static_cast<double>(row[a]));
        for (int m = 0; m < n; ++m)
            if (logits[a] >= logits[static_cast<std::size_t>(m)])
                require(row[a] >= row[static_cast<std::size_t>(m)],
                        "softmax_row is not monotonic: logits %g >= %g but weights %g < %g",
                        static_cast<double>(logits[a]),
                        static_cast<double>(logits[static_cast<std::size_t>(m)]), static_cast<double>(row[a]),
                        static_cast<double>(row[static_cast<std::size_t>(m)]));
        sum += row[a];
    }
    require(std::fabs(sum - 1.0) <= kRowSumTolerance, "softmax_row sums to %.9g", sum);
}

}  // namespace fuzz
