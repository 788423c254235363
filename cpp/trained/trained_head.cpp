#include "trained/trained_head.hpp"

#include "tutorial/tokenize.hpp"

#include <cstddef>
#include <stdexcept>

namespace attention {

std::vector<int> trained_head_tokens(const ModelConfig& config, const Vocabulary& vocabulary,
                                     const std::string& text) {
    return encode_for_model(vocabulary, config.context, text, "the trained head");
}

Matrix trained_head_weights(const ModelConfig& config, const Parameters& parameters,
                            const Vocabulary& vocabulary, const std::string& text) {
    return attention_weights_for(config, parameters, trained_head_tokens(config, vocabulary, text));
}

const char* peak_target_name(PeakTarget target) {
    switch (target) {
        case PeakTarget::only_key:
            return "only key";
        case PeakTarget::previous:
            return "previous";
        case PeakTarget::two_back:
            return "two back";
        case PeakTarget::itself:
            return "itself";
        case PeakTarget::space:
            return "space";
        case PeakTarget::word_start:
            return "word start";
        case PeakTarget::elsewhere:
            return "elsewhere";
    }
    return "elsewhere";
}

namespace {

bool is_space(const std::string& character) {
    return character == " " || character == "\n";
}

// The first character of the word that character i belongs to (the one after the last space
// before it, or 0 when the text has none).
int word_start_of(const std::vector<std::string>& characters, int i) {
    int start = i;
    while (start > 0 && !is_space(characters[static_cast<std::size_t>(start - 1)])) --start;
    return start;
}

PeakTarget classify(const std::vector<std::string>& characters, int i, int j) {
    if (i == 0) return PeakTarget::only_key;
    if (j == i - 1) return PeakTarget::previous;
    if (j == i - 2) return PeakTarget::two_back;
    if (j == i) return PeakTarget::itself;
    if (is_space(characters[static_cast<std::size_t>(j)])) return PeakTarget::space;
    if (j == word_start_of(characters, i)) return PeakTarget::word_start;
    return PeakTarget::elsewhere;
}

}  // namespace

std::vector<PeakTarget> peak_targets(const std::vector<std::string>& characters, const Matrix& weights) {
    if (weights.rows != static_cast<int>(characters.size()) || weights.cols != weights.rows)
        throw std::invalid_argument("peak_targets needs a (T, T) weights matrix for T = " +
                                    std::to_string(characters.size()) + " characters");
    std::vector<PeakTarget> targets;
    for (int i = 0; i < weights.rows; ++i) {
        int peak = 0;
        for (int j = 1; j < weights.cols; ++j)
            if (weights.row(i)[j] > weights.row(i)[peak]) peak = j;
        targets.push_back(classify(characters, i, peak));
    }
    return targets;
}

TrainedHeadMap trained_head_map(const ModelConfig& config, const Parameters& parameters,
                                const Vocabulary& vocabulary, const std::string& text, MapDetail detail) {
    const std::vector<int> ids = trained_head_tokens(config, vocabulary, text);
    TrainedHeadMap map;
    for (int id : ids) map.tokens.push_back(vocabulary.characters()[static_cast<std::size_t>(id)]);
    map.inputs = head_inputs_for(config, parameters, ids);
    const HeadInputs& in = map.inputs;
    map.head = head_at_detail(in.q, in.k, in.v, config.scale, true, detail);
    map.stats = row_statistics(map.head.weights);
    map.peaks = peak_targets(map.tokens, map.head.weights);
    return map;
}

PeakCensus peak_census(const ModelConfig& config, const Parameters& parameters, const Vocabulary& vocabulary,
                       const Batch& windows) {
    PeakCensus census;
    double previous_weight = 0;
    for (int b = 0; b < windows.batch; ++b) {
        const auto first = windows.tokens.begin() + static_cast<std::ptrdiff_t>(b) * (windows.context + 1);
        const std::vector<int> ids(first, first + windows.context);
        std::vector<std::string> characters;
        for (int id : ids) characters.push_back(vocabulary.characters()[static_cast<std::size_t>(id)]);
        const Matrix weights = attention_weights_for(config, parameters, ids);
        const std::vector<PeakTarget> targets = peak_targets(characters, weights);
        for (int i = 1; i < weights.rows; ++i) {
            ++census.counts[static_cast<std::size_t>(targets[static_cast<std::size_t>(i)])];
            previous_weight += weights.row(i)[i - 1];
            ++census.rows;
        }
    }
    census.mean_previous_weight = census.rows ? previous_weight / static_cast<double>(census.rows) : 0;
    return census;
}

}  // namespace attention
