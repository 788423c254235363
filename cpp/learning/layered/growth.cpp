// growth.cpp: see growth.hpp.
#include "learning/layered/growth.hpp"

#include <stdexcept>
#include <string>
#include <utility>

namespace attention {

namespace {

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
    return options;
}

}  // namespace

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

double GrowthRun::step() {
    const long step = optimizer_.steps_taken();
    // Step s of the warm-up runs at (s + 1)/warmup of the rate, so its last step is at the full rate.
    if (step < options_.warmup)
        optimizer_.set_learning_rate(options_.optimizer.learning_rate * static_cast<double>(step + 1) /
                                     options_.warmup);
    if (step == options_.later_step) sampler_.set_random(options_.later_random);
    const Batch batch = sampler_.next();
    const double loss = layered_forward(options_.model, parameters_, batch, activations_, options_.path);
    layered_backward(options_.model, parameters_, batch, activations_, gradients_, options_.path);
    layered_optimizer_step(optimizer_, parameters_, gradients_);
    return loss;
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
