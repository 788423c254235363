// loss.hpp: the language-modelling loss both models learn from (model.cpp's one head and
// layered_model.cpp's layers): which token each row of a batch reads and must guess, the mean
// cross-entropy of the guesses, and its gradient with respect to the logits.
#pragma once

#include "attention/matrix.hpp"
#include "learning/corpus.hpp"

#include <cmath>
#include <stdexcept>

namespace attention {

// Row n of a batch's stacked (B·T, ·) matrices is window n / T, position n % T: the token it
// reads, and the next one, which it must guess.
int input_token(const Batch& batch, int row);
int target_token(const Batch& batch, int row);

// −log softmax(z)[target] for one row z of V logits, turning the row into its softmax in place:
// max + log Σ exp(z − max) − z[target], the max keeping exp finite, each exponential and the
// sum in double. The reference every run is compared with.
double row_loss(float* row, int V, int target);

// The mean of row_loss (or of a faster row loss with its signature) over the rows of logits
// (B·T, V) against the batch's targets; leaves the softmax in logits. Throws
// std::invalid_argument when the mean is not finite: the run diverged.
template <class RowLoss>
double mean_loss(Matrix& logits, const Batch& batch, RowLoss row_loss_of) {
    double total = 0;
    for (int n = 0; n < logits.rows; ++n)
        total += row_loss_of(logits.row(n), logits.cols, target_token(batch, n));
    if (!std::isfinite(total)) throw std::invalid_argument("the loss is not finite: the run diverged");
    return total / logits.rows;
}
inline double cross_entropy(Matrix& logits, const Batch& batch) {
    return mean_loss(logits, batch, row_loss);
}

// Turns the softmax (B·T, V) that cross_entropy() left into the loss's gradient with respect to
// the logits, in place: (softmax − one-hot of the target) / (B·T).
void to_loss_gradient(Matrix& probabilities, const Batch& batch);

}  // namespace attention
