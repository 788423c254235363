// growth: one run that grows a copying head, step by step: the layered model, the snippet
// sampler, Adam, and the measurements taken along the way (the held-out loss on natural text and
// the copying scores on repeated random strings), so the native tool and, later, the page run
// the very same loop.
//
// The text is split as the one-head training splits it (cpp/learning/training.hpp): the first
// 90% trains, the rest is held out. The held-out loss is read on `held_out_windows` windows at
// evenly spaced starts across the held-out tail; the probe is `probe_strings` random strings of
// `probe_period` characters shown twice, drawn once from `probe_seed`, the same in every run.
// It is not a general trainer: no checkpoints, and no schedule but a linear warm-up.
#pragma once

#include "learning/corpus.hpp"
#include "learning/layered/induction.hpp"
#include "learning/layered/layered_model.hpp"
#include "learning/layered/snippet_batches.hpp"
#include "learning/optimizer.hpp"

#include <cstdint>
#include <vector>

namespace attention {

struct GrowthOptions {
    LayeredConfig model;     // vocabulary is taken from the text
    SnippetOptions batches;  // context must equal model.context; vocabulary is taken from the text
    OptimizerSettings optimizer;
    int warmup = 0;       // the learning rate rises linearly over the first `warmup` steps (0: constant)
    int later_step = -1;  // from this step on (−1: never) batches.random becomes later_random
    int later_random = 0;
    LayeredPath path = LayeredPath::reference;  // the training steps' (every measure takes the reference)
    std::uint64_t seed = 0;  // initial parameters (torch.manual_seed) and batches (mt19937)
    int held_out_windows = 64;
    int probe_strings = 32;
    int probe_period = 40;
    std::uint64_t probe_seed = 12345;
};

struct GrowthMeasure {
    long step = 0;
    double held_out_loss = 0;  // nats, natural text
    CopyMeasure probe;         // on the repeated random strings
};

class GrowthRun {
  public:
    // tokens: the text encoded in vocabulary. Throws std::invalid_argument on a bad option or a
    // text too short to hold out one window.
    GrowthRun(const Vocabulary& vocabulary, const std::vector<int>& tokens, GrowthOptions options);

    double step();  // one Adam step; returns the batch's loss before it
    GrowthMeasure measure() const;

    const LayeredConfig& config() const { return options_.model; }
    const std::vector<float>& parameters() const { return parameters_; }
    const std::vector<int>& held_out_tokens() const { return held_out_; }
    long steps_taken() const { return optimizer_.steps_taken(); }

  private:
    GrowthOptions options_;
    std::vector<int> held_out_;
    SnippetSampler sampler_;
    std::vector<float> parameters_, gradients_;
    Optimizer optimizer_;
    Batch held_out_windows_;
    std::vector<std::vector<int>> probe_;
    LayeredActivations activations_;
};

// Windows of context + 1 tokens at `count` evenly spaced starts from 0 to size − context − 1
// (torch.linspace's, rounded down), so they cover the whole of tokens.
Batch spaced_windows(const std::vector<int>& tokens, int count, int context);

}  // namespace attention
