// corpus.cpp: vocabulary, encoding, the seeded batch sampler and the loss. See corpus.hpp.
#include "learning/corpus.hpp"

#include "tutorial/tokenize.hpp"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace attention {

Vocabulary::Vocabulary(const std::string& utf8_text) {
    // A set, not sort + unique: a corpus has a million characters but only dozens of kinds.
    const std::vector<std::string> all = tokenize(utf8_text, TokenMode::characters);
    const std::set<std::string> distinct(all.begin(), all.end());
    characters_.assign(distinct.begin(), distinct.end());
    if (characters_.size() < 2)
        throw std::invalid_argument("the text has " + std::to_string(characters_.size()) +
                                    " distinct characters; a model needs at least 2 to choose between");
}

Vocabulary::Vocabulary(std::vector<std::string> characters) : characters_(std::move(characters)) {
    for (std::size_t i = 0; i < characters_.size(); ++i) {
        if (tokenize(characters_[i], TokenMode::characters).size() != 1)
            throw std::invalid_argument("vocabulary entry " + std::to_string(i) + " is not one character");
        if (i > 0 && !(characters_[i - 1] < characters_[i]))
            throw std::invalid_argument("vocabulary entries must be distinct and sorted; entry " +
                                        std::to_string(i) + " is not");
    }
    if (characters_.size() < 2) throw std::invalid_argument("a vocabulary needs at least 2 characters");
}

bool Vocabulary::contains(const std::string& character) const {
    return std::binary_search(characters_.begin(), characters_.end(), character);
}

std::vector<int> Vocabulary::encode(const std::string& utf8_text) const {
    const std::vector<std::string> characters = tokenize(utf8_text, TokenMode::characters);
    std::vector<int> ids;
    ids.reserve(characters.size());
    for (std::size_t i = 0; i < characters.size(); ++i) {
        const auto found = std::lower_bound(characters_.begin(), characters_.end(), characters[i]);
        if (found == characters_.end() || *found != characters[i])
            throw std::invalid_argument("character " + std::to_string(i) + " (\"" + characters[i] +
                                        "\") is not in the model's vocabulary of " + std::to_string(size()) +
                                        " characters");
        ids.push_back(static_cast<int>(found - characters_.begin()));
    }
    return ids;
}

std::vector<int> encode_for_model(const Vocabulary& vocabulary, int context, const std::string& text,
                                  const std::string& model) {
    if (text.empty()) throw std::invalid_argument("text is empty; " + model + " needs at least 1 character");
    const std::vector<std::string> characters = tokenize(text, TokenMode::characters);
    for (std::size_t i = 0; i < characters.size(); ++i)
        if (!vocabulary.contains(characters[i]))
            throw std::invalid_argument("character \"" + characters[i] + "\" at position " +
                                        std::to_string(i + 1) + " is not one of the " +
                                        std::to_string(vocabulary.size()) + " " + model + " was trained on");
    if (static_cast<int>(characters.size()) > context)
        throw std::invalid_argument("text has " + std::to_string(characters.size()) + " characters; " +
                                    model + " reads at most " + std::to_string(context));
    return vocabulary.encode(text);
}

BatchSampler::BatchSampler(std::vector<int> tokens, int batch, int context, std::uint64_t seed)
    : tokens_(std::move(tokens)),
      batch_(batch),
      context_(context),
      engine_(static_cast<std::mt19937::result_type>(seed)) {
    if (batch < 1) throw std::invalid_argument("batch = " + std::to_string(batch) + " must be at least 1");
    if (context < 1)
        throw std::invalid_argument("context = " + std::to_string(context) + " must be at least 1");
    if (tokens_.size() < static_cast<std::size_t>(context) + 1 || tokens_.size() > UINT32_MAX)
        throw std::invalid_argument("the text has " + std::to_string(tokens_.size()) +
                                    " characters; a context of " + std::to_string(context) +
                                    " needs at least " + std::to_string(context + 1));
}

// Uniform on [0, bound): 32-bit draws at or above the largest multiple of bound are redrawn,
// so every start is equally likely (a plain % would favour the small ones).
std::uint32_t BatchSampler::uniform_below(std::uint32_t bound) {
    const std::uint64_t limit = (std::uint64_t{1} << 32) / bound * bound;
    for (;;) {
        const std::uint32_t draw = static_cast<std::uint32_t>(engine_());
        if (draw < limit) return draw % bound;
    }
}

Batch BatchSampler::next() {
    Batch out;
    out.batch = batch_;
    out.context = context_;
    const std::size_t window = static_cast<std::size_t>(context_) + 1;
    const auto starts = static_cast<std::uint32_t>(tokens_.size() - window + 1);
    out.tokens.reserve(static_cast<std::size_t>(batch_) * window);
    for (int b = 0; b < batch_; ++b) {
        const auto start = tokens_.begin() + static_cast<std::ptrdiff_t>(uniform_below(starts));
        out.tokens.insert(out.tokens.end(), start, start + static_cast<std::ptrdiff_t>(window));
    }
    return out;
}

Batch consecutive_windows(const std::vector<int>& tokens, int count, int context) {
    if (context < 1)
        throw std::invalid_argument("context = " + std::to_string(context) + " must be at least 1");
    const std::size_t window = static_cast<std::size_t>(context) + 1;
    Batch out;
    out.context = context;
    for (int b = 0; b < count && (static_cast<std::size_t>(b) + 1) * window <= tokens.size(); ++b) {
        const auto start = tokens.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(b) * window);
        out.tokens.insert(out.tokens.end(), start, start + static_cast<std::ptrdiff_t>(window));
        ++out.batch;
    }
    if (out.batch == 0)
        throw std::invalid_argument("the text has " + std::to_string(tokens.size()) +
                                    " characters; a context of " + std::to_string(context) +
                                    " needs at least " + std::to_string(window));
    return out;
}

void check_batch(const Batch& batch, int context, int vocabulary) {
    if (batch.context < 1 || batch.context > context)
        throw std::invalid_argument("batch windows of " + std::to_string(batch.context) +
                                    " tokens; the model's context is 1…" + std::to_string(context));
    if (batch.batch < 1 || batch.tokens.size() != static_cast<std::size_t>(batch.batch) *
                                                      static_cast<std::size_t>(batch.context + 1))
        throw std::invalid_argument("batch has " + std::to_string(batch.tokens.size()) + " tokens; " +
                                    std::to_string(batch.batch) + " windows of " +
                                    std::to_string(batch.context + 1) + " need " +
                                    std::to_string(batch.batch * (batch.context + 1)));
    for (int id : batch.tokens)
        if (id < 0 || id >= vocabulary)
            throw std::invalid_argument("token id " + std::to_string(id) + " is outside the vocabulary 0…" +
                                        std::to_string(vocabulary - 1));
}

std::string read_text_file(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) throw std::invalid_argument("cannot open " + path);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

int input_token(const Batch& batch, int row) {
    const int T = batch.context;
    return batch.tokens[Matrix::index(row / T, row % T, T + 1)];
}

int target_token(const Batch& batch, int row) {
    const int T = batch.context;
    return batch.tokens[Matrix::index(row / T, row % T + 1, T + 1)];
}

double row_loss(float* row, int V, int target) {
    const float row_max = *std::max_element(row, row + V);
    const float logit = row[target];
    double sum = 0;
    for (int j = 0; j < V; ++j) sum += std::exp(static_cast<double>(row[j] - row_max));
    for (int j = 0; j < V; ++j)
        row[j] = static_cast<float>(std::exp(static_cast<double>(row[j] - row_max)) / sum);
    return static_cast<double>(row_max) + std::log(sum) - static_cast<double>(logit);
}

void to_loss_gradient(Matrix& probabilities, const Batch& batch) {
    const float N = static_cast<float>(probabilities.rows);
    for (int n = 0; n < probabilities.rows; ++n) {
        float* row = probabilities.row(n);
        for (int j = 0; j < probabilities.cols; ++j) row[j] /= N;
        row[target_token(batch, n)] -= 1.0f / N;
    }
}

}  // namespace attention
