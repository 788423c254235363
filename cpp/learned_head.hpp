// learned_head: the natively trained head (web/assets/learned-head.json, cpp/model.hpp) applied
// to whatever text a reader types, so the map can show what training taught it to look at.
//
// Characters outside the head's vocabulary are refused with a message naming the character
// and its position (no silent fallback: the map would otherwise show a token the head never
// saw); text longer than the head's position table is refused with a message naming the limit.
#pragma once

#include "corpus.hpp"
#include "model.hpp"

#include <string>
#include <vector>

namespace attention {

// Token ids of text (one per code point). Throws std::invalid_argument for an empty text, a
// character not in vocabulary, or more characters than config.context.
std::vector<int> learned_head_tokens(const ModelConfig& config, const Vocabulary& vocabulary,
                                     const std::string& text);

// The head's attention weights (T, T) on text, at the head's own scale (config.scale).
Matrix learned_head_weights(const ModelConfig& config, const Parameters& parameters,
                            const Vocabulary& vocabulary, const std::string& text);

}  // namespace attention
