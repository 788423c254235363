// sample: text written by the character model (cpp/learning/model.hpp), one character at a
// time, each drawn from the model's next-character probabilities with a seeded generator, so
// a reader sees what a lower loss buys. The same seed draws the same uniform numbers for every
// model, so two samples differ only where the models' probabilities do.
//
// It is not a decoder for large models: no temperature, no top-k, no cache (each character
// runs the model over the last `context` characters again; 80 characters cost about two
// training steps).
#pragma once

#include "learning/model.hpp"

#include <cstdint>
#include <vector>

namespace attention {

// The first index whose running sum of probabilities (in order, in double) exceeds `uniform`
// (in [0, 1)); where rounding leaves `uniform` at or past the total, the last index with a
// probability above zero. probabilities: (count,), none negative, not all zero.
int pick_token(const float* probabilities, int count, double uniform);

// `length` token ids that continue `prompt` (ids in the vocabulary, at least one): each drawn
// by pick_token from the model's probabilities after the last ≤ context tokens so far, with
// uniform = (mt19937(seed)() >> 8) · 2⁻²⁴. Returns the new tokens only. Throws
// std::invalid_argument on an empty prompt, a token outside the vocabulary or a length below 0.
std::vector<int> sample_tokens(const ModelConfig& config, const Parameters& parameters,
                               const std::vector<int>& prompt, int length, std::uint64_t seed);

}  // namespace attention
