// copying_head.cpp: see copying_head.hpp.
#include "learning/layered/copying_head.hpp"

#include "trained/learned_head.hpp"
#include "tutorial/tokenize.hpp"

#include <algorithm>

namespace attention {

std::vector<bool> points_into_earlier_copy(const Matrix& weights, const std::vector<int>& tokens) {
    const int T = static_cast<int>(tokens.size());
    std::vector<bool> into(tokens.size(), false);
    for (int i = 1; i < T; ++i) {
        const float* row = weights.row(i);
        const auto peak = static_cast<int>(std::max_element(row, row + i + 1) - row);
        into[static_cast<std::size_t>(i)] =
            peak >= 1 && tokens[static_cast<std::size_t>(peak - 1)] == tokens[static_cast<std::size_t>(i)];
    }
    return into;
}

CopyingHeadMaps copying_head_maps(const LayeredConfig& config, const std::vector<float>& parameters,
                                  const Vocabulary& vocabulary, const std::string& text) {
    const std::vector<int> ids = learned_head_tokens(
        ModelConfig{config.vocabulary, config.context, config.d, config.scale}, vocabulary, text);
    const int T = static_cast<int>(ids.size());
    Batch window{1, T, ids};
    window.tokens.push_back(0);  // a target is never read here; it only completes the window
    LayeredActivations acts;
    layered_forward(config, parameters, window, acts);
    CopyingHeadMaps out;
    out.tokens = tokenize(text, TokenMode::characters);
    for (LayerActivations& layer : acts.layers) {
        for (int i = 0; i < T; ++i) {
            const float* row = layer.weights[0].row(i);
            out.peaks.push_back(static_cast<int>(std::max_element(row, row + i + 1) - row));
        }
        out.weights.push_back(std::move(layer.weights[0]));
    }
    if (out.weights.empty()) return out;
    const std::vector<bool> into = points_into_earlier_copy(out.weights.back(), ids);
    for (int i = 1; i < T; ++i) {
        const auto at = static_cast<std::size_t>(i);
        if (std::find(ids.begin(), ids.begin() + i, ids[at]) == ids.begin() + i) continue;
        ++out.rows_with_earlier;
        out.rows_into_copy += into[at] ? 1 : 0;
    }
    return out;
}

}  // namespace attention
