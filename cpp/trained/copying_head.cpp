// copying_head.cpp: see copying_head.hpp.
#include "trained/copying_head.hpp"

#include "attention/statistics.hpp"
#include "learning/layered/induction.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace attention {

std::vector<NextGuess> likeliest(const float* probabilities, const Vocabulary& vocabulary, int count) {
    std::vector<int> order(static_cast<std::size_t>(vocabulary.size()));
    std::iota(order.begin(), order.end(), 0);
    const auto top = order.begin() + count;
    std::partial_sort(order.begin(), top, order.end(), [&](int a, int b) {
        return probabilities[a] > probabilities[b] || (probabilities[a] == probabilities[b] && a < b);
    });
    std::vector<NextGuess> guesses;
    for (auto it = order.begin(); it != top; ++it)
        guesses.push_back({vocabulary.characters()[static_cast<std::size_t>(*it)], probabilities[*it]});
    return guesses;
}

namespace {

// Rows i ≥ 1 whose character occurred before them, and of those, the rows that point into an
// earlier copy.
void count_copies(CopyingHeadMap& map, const std::vector<int>& ids) {
    const std::vector<bool> into = points_into_earlier_copy(map.head.weights, ids);
    for (std::size_t i = 1; i < ids.size(); ++i) {
        const auto end = ids.begin() + static_cast<std::ptrdiff_t>(i);
        if (std::find(ids.begin(), end, ids[i]) == end) continue;
        ++map.rows_with_earlier;
        map.rows_into_copy += into[i] ? 1 : 0;
    }
}

}  // namespace

CopyingHeadMap copying_head_map(const LayeredConfig& config, const std::vector<float>& parameters,
                                const Vocabulary& vocabulary, const std::string& text, int layer,
                                MapDetail detail, int guesses) {
    if (layer < 1 || layer > config.layers)
        throw std::invalid_argument("layer = " + std::to_string(layer) + " must be 1 to " +
                                    std::to_string(config.layers));
    if (guesses < 0 || guesses > vocabulary.size())
        throw std::invalid_argument("guesses = " + std::to_string(guesses) + " must be 0 to " +
                                    std::to_string(vocabulary.size()));
    const std::vector<int> ids = encode_for_model(vocabulary, config.context, text, "the copying head");
    const int T = static_cast<int>(ids.size());
    Batch window{1, T, ids};
    window.tokens.push_back(0);  // a target is never read here; it only completes the window
    LayeredActivations acts;
    layered_forward(config, parameters, window, acts);
    LayerActivations& at = acts.layers[static_cast<std::size_t>(layer - 1)];
    CopyingHeadMap map;
    for (int id : ids) map.tokens.push_back(vocabulary.characters()[static_cast<std::size_t>(id)]);
    map.layer = layer;
    map.head = head_at_detail(at.q, at.k, at.v, config.scale, true, detail);
    map.stats = row_statistics(map.head.weights);
    map.q = std::move(at.q);
    map.k = std::move(at.k);
    map.v = std::move(at.v);
    count_copies(map, ids);
    map.next = likeliest(acts.probabilities.row(T - 1), vocabulary, guesses);
    return map;
}

}  // namespace attention
