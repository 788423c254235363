// copying_head: the grown two-layer model (web/assets/copying-head.json) applied to whatever text a
// reader types: both layers' attention maps, and how many rows of the last layer point into an
// earlier copy, the number the page's note quotes.
//
// A row i "points into an earlier copy" when its largest weight lands on a key j whose previous
// character t_{j−1} is the row's own character t_i: the place right after an earlier occurrence
// of what it is reading, where a copying head looks for what came next. Rows whose character
// has not occurred before cannot, and are counted apart. Text is refused as the one-head learned
// head refuses it (cpp/trained/learned_head.hpp): empty, a character outside the vocabulary, or
// longer than the position table, each with a message naming it.
#pragma once

#include "learning/corpus.hpp"
#include "learning/layered/layered_model.hpp"

#include <string>
#include <vector>

namespace attention {

struct CopyingHeadMaps {
    std::vector<std::string> tokens;  // (T) the text's characters
    std::vector<Matrix> weights;      // one (T, T) map per layer, first layer first; masked entries 0
    std::vector<int> peaks;           // (L, T) row-major: the key each row's largest weight lands on
    long rows_with_earlier = 0;       // rows whose character occurred earlier in the text
    long rows_into_copy = 0;          // of those, rows whose last-layer peak points into an earlier copy
};

CopyingHeadMaps copying_head_maps(const LayeredConfig& config, const std::vector<float>& parameters,
                                  const Vocabulary& vocabulary, const std::string& text);

// For one map (T, T) and the T token ids: per row, whether its largest weight (the first, on a
// tie) lands on a key j ≥ 1 with tokens[j − 1] == tokens[i]. Row 0 is never counted.
std::vector<bool> points_into_earlier_copy(const Matrix& weights, const std::vector<int>& tokens);

}  // namespace attention
