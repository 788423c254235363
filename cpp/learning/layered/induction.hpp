// induction: how much a layered model copies, measured on passages that appear twice in a row.
//
// For a passage of P tokens followed by itself, a row i of the second copy (P < i < 2P) has its
// own character at i − P in the first copy; the character after that one, at i − P + 1, is what
// comes next. A copying ("induction") head puts its weight there; a previous-token head puts it
// on i − 1. Per layer this measures the mean weight on each (the scores grow_copying_head.py
// prints) and the share of rows whose largest weight lands on each; and the loss on the
// second copy's next characters against the first copy's. Row P, whose previous character is
// the end of the first copy rather than a copied one, is left out of all of them, as it is in
// grow_copying_head.py. It is not a circuit analysis: weights only, no ablations.
#pragma once

#include "learning/layered/layered_model.hpp"

#include <vector>

namespace attention {

struct LayerCopyScores {
    double induction = 0;        // mean weight on i − P + 1
    double previous = 0;         // mean weight on i − 1
    double induction_share = 0;  // share of rows whose largest weight is on i − P + 1
    double previous_share = 0;   // share of rows whose largest weight is on i − 1
};

struct CopyMeasure {
    std::vector<LayerCopyScores> layers;  // one per layer, first layer first
    double first_copy_loss = 0;           // mean loss on the first copy's next characters 1 … P − 1, nats
    double second_copy_loss = 0;          // on the second copy's, P + 1 … 2P − 1
    long rows = 0;                        // second-copy rows measured
};

// passages: token ids, each at least 2 long and at most config.context / 2 (the two copies must
// fit the position table). Passages of one length run as one batch. Throws std::invalid_argument.
CopyMeasure measure_copying(const LayeredConfig& config, const std::vector<float>& parameters,
                            const std::vector<std::vector<int>>& passages);

// For one map (T, T) and the T token ids: per row, whether its largest weight (the first, on a
// tie) lands on a key j ≥ 1 with tokens[j − 1] == tokens[i]: right after an earlier occurrence of
// the row's own character, where a copying head looks for what came next. Row 0 never does.
std::vector<bool> points_into_earlier_copy(const Matrix& weights, const std::vector<int>& tokens);

// count passages of tokens at evenly spaced starts (the k-th at (size − length)·k / count), their
// lengths cycling through shortest … longest: text to show twice to measure_copying. Throws
// std::invalid_argument on lengths out of order or longer than tokens.
std::vector<std::vector<int>> spaced_passages(const std::vector<int>& tokens, int count, int shortest,
                                              int longest);

// Copying in natural text, where nothing was put twice on purpose: of the rows whose character
// occurred earlier in their window, how many have their last layer's largest weight just after
// an earlier occurrence of it (points_into_earlier_copy, above).
struct NaturalCopying {
    long rows = 0;       // rows whose character occurred earlier in the window (row 0 never does)
    long into_copy = 0;  // of those, rows that point into an earlier copy
};
NaturalCopying natural_copying(const LayeredConfig& config, const std::vector<float>& parameters,
                               const Batch& windows);

}  // namespace attention
