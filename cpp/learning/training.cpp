// training.cpp: the training loop of training.hpp.
#include "learning/training.hpp"

#include <algorithm>
#include <stdexcept>

namespace attention {

namespace {

constexpr int kChunk = 32;  // held-out windows measured at once

TrainingRun::Split split(const std::vector<int>& tokens, int context) {
    const std::size_t window = static_cast<std::size_t>(context) + 1;
    if (tokens.size() < window)
        throw std::invalid_argument("the text has " + std::to_string(tokens.size()) +
                                    " characters; a context of " + std::to_string(context) +
                                    " needs at least " + std::to_string(window));
    const std::size_t cut = std::max(window, tokens.size() / 10 * 9);
    TrainingRun::Split parts;
    parts.training.assign(tokens.begin(), tokens.begin() + static_cast<std::ptrdiff_t>(cut));
    parts.held_out.assign(tokens.begin() + static_cast<std::ptrdiff_t>(cut), tokens.end());
    if (parts.held_out.size() < window) parts.held_out = parts.training;
    return parts;
}

ModelConfig config_for(const Vocabulary& vocabulary, const TrainingOptions& options) {
    ModelConfig config{vocabulary.size(), options.context, options.d, options.scale, options.head};
    validate_config(config);
    return config;
}

}  // namespace

TrainingRun::TrainingRun(const std::string& utf8_text, const TrainingOptions& options)
    : TrainingRun(Vocabulary(utf8_text), Vocabulary(utf8_text).encode(utf8_text), options) {}

TrainingRun::TrainingRun(Vocabulary vocabulary, const std::vector<int>& tokens,
                         const TrainingOptions& options)
    : vocabulary_(std::move(vocabulary)),
      config_(config_for(vocabulary_, options)),
      parts_(split(tokens, options.context)),
      parameters_(initial_parameters(config_, options.seed)),
      gradients_(zero_parameters(config_)),
      optimizer_(options.optimizer),
      sampler_(parts_.training, options.batch, options.context, options.seed) {
    for (int id : tokens)
        if (id < 0 || id >= vocabulary_.size())
            throw std::invalid_argument("token id " + std::to_string(id) + " is outside the vocabulary 0…" +
                                        std::to_string(vocabulary_.size() - 1));
    if (options.evaluation_windows < 1)
        throw std::invalid_argument("evaluation_windows = " + std::to_string(options.evaluation_windows) +
                                    " must be at least 1");
    held_out_ = consecutive_windows(parts_.held_out, options.evaluation_windows, options.context);
}

StepReport TrainingRun::step() {
    StepReport report;
    report.loss = attention::evaluate(config_, parameters_, sampler_.next(), &gradients_).loss;
    report.query_gradient_norm = frobenius_norm(gradients_.query);
    report.key_gradient_norm = frobenius_norm(gradients_.key);
    optimizer_.step(parameters_, gradients_);
    report.step = optimizer_.steps_taken();
    return report;
}

Evaluation TrainingRun::evaluate(int windows) const {
    if (windows < 1) throw std::invalid_argument("evaluate needs at least 1 window");
    const int count = std::min(windows, held_out_.batch);
    // Every window holds `context` predictions and `context` attention rows: a chunk's means
    // count in proportion to its windows.
    Evaluation total;
    const std::size_t window = static_cast<std::size_t>(held_out_.context) + 1;
    for (int first = 0; first < count; first += kChunk) {
        Batch chunk;
        chunk.batch = std::min(kChunk, count - first);
        chunk.context = held_out_.context;
        const auto begin =
            held_out_.tokens.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(first) * window);
        chunk.tokens.assign(
            begin, begin + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(chunk.batch) * window));
        const Evaluation part = attention::evaluate(config_, parameters_, chunk);
        if (count <= kChunk) return part;  // one chunk: its numbers as they are
        total.loss += part.loss * chunk.batch;
        total.attention.mean_entropy_nats += part.attention.mean_entropy_nats * chunk.batch;
        total.attention.mean_peak_weight += part.attention.mean_peak_weight * chunk.batch;
    }
    total.loss /= count;
    total.attention.mean_entropy_nats /= count;
    total.attention.mean_peak_weight /= count;
    return total;
}

}  // namespace attention
