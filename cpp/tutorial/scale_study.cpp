// scale_study.cpp: one Q·Kᵀ per draw, softmaxed under each of the three scales.
#include "tutorial/scale_study.hpp"

#include "attention/checks.hpp"
#include "attention/formula.hpp"
#include "attention/statistics.hpp"
#include "tutorial/torch_random.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace attention {

namespace {

template <typename Number>
double mean(const std::vector<Number>& xs) {
    double sum = 0.0;
    for (Number x : xs) sum += x;
    return sum / static_cast<double>(xs.size());
}

// Sample standard deviation; 0 for a single draw (nothing to spread).
double spread(const std::vector<double>& xs) {
    if (xs.size() < 2) return 0.0;
    const double m = mean(xs);
    double sum = 0.0;
    for (double x : xs) sum += (x - m) * (x - m);
    return std::sqrt(sum / static_cast<double>(xs.size() - 1));
}

}  // namespace

double study_multiply_adds(const std::vector<int>& widths, int T, int draws) {
    double multiply_adds = 0.0;
    for (int d : widths) multiply_adds += static_cast<double>(T) * T * d * draws;
    return multiply_adds;
}

ScaleStudy scale_study(const ScaleStudyOptions& options) {
    require_in_range("T", options.T, 1, kMaxStudyT);
    require_in_range("draws", options.draws, 1, kMaxStudyDraws);
    if (options.widths.empty()) throw std::invalid_argument("widths is empty; give at least one head width");
    for (int d : options.widths) require_in_range("width", d, 1, kMaxWidth);
    const double multiply_adds = study_multiply_adds(options.widths, options.T, options.draws);
    if (multiply_adds > kMaxStudyMultiplyAdds)
        throw std::invalid_argument(
            "this study needs " + std::to_string(static_cast<long long>(multiply_adds)) +
            " multiply-adds; the limit is " + std::to_string(static_cast<long long>(kMaxStudyMultiplyAdds)) +
            " (use fewer draws, a smaller T or narrower widths)");

    ScaleStudy study;
    study.options = options;
    const auto series = study.each();
    const int T = options.T;
    TorchGenerator generator(options.seed);
    for (int d : options.widths) {
        // One mean-over-rows value per draw, for each series.
        std::array<std::vector<double>, series.size()> peaks, entropies;
        for (int draw_index = 0; draw_index < options.draws; ++draw_index) {
            const Matrix q = randn_matrix(generator, T, d), k = randn_matrix(generator, T, d);
            const Matrix raw = dot_products(q, k);
            for (std::size_t m = 0; m < series.size(); ++m) {
                const double factor = scale_factor(series[m]->scale, d);
                const RowStatistics stats =
                    row_statistics(weights_from_scores(raw, factor, options.causal).weights);
                peaks[m].push_back(mean(stats.peak_weight));
                entropies[m].push_back(mean(stats.entropy_nats));
            }
        }
        for (std::size_t m = 0; m < series.size(); ++m) {
            series[m]->peak_mean.push_back(mean(peaks[m]));
            series[m]->peak_spread.push_back(spread(peaks[m]));
            series[m]->entropy_mean.push_back(mean(entropies[m]));
            series[m]->entropy_spread.push_back(spread(entropies[m]));
        }
    }
    return study;
}

}  // namespace attention
