// scale_study.cpp: fuzz_scale_study, the √d study on any options: refused exactly outside its
// documented limits, and its curves in range otherwise.
#include "tutorial/scale_study.hpp"
#include "oracle.hpp"
#include "targets/targets.hpp"

#include <climits>
#include <cmath>
#include <cstddef>
#include <string>

namespace fuzz {

namespace {

constexpr double kMaxStudyWork = 3e5;  // multiply-adds we are willing to pay per valid input

}  // namespace

void fuzz_scale_study(FuzzInput& in) {
    attention::ScaleStudyOptions options;
    options.causal = in.byte() & 1;
    options.T =
        int_from_byte(in.byte(), 1, 16,
                      {0, -1, attention::kMaxStudyT, attention::kMaxStudyT + 1, INT_MAX, INT_MIN, 64, 65});
    options.draws = int_from_byte(
        in.byte(), 1, 3,
        {0, -1, attention::kMaxStudyDraws, attention::kMaxStudyDraws + 1, INT_MAX, INT_MIN, 10});
    options.widths.clear();
    const int width_count = in.byte() % 6;
    for (int w = 0; w < width_count; ++w)
        options.widths.push_back(int_from_byte(
            in.byte(), 1, 64,
            {0, -1, -4096, attention::kMaxWidth, attention::kMaxWidth + 1, INT_MAX, INT_MIN, 256}));
    options.seed = seed_from(in);

    std::string problem;
    double work = 0;
    if (options.T < 1 || options.T > attention::kMaxStudyT) problem = "T outside 1…kMaxStudyT";
    if (options.draws < 1 || options.draws > attention::kMaxStudyDraws)
        problem = "draws outside 1…kMaxStudyDraws";
    if (options.widths.empty()) problem = "no widths";
    for (int d : options.widths) {
        if (d < 1 || d > attention::kMaxWidth) problem = "width outside 1…kMaxWidth";
    }
    work = attention::study_multiply_adds(options.widths, options.T, options.draws);
    if (problem.empty() && work > attention::kMaxStudyMultiplyAdds)
        problem = "more than kMaxStudyMultiplyAdds";
    if (problem.empty() && work > kMaxStudyWork) return;

    attention::ScaleStudy study;
    if (!returns_exactly_when_valid("scale_study", problem, [&] { study = attention::scale_study(options); }))
        return;
    require(study.unscaled.scale.mode == ScaleMode::none &&
                study.inverse_sqrt_d.scale.mode == ScaleMode::inverse_sqrt_d &&
                study.inverse_d.scale.mode == ScaleMode::inverse_d,
            "scale_study series are not none, 1/sqrt(d), 1/d");
    const std::size_t n = options.widths.size();
    for (const attention::ScaleSeries* each : study.each()) {
        const attention::ScaleSeries& series = *each;
        require(series.peak_mean.size() == n && series.peak_spread.size() == n &&
                    series.entropy_mean.size() == n && series.entropy_spread.size() == n,
                "scale_study series has the wrong length");
        for (std::size_t w = 0; w < n; ++w) {
            const double peak = series.peak_mean[w], entropy = series.entropy_mean[w];
            require(peak >= 1.0 / options.T - kRounding && peak <= 1.0 + kRounding,
                    "scale_study peak %g outside [1/T, 1]", peak);
            require(entropy >= 0 && entropy <= std::log(options.T) + kRounding,
                    "scale_study entropy %g outside [0, ln T]", entropy);
            for (double spread : {series.peak_spread[w], series.entropy_spread[w]}) {
                require(std::isfinite(spread) && spread >= 0, "scale_study spread %g", spread);
                require(options.draws > 1 || spread == 0, "scale_study spread %g for a single draw", spread);
            }
        }
    }
}

}  // namespace fuzz
