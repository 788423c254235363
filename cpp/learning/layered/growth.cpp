// growth.cpp: see growth.hpp.
#include "learning/layered/growth.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace attention {

namespace {

bool power_of_two(int n) {
    return n > 0 && (n & (n - 1)) == 0;
}

// The first 90% of the tokens (the training part) or the rest.
std::vector<int> part(const std::vector<int>& tokens, bool training) {
    const auto split = static_cast<std::ptrdiff_t>(tokens.size() * 9 / 10);
    return training ? std::vector<int>(tokens.begin(), tokens.begin() + split)
                    : std::vector<int>(tokens.begin() + split, tokens.end());
}

GrowthOptions checked(const Vocabulary& vocabulary, GrowthOptions options) {
    options.model.vocabulary = vocabulary.size();
    options.batches.vocabulary = vocabulary.size();
    validate_layered_config(options.model);
    if (options.batches.context != options.model.context)
        throw std::invalid_argument("the batches' context (" + std::to_string(options.batches.context) +
                                    ") must be the model's (" + std::to_string(options.model.context) + ")");
    if (options.warmup < 0) throw std::invalid_argument("warmup must be 0 or more steps");
    if (options.later_random < 0 || options.later_random > options.batches.repeated)
        throw std::invalid_argument("later_random = " + std::to_string(options.later_random) +
                                    " is outside 0…" + std::to_string(options.batches.repeated) +
                                    " (the repeated windows)");
    if (options.held_out_windows < 1 || options.probe_strings < 1)
        throw std::invalid_argument("held_out_windows and probe_strings must be at least 1");
    if (!power_of_two(options.shares) || options.batches.batch % options.shares != 0)
        throw std::invalid_argument("shares = " + std::to_string(options.shares) +
                                    " must be a power of two that divides the batch (" +
                                    std::to_string(options.batches.batch) + ")");
    return options;
}

}  // namespace

std::vector<std::vector<int>> held_out_passages(const LayeredConfig& config,
                                                const std::vector<int>& held_out) {
    return spaced_passages(held_out, 400, 20, std::min(64, config.context / 2));
}

Batch spaced_windows(const std::vector<int>& tokens, int count, int context) {
    if (count < 1 || context < 1 || tokens.size() < static_cast<std::size_t>(context) + 1)
        throw std::invalid_argument("the held-out text has " + std::to_string(tokens.size()) +
                                    " characters; a window needs " + std::to_string(context + 1));
    const std::size_t last_start = tokens.size() - static_cast<std::size_t>(context) - 1;
    Batch out{count, context, {}};
    for (int b = 0; b < count; ++b) {
        const std::size_t start =
            count == 1 ? 0 : static_cast<std::size_t>(static_cast<double>(last_start) * b / (count - 1));
        const auto begin = tokens.begin() + static_cast<std::ptrdiff_t>(start);
        out.tokens.insert(out.tokens.end(), begin, begin + context + 1);
    }
    return out;
}

GrowthRun::GrowthRun(const Vocabulary& vocabulary, const std::vector<int>& tokens, GrowthOptions options)
    : options_(checked(vocabulary, options)),
      held_out_(part(tokens, false)),
      sampler_(part(tokens, true), options_.batches, options_.seed),
      parameters_(layered_initial_parameters(options_.model, options_.seed)),
      optimizer_(options_.optimizer),
      held_out_windows_(spaced_windows(held_out_, options_.held_out_windows, options_.model.context)),
      probe_(random_passages(vocabulary.size(), options_.probe_strings, options_.probe_period,
                             options_.probe_period, options_.probe_seed)) {}

Batch GrowthRun::next_batch() {
    const long step = optimizer_.steps_taken();
    // Step s of the warm-up runs at (s + 1)/warmup of the rate, so its last step is at the full rate.
    if (step < options_.warmup)
        optimizer_.set_learning_rate(options_.optimizer.learning_rate * static_cast<double>(step + 1) /
                                     options_.warmup);
    if (step == options_.later_step) sampler_.set_random(options_.later_random);
    return sampler_.next();
}

double GrowthRun::step() {
    if (!pending_.tokens.empty())
        throw std::invalid_argument("a step in shares is under way; apply it first");
    const Batch batch = next_batch();
    const double loss = layered_forward(options_.model, parameters_, batch, activations_, options_.path);
    layered_backward(options_.model, parameters_, batch, activations_, gradients_, options_.path);
    layered_optimizer_step(optimizer_, parameters_, gradients_);
    return loss;
}

template <typename Real>
std::vector<Real> tree_sum(std::vector<std::vector<Real>> parts) {
    if (!power_of_two(static_cast<int>(parts.size())))
        throw std::invalid_argument("the parts to add must be a power of two in number, not " +
                                    std::to_string(parts.size()));
    for (const std::vector<Real>& part : parts)
        if (part.size() != parts.front().size())
            throw std::invalid_argument("the parts to add differ in size (" + std::to_string(part.size()) +
                                        " and " + std::to_string(parts.front().size()) + ")");
    for (std::size_t width = 1; width < parts.size(); width *= 2)
        for (std::size_t left = 0; left < parts.size(); left += 2 * width) {
            std::vector<Real>& sum = parts[left];
            const std::vector<Real>& right = parts[left + width];
            for (std::size_t e = 0; e < sum.size(); ++e) sum[e] += right[e];
        }
    return std::move(parts.front());
}

template std::vector<float> tree_sum(std::vector<std::vector<float>> parts);
template std::vector<double> tree_sum(std::vector<std::vector<double>> parts);

void GrowthRun::check_block(int first, int count) const {
    const int shares = options_.shares;
    if (!power_of_two(count) || count > shares || first < 0 || first % count != 0 || first + count > shares)
        throw std::invalid_argument("shares " + std::to_string(first) + "…" +
                                    std::to_string(first + count - 1) + " are not an aligned block of the " +
                                    std::to_string(shares) + " shares");
}

ShareGradient GrowthRun::share_gradient(int first, int count) {
    check_block(first, count);
    const int shares = options_.shares;
    if (pending_.tokens.empty()) pending_ = next_batch();
    const int windows = pending_.batch / shares, width = pending_.context + 1;
    std::vector<std::vector<float>> parts;
    std::vector<std::vector<double>> losses;
    for (int share = first; share < first + count; ++share) {
        const auto begin = pending_.tokens.begin() + static_cast<std::ptrdiff_t>(share) * windows * width;
        const Batch part{windows, pending_.context, std::vector<int>(begin, begin + windows * width)};
        losses.push_back({layered_forward(options_.model, parameters_, part, activations_, options_.path)});
        parts.emplace_back();
        layered_backward(options_.model, parameters_, part, activations_, parts.back(), options_.path);
    }
    return ShareGradient{first, count, tree_sum(std::move(parts)), tree_sum(std::move(losses)).front()};
}

double GrowthRun::apply_shares(std::vector<ShareGradient> blocks) {
    if (pending_.tokens.empty()) throw std::invalid_argument("no gradient was taken for this step");
    int next = 0;
    std::vector<std::vector<float>> parts;
    std::vector<std::vector<double>> losses;
    for (ShareGradient& block : blocks) {
        if (block.first != next || block.count != blocks.front().count ||
            block.gradient.size() != parameters_.size())
            throw std::invalid_argument("the gradients must be equal blocks of the " +
                                        std::to_string(options_.shares) + " shares, in order, each of " +
                                        std::to_string(parameters_.size()) + " numbers");
        next += block.count;
        losses.push_back({block.loss});
        parts.push_back(std::move(block.gradient));
    }
    if (next != options_.shares)
        throw std::invalid_argument("the gradients cover " + std::to_string(next) + " of the " +
                                    std::to_string(options_.shares) + " shares");
    gradients_ = tree_sum(std::move(parts));
    const float scale = 1.0f / static_cast<float>(options_.shares);
    for (float& g : gradients_) g *= scale;
    layered_optimizer_step(optimizer_, parameters_, gradients_);
    pending_ = Batch{};
    return tree_sum(std::move(losses)).front() / options_.shares;
}

double GrowthRun::held_out_copy_share() {
    if (held_out_passages_.empty()) held_out_passages_ = held_out_passages(options_.model, held_out_);
    return measure_copying(options_.model, parameters_, held_out_passages_).layers.back().induction_share;
}

GrowthMeasure GrowthRun::measure() const {
    GrowthMeasure out;
    out.step = steps_taken();
    LayeredActivations acts;
    out.held_out_loss = layered_forward(options_.model, parameters_, held_out_windows_, acts);
    out.probe = measure_copying(options_.model, parameters_, probe_);
    return out;
}

}  // namespace attention
