// optimizer.cpp: SGD and Adam, in PyTorch 1.13's single-tensor order of operations (see
// torch/optim/adam.py, _single_tensor_adam): moments in float32, bias corrections in double.
#include "learning/optimizer.hpp"

#include <cmath>
#include <stdexcept>
#include <utility>

namespace attention {

namespace {

constexpr std::pair<OptimizerKind, const char*> kNames[] = {{OptimizerKind::adam, "adam"},
                                                            {OptimizerKind::sgd, "sgd"}};

}  // namespace

std::string optimizer_name(OptimizerKind kind) {
    for (const auto& [named, name] : kNames)
        if (named == kind) return name;
    throw std::invalid_argument("unknown optimizer kind");
}

OptimizerKind parse_optimizer(const std::string& name) {
    std::string names;
    for (const auto& [kind, known] : kNames) {
        if (name == known) return kind;
        names += (names.empty() ? "" : ", ") + std::string(known);
    }
    throw std::invalid_argument("optimizer \"" + name + "\" is not one of " + names);
}

namespace {

void check_learning_rate(double learning_rate) {
    if (!(std::isfinite(learning_rate) && learning_rate > 0))
        throw std::invalid_argument("learning rate " + std::to_string(learning_rate) +
                                    " must be a finite number greater than 0");
}

}  // namespace

Optimizer::Optimizer(OptimizerSettings settings) : settings_(settings) {
    check_learning_rate(settings.learning_rate);
    if (!(settings.beta1 >= 0 && settings.beta1 < 1 && settings.beta2 >= 0 && settings.beta2 < 1))
        throw std::invalid_argument("Adam's betas must be in [0, 1)");
    if (!(settings.epsilon > 0)) throw std::invalid_argument("Adam's epsilon must be greater than 0");
}

void Optimizer::set_learning_rate(double learning_rate) {
    check_learning_rate(learning_rate);
    settings_.learning_rate = learning_rate;
}

void Optimizer::step(Parameters& parameters, const Parameters& gradients) {
    ++steps_;
    const auto targets = parameters.all();
    const auto slopes = gradients.all();
    if (settings_.kind == OptimizerKind::sgd) {
        const float rate = static_cast<float>(settings_.learning_rate);
        for (std::size_t n = 0; n < targets.size(); ++n)
            for (std::size_t e = 0; e < targets[n]->values.size(); ++e)
                targets[n]->values[e] -= rate * slopes[n]->values[e];
        return;
    }
    if (first_moment_.empty())
        for (const Matrix* m : targets) {
            first_moment_.emplace_back(m->values.size(), 0.0f);
            second_moment_.emplace_back(m->values.size(), 0.0f);
        }
    const float beta1 = static_cast<float>(settings_.beta1), beta2 = static_cast<float>(settings_.beta2);
    const float keep1 = static_cast<float>(1 - settings_.beta1),
                keep2 = static_cast<float>(1 - settings_.beta2);
    // The first steps' moments start at 0 and so are biased towards it; dividing by
    // 1 − βᵗ undoes that (Kingma and Ba, section 3).
    const double correction1 = 1 - std::pow(settings_.beta1, static_cast<double>(steps_));
    const float correction2_root =
        static_cast<float>(std::sqrt(1 - std::pow(settings_.beta2, static_cast<double>(steps_))));
    const float step_size = static_cast<float>(settings_.learning_rate / correction1);
    const float epsilon = static_cast<float>(settings_.epsilon);
    for (std::size_t n = 0; n < targets.size(); ++n) {
        float* value = targets[n]->values.data();
        const float* gradient = slopes[n]->values.data();
        float* m = first_moment_[n].data();
        float* s = second_moment_[n].data();
        for (std::size_t e = 0; e < targets[n]->values.size(); ++e) {
            m[e] = m[e] * beta1 + keep1 * gradient[e];
            s[e] = s[e] * beta2 + keep2 * gradient[e] * gradient[e];
            value[e] -= step_size * (m[e] / (std::sqrt(s[e]) / correction2_root + epsilon));
        }
    }
}

}  // namespace attention
