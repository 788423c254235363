// optimizer: plain SGD and Adam over the model's parameters, written to follow PyTorch 1.13's
// torch.optim.SGD (no momentum) and torch.optim.Adam (no weight decay, not amsgrad) step for
// step, so a run can be compared with PyTorch's. Nothing else: no clipping, and a schedule is the
// caller's (set_learning_rate between steps).
#pragma once

#include "learning/model.hpp"

#include <string>
#include <vector>

namespace attention {

enum class OptimizerKind { sgd, adam };

struct OptimizerSettings {
    OptimizerKind kind = OptimizerKind::adam;
    double learning_rate = 1e-2;
    double beta1 = 0.9;     // Adam only
    double beta2 = 0.999;   // Adam only
    double epsilon = 1e-8;  // Adam only
};

// The optimizer's name as the command line and the page write it ("adam", "sgd"), and back:
// parse_optimizer throws std::invalid_argument naming every known name for any other.
std::string optimizer_name(OptimizerKind kind);
OptimizerKind parse_optimizer(const std::string& name);

class Optimizer {
  public:
    // Throws std::invalid_argument on a learning rate that is not finite and positive, or betas
    // outside [0, 1).
    explicit Optimizer(OptimizerSettings settings);
    // parameters -= the update for gradients (same shapes). Adam's moments are kept per
    // element and sized on the first step.
    void step(Parameters& parameters, const Parameters& gradients);
    long steps_taken() const { return steps_; }
    // The rate of the steps from now on (a schedule's); throws as the constructor does on a bad one.
    void set_learning_rate(double learning_rate);

  private:
    OptimizerSettings settings_;
    long steps_ = 0;
    std::vector<std::vector<float>> first_moment_;   // one per parameter matrix, Adam only
    std::vector<std::vector<float>> second_moment_;  // one per parameter matrix, Adam only
};

}  // namespace attention
