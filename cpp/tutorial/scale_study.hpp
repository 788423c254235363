// scale_study: the tutorial's "why divide by √d" demo and its generalisation: peak weight and
// entropy of softmax(q·kᵀ·scale) for random q and k, against head width, for three scales.
#pragma once

#include "attention/scale.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace attention {

struct ScaleStudyOptions {
    std::vector<int> widths{4, 8, 16, 32, 64, 128, 256};
    int T = 64;
    int draws = 1;
    bool causal = false;
    std::uint64_t seed = 0;
};

// One curve: statistics of the row distributions for one scale mode, one entry per width.
// "peak" is the mean over rows of each row's largest weight; the spread is the standard
// deviation across draws (0 for a single draw).
struct ScaleSeries {
    Scale scale;
    std::vector<double> peak_mean, peak_spread;
    std::vector<double> entropy_mean, entropy_spread;  // nats, mean over rows
};

struct ScaleStudy {
    ScaleStudyOptions options;
    ScaleSeries unscaled{Scale::none(), {}, {}, {}, {}};
    ScaleSeries inverse_sqrt_d{Scale::inverse_sqrt_d(), {}, {}, {}, {}};
    ScaleSeries inverse_d{Scale::inverse_d(), {}, {}, {}, {}};

    // The three curves, for code that treats them alike.
    std::array<ScaleSeries*, 3> each() { return {&unscaled, &inverse_sqrt_d, &inverse_d}; }
    std::array<const ScaleSeries*, 3> each() const { return {&unscaled, &inverse_sqrt_d, &inverse_d}; }
};

constexpr int kMaxStudyT = 1024;
constexpr int kMaxStudyDraws = 1000;
constexpr double kMaxStudyMultiplyAdds = 4e9;  // the budget for study_multiply_adds()

// The work a study costs: Σ over widths of T²·d·draws multiply-adds (the q·kᵀ products).
double study_multiply_adds(const std::vector<int>& widths, int T, int draws);

// torch.manual_seed(seed) once; then for each width in turn, for each draw:
// q = randn(T, d), k = randn(T, d), scores = q·kᵀ. With the defaults this is exactly the
// tutorial's scale demo (one draw per width, so the curve is a little bumpy).
ScaleStudy scale_study(const ScaleStudyOptions& options);

}  // namespace attention
