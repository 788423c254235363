// induction.cpp: see induction.hpp.
#include "learning/layered/induction.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>

namespace attention {

namespace {

// Sums over rows, turned into means once every group is in.
struct CopyTotals {
    std::vector<LayerCopyScores> layers;
    double first_loss = 0, second_loss = 0;
    long first_rows = 0, rows = 0;
};

// Each passage twice, then its first token again as the last target.
Batch doubled(const std::vector<std::vector<int>>& passages) {
    const int P = static_cast<int>(passages.front().size());
    Batch out{static_cast<int>(passages.size()), 2 * P, {}};
    for (const std::vector<int>& passage : passages) {
        for (int copy = 0; copy < 2; ++copy)
            out.tokens.insert(out.tokens.end(), passage.begin(), passage.end());
        out.tokens.push_back(passage.front());
    }
    return out;
}

void add_group(const LayeredConfig& config, const std::vector<float>& parameters,
               const std::vector<std::vector<int>>& passages, CopyTotals& totals) {
    const Batch batch = doubled(passages);
    const int P = batch.context / 2, T = batch.context;
    LayeredActivations acts;
    layered_forward(config, parameters, batch, acts);
    for (int b = 0; b < batch.batch; ++b) {
        const auto next_character = [&](int position) {
            const int target = batch.tokens[static_cast<std::size_t>(b * (T + 1) + position + 1)];
            return -std::log(static_cast<double>(acts.probabilities.at(b * T + position, target)));
        };
        for (int i = 0; i + 1 < P; ++i) totals.first_loss += next_character(i);
        for (int i = P + 1; i < T; ++i) totals.second_loss += next_character(i - 1);
        totals.first_rows += P - 1;
        totals.rows += P - 1;
        for (std::size_t l = 0; l < acts.layers.size(); ++l) {
            const Matrix& weights = acts.layers[l].weights[static_cast<std::size_t>(b)];
            for (int i = P + 1; i < T; ++i) {
                const float* row = weights.row(i);
                totals.layers[l].induction += row[i - P + 1];
                totals.layers[l].previous += row[i - 1];
                const auto peak = std::max_element(row, row + i + 1) - row;
                totals.layers[l].induction_share += peak == i - P + 1 ? 1 : 0;
                totals.layers[l].previous_share += peak == i - 1 ? 1 : 0;
            }
        }
    }
}

}  // namespace

CopyMeasure measure_copying(const LayeredConfig& config, const std::vector<float>& parameters,
                            const std::vector<std::vector<int>>& passages) {
    if (passages.empty()) throw std::invalid_argument("no passages to measure copying on");
    std::map<std::size_t, std::vector<std::vector<int>>> by_length;
    for (const std::vector<int>& passage : passages) {
        if (passage.size() < 2 || 2 * passage.size() > static_cast<std::size_t>(config.context))
            throw std::invalid_argument("a passage of " + std::to_string(passage.size()) +
                                        " tokens; twice it must fit the context of " +
                                        std::to_string(config.context) + " and it needs at least 2");
        by_length[passage.size()].push_back(passage);
    }
    CopyTotals totals;
    totals.layers.assign(static_cast<std::size_t>(config.layers), LayerCopyScores());
    for (const auto& group : by_length) add_group(config, parameters, group.second, totals);
    CopyMeasure out;
    out.rows = totals.rows;
    out.first_copy_loss = totals.first_loss / static_cast<double>(totals.first_rows);
    out.second_copy_loss = totals.second_loss / static_cast<double>(totals.rows);
    for (LayerCopyScores scores : totals.layers) {
        const auto rows = static_cast<double>(totals.rows);
        out.layers.push_back({scores.induction / rows, scores.previous / rows, scores.induction_share / rows,
                              scores.previous_share / rows});
    }
    return out;
}

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

std::vector<std::vector<int>> spaced_passages(const std::vector<int>& tokens, int count, int shortest,
                                              int longest) {
    if (count < 1 || shortest < 1 || shortest > longest || static_cast<std::size_t>(longest) > tokens.size())
        throw std::invalid_argument("passages of " + std::to_string(shortest) + "…" +
                                    std::to_string(longest) + " tokens from a text of " +
                                    std::to_string(tokens.size()) +
                                    ": lengths must be at least 1, in order and fit the text");
    std::vector<std::vector<int>> passages;
    for (int k = 0; k < count; ++k) {
        const auto length = static_cast<std::size_t>(shortest + k % (longest - shortest + 1));
        const std::size_t start =
            (tokens.size() - length) * static_cast<std::size_t>(k) / static_cast<std::size_t>(count);
        const auto begin = tokens.begin() + static_cast<std::ptrdiff_t>(start);
        passages.emplace_back(begin, begin + static_cast<std::ptrdiff_t>(length));
    }
    return passages;
}

NaturalCopying natural_copying(const LayeredConfig& config, const std::vector<float>& parameters,
                               const Batch& windows) {
    LayeredActivations acts;
    layered_forward(config, parameters, windows, acts);
    NaturalCopying out;
    const int T = windows.context;
    for (int b = 0; b < windows.batch; ++b) {
        const auto begin = windows.tokens.begin() + static_cast<std::ptrdiff_t>(b) * (T + 1);
        const std::vector<int> ids(begin, begin + T);
        const std::vector<bool> into =
            points_into_earlier_copy(acts.layers.back().weights[static_cast<std::size_t>(b)], ids);
        for (int i = 1; i < T; ++i) {
            if (std::find(ids.begin(), ids.begin() + i, ids[static_cast<std::size_t>(i)]) == ids.begin() + i)
                continue;
            ++out.rows;
            out.into_copy += into[static_cast<std::size_t>(i)] ? 1 : 0;
        }
    }
    return out;
}

}  // namespace attention
