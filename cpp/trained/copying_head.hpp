// copying_head: the grown two-layer model (web/assets/copying-head.json, cpp/learning/layered/)
// applied to whatever text a reader types: one layer's attention map as the page's map figure
// draws it, how many of its rows point into an earlier copy (the number the page's notes quote),
// and the model's likeliest next characters after the text (what the copying is for).
//
// A row i "points into an earlier copy" when its largest weight lands on a key j whose previous
// character t_{j−1} is the row's own character t_i (points_into_earlier_copy,
// cpp/learning/layered/induction.hpp). Rows whose character has not occurred before cannot,
// and are counted apart. Text is refused as encode_for_model refuses it (cpp/learning/corpus.hpp):
// empty, a character outside the vocabulary, or longer than the position table. It is not a
// text generator: one forward pass, no sampling.
#pragma once

#include "learning/corpus.hpp"
#include "learning/layered/layered_model.hpp"
#include "tutorial/map.hpp"

#include <string>
#include <vector>

namespace attention {

// A character the model may write next, and its chance.
struct NextGuess {
    std::string character;
    double probability = 0;
};

struct CopyingHeadMap {
    std::vector<std::string> tokens;  // (T) the text's characters
    int layer = 0;                    // 1 … L
    Matrix q, k, v;                   // (T, d) the layer's queries, keys and values (of its normed input)
    Intermediates head;               // as head_at_detail() leaves it; weights (T, T), masked entries 0
    RowStatistics stats;
    long rows_with_earlier = 0;   // rows whose character occurred earlier in the text
    long rows_into_copy = 0;      // of those, rows whose largest weight points into an earlier copy
    std::vector<NextGuess> next;  // the likeliest characters after the text, likeliest first
};

// Layer `layer` (1 … config.layers) of the model on text, with `guesses` next-character guesses
// (0 … vocabulary). Throws std::invalid_argument on bad text (as encode_for_model does, naming
// "the copying head"), a layer out of range or a guess count out of range.
CopyingHeadMap copying_head_map(const LayeredConfig& config, const std::vector<float>& parameters,
                                const Vocabulary& vocabulary, const std::string& text, int layer,
                                MapDetail detail = MapDetail::all, int guesses = 3);

// The `count` largest of probabilities (V), largest first (the lower index first on a tie), with
// their characters.
std::vector<NextGuess> likeliest(const float* probabilities, const Vocabulary& vocabulary, int count);

}  // namespace attention
