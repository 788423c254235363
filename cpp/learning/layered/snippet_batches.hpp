// snippet_batches: training batches in which a share of the windows is a short string repeated
// to fill the window, the rest plain windows of text. The repeated string is a snippet of the
// text or a uniform random string. A two-layer model trained on natural text alone has little
// reason to copy (at character level the character after an earlier occurrence of the current
// one is right 13.5% of the time in 128-character windows); the repeats supply the reward that
// grows a copying head. Random strings reward nothing but copying (no character predicts the
// next), so they grow it on more seeds than snippets do (docs/learning.md).
//
// Windows are drawn from std::mt19937 through the same rejection step as the plain sampler
// (cpp/learning/corpus.hpp), so a seed gives the same batches natively and in wasm. It is not a
// curriculum: the share of repeats is fixed, and only how many of them are random can change.
#pragma once

#include "learning/corpus.hpp"

#include <cstdint>
#include <random>
#include <vector>

namespace attention {

struct SnippetOptions {
    int batch = 32;     // windows per batch
    int context = 128;  // T: each window holds T + 1 tokens (inputs and next-character targets)
    int repeated = 16;  // of the batch's windows, how many are a repeated string (the last ones)
    int shortest = 16;  // string lengths are uniform in [shortest, longest]
    int longest = 64;
    int random = 0;      // of the repeated windows, how many (the last ones) repeat a random string
    int vocabulary = 0;  // random strings' tokens are uniform over 0 … vocabulary − 1
};

class SnippetSampler {
  public:
    // tokens: the encoded training text. Throws std::invalid_argument on a share outside
    // 0…batch (random: 0…repeated), lengths outside 1…context + 1 or in the wrong order, random
    // strings without a vocabulary of at least 2, or a text too short.
    SnippetSampler(std::vector<int> tokens, SnippetOptions options, std::uint64_t seed);
    // (batch, context + 1): the natural windows first, then the repeated snippets, then the
    // repeated random strings.
    Batch next();
    // How many of the repeated windows are random strings from the next batch on (a recipe may
    // change its mix during a run); throws std::invalid_argument as the constructor does.
    void set_random(int random);

  private:
    std::uint32_t uniform_below(std::uint32_t bound);
    void add_repeat(Batch& out, bool random);

    std::vector<int> tokens_;
    SnippetOptions options_;
    std::mt19937 engine_;
};

// count strings of tokens uniform over 0 … vocabulary − 1, each of a length uniform in
// [shortest, longest]: the random passages on which copying is probed (cpp/learning/layered/induction.hpp
// shows each twice). mt19937 with the sampler's rejection step, so a seed gives the same strings everywhere.
std::vector<std::vector<int>> random_passages(int vocabulary, int count, int shortest, int longest,
                                              std::uint64_t seed);

}  // namespace attention
