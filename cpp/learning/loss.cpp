// loss.cpp: see loss.hpp.
#include "learning/loss.hpp"

#include <algorithm>

namespace attention {

int input_token(const Batch& batch, int row) {
    const int T = batch.context;
    return batch.tokens[Matrix::index(row / T, row % T, T + 1)];
}

int target_token(const Batch& batch, int row) {
    const int T = batch.context;
    return batch.tokens[Matrix::index(row / T, row % T + 1, T + 1)];
}

double row_loss(float* row, int V, int target) {
    const float row_max = *std::max_element(row, row + V);
    const float logit = row[target];
    double sum = 0;
    for (int j = 0; j < V; ++j) sum += std::exp(static_cast<double>(row[j] - row_max));
    for (int j = 0; j < V; ++j)
        row[j] = static_cast<float>(std::exp(static_cast<double>(row[j] - row_max)) / sum);
    return static_cast<double>(row_max) + std::log(sum) - static_cast<double>(logit);
}

void to_loss_gradient(Matrix& probabilities, const Batch& batch) {
    const float N = static_cast<float>(probabilities.rows);
    for (int n = 0; n < probabilities.rows; ++n) {
        float* row = probabilities.row(n);
        for (int j = 0; j < probabilities.cols; ++j) row[j] /= N;
        row[target_token(batch, n)] -= 1.0f / N;
    }
}

}  // namespace attention
