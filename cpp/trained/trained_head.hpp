// trained_head: the natively trained head (web/assets/trained-head.json, cpp/learning/model.hpp) applied
// to whatever text a reader types, so the map can show what training taught it to look at; and
// where each of its rows puts its largest weight, the measurement the page's note is built on.
//
// Characters outside the head's vocabulary are refused with a message naming the character
// and its position (no silent fallback: the map would otherwise show a token the head never
// saw); text longer than the head's position table is refused with a message naming the limit.
#pragma once

#include "learning/corpus.hpp"
#include "learning/model.hpp"
#include "tutorial/map.hpp"

#include <array>
#include <string>
#include <vector>

namespace attention {

// Token ids of text (one per code point): encode_for_model's, naming "the trained head".
std::vector<int> trained_head_tokens(const ModelConfig& config, const Vocabulary& vocabulary,
                                     const std::string& text);

// The head's attention weights (T, T) on text, at the head's own scale (config.scale).
Matrix trained_head_weights(const ModelConfig& config, const Parameters& parameters,
                            const Vocabulary& vocabulary, const std::string& text);

// Where a row's largest weight lands, named from the query's point of view. A row is given the
// first kind that fits, in this order (a space one back counts as `previous`).
enum class PeakTarget {
    only_key,    // row 0: its one key is itself; nothing was chosen
    previous,    // the character just before the query
    two_back,    // two characters before
    itself,      // the query's own character
    space,       // a space or newline further back
    word_start,  // the first character of the word the query is in
    elsewhere,   // anything else
};
constexpr int kPeakTargetKinds = 7;
const char* peak_target_name(PeakTarget target);  // "only key", "previous", "two back", …

// One PeakTarget per row of weights (T, T); characters: the T tokens as text. The largest
// weight's first column wins a tie.
std::vector<PeakTarget> peak_targets(const std::vector<std::string>& characters, const Matrix& weights);

// The map figure's result for the trained head: the same pieces attention_map() returns for a
// random head, plus where each row peaks. Causal, at the head's own scale; T = characters.
struct TrainedHeadMap {
    std::vector<std::string> tokens;
    HeadInputs inputs;   // x, q, k, v (T, d)
    Intermediates head;  // as head_at_detail() leaves it
    RowStatistics stats;
    std::vector<PeakTarget> peaks;
};
TrainedHeadMap trained_head_map(const ModelConfig& config, const Parameters& parameters,
                                const Vocabulary& vocabulary, const std::string& text,
                                MapDetail detail = MapDetail::all);

// How often rows peak on each PeakTarget over windows of a text, and the mean weight a row
// puts on the previous character; rows 0 (only one key) are left out of both.
struct PeakCensus {
    long rows = 0;
    std::array<long, kPeakTargetKinds> counts{};  // indexed by PeakTarget
    double mean_previous_weight = 0;
};
PeakCensus peak_census(const ModelConfig& config, const Parameters& parameters, const Vocabulary& vocabulary,
                       const Batch& windows);

}  // namespace attention
