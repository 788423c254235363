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
//
// A step can also be taken in shares, as the page's workers take it (data parallelism): the
// batch's windows split into `shares` equal parts (a power of two), each part's gradient computed
// on its own, and the parts added pairwise as a balanced tree, (g0 + g1) + (g2 + g3), then scaled
// by 1/shares (exact: a power of two). A worker that takes an aligned block of shares returns its
// block's subtree, so the sum, and every parameter after it, is the same bit for bit whether one
// worker takes all the shares or several take a block each. Each worker keeps its own run with
// the same seed: it draws the whole batch, so its sampler stays in step, and takes its block.
// step() is the whole batch at once: another order of additions, so it agrees with a step in
// shares to rounding, not bit for bit.
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
    int shares = 4;  // of the batch, for the step in shares (a power of two dividing the batch)
};

// The gradient of an aligned block of a step's shares, before the 1/shares scale, and the sum of
// those shares' mean losses.
struct ShareGradient {
    int first = 0, count = 0;  // the block: shares [first, first + count)
    std::vector<float> gradient;
    double loss = 0;
};

// The parts added pairwise as a balanced tree, level by level: (p0 + p1) + (p2 + p3), …; their
// count must be a power of two. Throws std::invalid_argument on an empty list, a count that is
// not a power of two or parts of different sizes. For float (gradients) and double (losses).
template <typename Real>
std::vector<Real> tree_sum(std::vector<std::vector<Real>> parts);

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

    // The step in shares (above). share_gradient draws the step's batch (on its first call of a
    // step) and returns the block [first, first + count), which must be aligned: count a power of
    // two dividing shares, first a multiple of it. apply_shares takes the blocks of every worker,
    // in share order, covering all the shares: it adds them as the tree does, scales by
    // 1/shares and takes one Adam step; it returns the batch's mean loss. step_in_shares is both
    // on one worker. Each throws std::invalid_argument on a block or a list that does not fit,
    // and apply_shares when no gradient was taken for this step.
    ShareGradient share_gradient(int first, int count);
    void check_block(int first, int count) const;  // throws as share_gradient does on a bad block
    double apply_shares(std::vector<ShareGradient> blocks);
    double step_in_shares() { return apply_shares({share_gradient(0, options_.shares)}); }

    // The last layer's share of held-out second-copy rows that peak on the copy (the second half of
    // kFormedShare's test), on passages drawn once per run.
    double held_out_copy_share();

    const LayeredConfig& config() const { return options_.model; }
    const std::vector<float>& parameters() const { return parameters_; }
    const std::vector<int>& held_out_tokens() const { return held_out_; }
    long steps_taken() const { return optimizer_.steps_taken(); }

  private:
    Batch next_batch();  // the step's learning rate and mix, then the sampler's batch

    GrowthOptions options_;
    std::vector<int> held_out_;
    SnippetSampler sampler_;
    std::vector<float> parameters_, gradients_;
    Optimizer optimizer_;
    Batch held_out_windows_;
    std::vector<std::vector<int>> probe_;
    LayeredActivations activations_;
    Batch pending_;  // the batch of a step in shares, between share_gradient and apply_shares
    std::vector<std::vector<int>> held_out_passages_;  // drawn on the first held_out_copy_share()
};

// A copying head has formed when the last layer's induction score on the probe's repeated random
// strings is at least kFormedScore and, of the second-copy rows of held-out passages shown twice
// (held_out_passages), at least kFormedShare peak on the copy: what attention-grow and the page
// both call formed (docs/learning.md).
constexpr double kFormedScore = 0.3;
constexpr double kFormedShare = 0.6;

// 400 passages of the held-out tokens, 20 to 64 characters long (at most half the context), each
// to be shown twice (spaced_passages, cpp/learning/layered/induction.hpp).
std::vector<std::vector<int>> held_out_passages(const LayeredConfig& config,
                                                const std::vector<int>& held_out);

// Windows of context + 1 tokens at `count` evenly spaced starts from 0 to size − context − 1
// (torch.linspace's, rounded down), so they cover the whole of tokens.
Batch spaced_windows(const std::vector<int>& tokens, int count, int context);

}  // namespace attention
