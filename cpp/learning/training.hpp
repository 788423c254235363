// training: one training run of the character model on a text, step by step: the vocabulary,
// a held-out tail for measuring, the seeded sampler, the optimizer and the parameters, so that
// the native command and the page run the very same loop.
//
// The text is split once: the first 90% (at least one window) is sampled for training, the
// rest held out; the held-out loss and attention statistics are measured on up to
// `evaluation_windows` consecutive windows from it (from the training part when the text is
// too short to hold any out): 32 on the page, the whole tail (kWholeHeldOut) for
// `npm run train`. It is not a general trainer: no checkpoints, no schedules.
#pragma once

#include "learning/corpus.hpp"
#include "learning/model.hpp"
#include "learning/optimizer.hpp"

#include <cstdint>
#include <string>

namespace attention {

// evaluation_windows for every window the held-out tail holds.
constexpr int kWholeHeldOut = 1 << 30;

struct TrainingOptions {
    int context = 64;  // characters per window
    int d = 64;
    Scale scale = Scale::inverse_sqrt_d();
    bool head = true;  // false: the no-head baseline (model.hpp), whose scale is not read
    OptimizerSettings optimizer;
    int batch = 16;          // windows per step
    std::uint64_t seed = 0;  // initial parameters (torch.manual_seed) and batches (mt19937)
    int evaluation_windows = 32;
};

struct StepReport {
    long step = 0;                   // steps taken, counting this one
    double loss = 0;                 // this step's training batch, before the update
    double query_gradient_norm = 0;  // ‖d loss / d Wq‖ (Frobenius) on this batch
    double key_gradient_norm = 0;    // ‖d loss / d Wk‖
};

class TrainingRun {
  public:
    // Throws std::invalid_argument on a bad option or a text too short for one window.
    TrainingRun(const std::string& utf8_text, const TrainingOptions& options);
    // The same from a text already encoded (tokens: ids in vocabulary), for callers that train
    // several runs on one corpus.
    TrainingRun(Vocabulary vocabulary, const std::vector<int>& tokens, const TrainingOptions& options);

    StepReport step();
    // On the first `windows` held-out windows (all of them by default), 32 windows at a time so
    // that the whole tail fits in memory; the first 32 give the very numbers of one batch of 32.
    Evaluation evaluate(int windows = kWholeHeldOut) const;

    const Vocabulary& vocabulary() const { return vocabulary_; }
    const ModelConfig& config() const { return config_; }
    const Parameters& parameters() const { return parameters_; }
    const Batch& held_out() const { return held_out_; }
    long steps_taken() const { return optimizer_.steps_taken(); }

    // The token ids the text split into: sampled for training, and held out for measuring.
    struct Split {
        std::vector<int> training;
        std::vector<int> held_out;
    };

  private:
    Vocabulary vocabulary_;
    ModelConfig config_;
    Split parts_;
    Parameters parameters_;
    Parameters gradients_;
    Optimizer optimizer_;
    BatchSampler sampler_;
    Batch held_out_;
};

}  // namespace attention
