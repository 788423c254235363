// corpus: a text turned into the character model's token ids, the seeded sampler that cuts
// training batches out of it, and how a model's guesses at a batch's next tokens are scored: the
// loss both models learn from (model.cpp's one head, layered_model.cpp's layers).
//
// A token is one Unicode code point (tokenize() in character mode); the vocabulary
// is the text's distinct characters in byte order of their UTF-8, so the same text always
// gives the same ids. The sampler draws window starts from std::mt19937, whose output the C++
// standard fixes, through its own rejection step (std::uniform_int_distribution differs
// between standard libraries): the same seed gives the same batches natively and in wasm.
// It is not a tokenizer library: no words, no subwords, no unknown-token id.
#pragma once

#include "attention/matrix.hpp"

#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace attention {

class Vocabulary {
  public:
    // The distinct characters of utf8_text. Throws std::invalid_argument on invalid UTF-8 or
    // fewer than 2 distinct characters (nothing to predict).
    explicit Vocabulary(const std::string& utf8_text);
    // Rebuilds a saved vocabulary: characters in id order, each one code point, no repeats.
    explicit Vocabulary(std::vector<std::string> characters);

    int size() const { return static_cast<int>(characters_.size()); }
    const std::vector<std::string>& characters() const { return characters_; }
    // Token ids of utf8_text; throws std::invalid_argument naming the first character that is
    // not in the vocabulary, and its position.
    std::vector<int> encode(const std::string& utf8_text) const;
    bool contains(const std::string& character) const;

  private:
    std::vector<std::string> characters_;  // sorted; a character's id is its index
};

// Token ids of a reader's text for a saved model (cpp/trained/) of this vocabulary whose position
// table holds `context` characters. Throws std::invalid_argument, naming `model` ("the trained
// head"), for an empty text, a character the model never met (named, with its position counted
// from 1, as the page counts) or more than `context` characters.
std::vector<int> encode_for_model(const Vocabulary& vocabulary, int context, const std::string& text,
                                  const std::string& model);

// Windows of `context + 1` consecutive tokens (inputs and their next-character targets).
struct Batch {
    int batch = 0;
    int context = 0;
    std::vector<int> tokens;  // (batch, context + 1) row-major
};

// Throws std::invalid_argument unless `batch` fits a model of this context and vocabulary:
// 1…context tokens a window, batch·(context + 1) ids in all, each in 0…vocabulary − 1.
void check_batch(const Batch& batch, int context, int vocabulary);

class BatchSampler {
  public:
    // tokens: the encoded corpus, at least context + 1 long. Throws std::invalid_argument.
    BatchSampler(std::vector<int> tokens, int batch, int context, std::uint64_t seed);
    Batch next();
    int size() const { return static_cast<int>(tokens_.size()); }

  private:
    std::uint32_t uniform_below(std::uint32_t bound);

    std::vector<int> tokens_;
    int batch_;
    int context_;
    std::mt19937 engine_;
};

// Windows laid end to end from the start of tokens, `count` of them (fewer if tokens runs
// out): a fixed evaluation set that every run measures on.
Batch consecutive_windows(const std::vector<int>& tokens, int count, int context);

// The whole file at path, as bytes (the command-line tools' corpus). Throws
// std::invalid_argument naming the path when it cannot be opened.
std::string read_text_file(const std::string& path);

// The loss.
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
