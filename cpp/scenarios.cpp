// scenarios.cpp: the tutorial's experiments on top of attention.cpp and torch_random.cpp.
#include "scenarios.hpp"

#include "products.hpp"
#include "torch_random.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <stdexcept>

namespace attention {

namespace {

// ---- small matrix helpers ------------------------------------------------------------------

// a: (n, m), b: (m, p) -> (n, p). Accumulated in double: these are inputs to the head, and
// keeping them close to exact keeps our rounding below torch's. The sums are products.hpp's
// register-blocked ones, in double: each term added in increasing order onto +0, as the plain
// loop adds them, so every bit is as before, in about 40% of the time (a map at T = 512,
// d = 64 spent a fifth of its time here).
Matrix matmul(const Matrix& a, const Matrix& b) {
    const std::vector<double> a_wide(a.values.begin(), a.values.end());  // (n, m)
    const std::vector<double> b_wide(b.values.begin(), b.values.end());  // (m, p)
    std::vector<double> sums(static_cast<std::size_t>(a.rows) * static_cast<std::size_t>(b.cols), 0.0);
    products::add_full_product(sums.data(), a_wide.data(), b_wide.data(), a.rows, a.cols, b.cols);
    Matrix out(a.rows, b.cols);
    std::transform(sums.begin(), sums.end(), out.values.begin(),
                   [](double x) { return static_cast<float>(x); });
    return out;
}

Matrix draw(TorchGenerator& generator, int rows, int cols, float multiplier = 1.0f) {
    Matrix m(rows, cols, generator.randn(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols)));
    if (multiplier != 1.0f)
        for (float& x : m.values) x *= multiplier;
    return m;
}

Matrix batch_slice(const std::vector<float>& values, int batch_index, int T, int d) {
    const auto begin = values.begin() + static_cast<std::ptrdiff_t>(batch_index) * T * d;
    return Matrix(T, d, std::vector<float>(begin, begin + static_cast<std::ptrdiff_t>(T) * d));
}

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

void require_in_range(const char* name, long long value, long long low, long long high) {
    if (value < low || value > high)
        throw std::invalid_argument(std::string(name) + " = " + std::to_string(value) + " is outside " +
                                    std::to_string(low) + "…" + std::to_string(high));
}

}  // namespace

// ---- the attention map ---------------------------------------------------------------------

Matrix sinusoidal_positions(int T, int d) {
    Matrix pe(T, d);
    for (int t = 0; t < T; ++t)
        for (int c = 0; c < d; ++c) {
            const int pair = c / 2;
            const double angle = t / std::pow(10000.0, 2.0 * pair / d);
            pe.row(t)[c] = static_cast<float>(c % 2 == 0 ? std::sin(angle) : std::cos(angle));
        }
    return pe;
}

Matrix rotary_positions(const Matrix& x) {
    if (x.cols % 2 != 0)
        throw std::invalid_argument("rope needs an even head width d (it turns pairs of columns); d = " +
                                    std::to_string(x.cols) + " is odd");
    const int half = x.cols / 2;
    Matrix rotated(x.rows, x.cols);
    for (int t = 0; t < x.rows; ++t) {
        const float* in = x.row(t);
        float* out = rotated.row(t);
        for (int i = 0; i < half; ++i) {
            // In double, rounded once: at t = 1000 a float32 angle would already be off by 3e-5.
            const double angle = t * std::pow(10000.0, -2.0 * i / x.cols);
            const double cos_angle = std::cos(angle), sin_angle = std::sin(angle);
            out[i] = static_cast<float>(in[i] * cos_angle - in[i + half] * sin_angle);
            out[i + half] = static_cast<float>(in[i + half] * cos_angle + in[i] * sin_angle);
        }
    }
    return rotated;
}

MapInputs map_inputs(const MapRecipe& recipe) {
    require_in_range("d", recipe.d, 1, kMaxMapWidth);
    if (recipe.positions == Positions::rope && recipe.d % 2 != 0)
        throw std::invalid_argument(
            "pos = rope needs an even head width d (it turns pairs of columns); d = " +
            std::to_string(recipe.d) + " is odd");
    MapInputs inputs;
    inputs.tokens = tokenize(recipe.text, recipe.tokens);
    const int T = static_cast<int>(std::min<std::size_t>(inputs.tokens.size(), kMaxMapTokens + 1));
    if (T == 0) throw std::invalid_argument("text has no tokens; type at least one character");
    if (T > kMaxMapTokens)
        throw std::invalid_argument("text has " + std::to_string(inputs.tokens.size()) +
                                    " tokens; the map shows at most " + std::to_string(kMaxMapTokens));
    const int d = recipe.d;

    TorchGenerator generator(recipe.seed);
    if (recipe.vectors == VectorMode::per_position) {
        inputs.x = draw(generator, T, d);
    } else {
        std::map<std::string, int> first_seen;
        std::vector<int> ids;
        for (const auto& token : inputs.tokens)
            ids.push_back(first_seen.emplace(token, static_cast<int>(first_seen.size())).first->second);
        const Matrix embedding = draw(generator, static_cast<int>(first_seen.size()), d);
        inputs.x = Matrix(T, d);
        for (int t = 0; t < T; ++t)
            std::copy_n(embedding.row(ids[static_cast<std::size_t>(t)]), d, inputs.x.row(t));
    }
    const float multiplier =
        recipe.init == Init::tutorial ? 0.5f : static_cast<float>(1.0 / std::sqrt(static_cast<double>(d)));
    const Matrix w_query = draw(generator, d, d, multiplier);
    const Matrix w_key = draw(generator, d, d, multiplier);
    if (recipe.positions == Positions::sinusoidal) {
        const Matrix pe = sinusoidal_positions(T, d);
        for (std::size_t i = 0; i < inputs.x.values.size(); ++i) inputs.x.values[i] += pe.values[i];
    }
    inputs.q = matmul(inputs.x, w_query);
    inputs.k = matmul(inputs.x, w_key);
    inputs.v = inputs.x;
    if (recipe.positions == Positions::rope) {
        inputs.q = rotary_positions(inputs.q);
        inputs.k = rotary_positions(inputs.k);
    }
    return inputs;
}

Intermediates head_at_detail(const Matrix& q, const Matrix& k, const Matrix& v, Scale scale, bool causal,
                             MapDetail detail) {
    switch (detail) {
        case MapDetail::all:
            return formula(q, k, v, scale, causal);
        case MapDetail::first_rows:
            return formula_first_rows(q, k, v, scale, causal, kWorkingRows);
        case MapDetail::weights_only:
            break;
    }
    return attention_weights(q, k, scale, causal);
}

AttentionMap attention_map(const MapRecipe& recipe, Scale scale, bool causal, MapDetail detail) {
    AttentionMap map;
    map.inputs = map_inputs(recipe);
    const MapInputs& in = map.inputs;
    map.head = head_at_detail(in.q, in.k, in.v, scale, causal, detail);
    map.stats = row_statistics(map.head.weights);
    return map;
}

double map_multiply_adds(int T, int d) {
    // A torch-exact normal draw (Box–Muller on mt19937 with torch's own log, sin and cos) takes
    // as long as about 120 multiply-adds; each weight's exp, its share of the row statistics
    // (a log) and its copy out about 40.
    constexpr double kPerDraw = 120.0, kPerWeight = 40.0;
    const double t = T, width = d;
    const double draws = t * width + 2 * width * width;  // x, Wq, Wk
    const double projections = 2 * t * width * width;    // q = x·Wq, k = x·Wk
    const double scores = t * t * width;                 // q·kᵀ
    const double working = kWorkingRows * t * width;     // the output of the first rows
    return kPerDraw * draws + projections + scores + kPerWeight * t * t + working;
}

// ---- the equivalence check -----------------------------------------------------------------

EquivalenceInputs tutorial_equivalence_inputs() {
    EquivalenceInputs inputs;
    TorchGenerator generator(0);
    const std::size_t count = static_cast<std::size_t>(inputs.batch * inputs.T * inputs.d);
    const std::vector<float> q = generator.randn(count), k = generator.randn(count),
                             v = generator.randn(count);
    for (int b = 0; b < inputs.batch; ++b) {
        inputs.q.push_back(batch_slice(q, b, inputs.T, inputs.d));
        inputs.k.push_back(batch_slice(k, b, inputs.T, inputs.d));
        inputs.v.push_back(batch_slice(v, b, inputs.T, inputs.d));
    }
    return inputs;
}

bool EquivalenceCase::ok() const {
    return formula_vs_fused < kEquivalenceTolerance && formula_vs_f64 < kEquivalenceTolerance &&
           (!has_torch || formula_vs_torch < kEquivalenceTolerance);
}

EquivalenceCase check_equivalence(const EquivalenceInputs& inputs, bool causal,
                                  const std::vector<float>& torch_output) {
    const int batch = static_cast<int>(inputs.q.size());
    if (batch == 0 || inputs.k.size() != inputs.q.size() || inputs.v.size() != inputs.q.size())
        throw std::invalid_argument(
            "equivalence inputs need the same number (at least 1) of q, k and v batches");
    for (std::size_t b = 1; b < inputs.q.size(); ++b)
        if (inputs.q[b].rows != inputs.q[0].rows || inputs.q[b].cols != inputs.q[0].cols ||
            inputs.v[b].cols != inputs.v[0].cols)
            throw std::invalid_argument("equivalence batch " + std::to_string(b) +
                                        " has another shape than batch 0");
    const std::size_t per_batch = inputs.v[0].values.size();
    if (!torch_output.empty() && torch_output.size() != per_batch * static_cast<std::size_t>(batch))
        throw std::invalid_argument("torch output has " + std::to_string(torch_output.size()) +
                                    " values; expected " +
                                    std::to_string(per_batch * static_cast<std::size_t>(batch)));

    // std::max(worst, NaN) keeps worst: a NaN anywhere must instead stick and fail the check.
    const auto record = [](double& worst, double difference) {
        if (!std::isnan(worst) && !(difference <= worst)) worst = difference;
    };
    EquivalenceCase result;
    result.causal = causal;
    result.has_torch = !torch_output.empty();
    for (int b = 0; b < batch; ++b) {
        const auto i = static_cast<std::size_t>(b);
        const Scale scale = Scale::inverse_sqrt_d();
        const Matrix mine = formula(inputs.q[i], inputs.k[i], inputs.v[i], scale, causal).output;
        const Matrix tiled = fused(inputs.q[i], inputs.k[i], inputs.v[i], scale, causal);
        const ReferenceF64 exact = reference_f64(inputs.q[i], inputs.k[i], inputs.v[i], scale, causal);
        for (std::size_t e = 0; e < mine.values.size(); ++e) {
            const double x = mine.values[e];
            record(result.formula_vs_fused, std::fabs(x - tiled.values[e]));
            record(result.formula_vs_f64, std::fabs(x - exact.output[e]));
            if (result.has_torch)
                record(result.formula_vs_torch, std::fabs(x - torch_output[i * per_batch + e]));
        }
    }
    return result;
}

std::string equivalence_line(const EquivalenceCase& result) {
    char line[128];
    std::snprintf(line, sizeof line, "causal=%-5s  max|mine - %s| = %.2e  %s",
                  result.causal ? "True" : "False", result.has_torch ? "torch" : "float64",
                  result.has_torch ? result.formula_vs_torch : result.formula_vs_f64,
                  result.ok() ? "OK" : "MISMATCH");
    return line;
}

// ---- the scale study -----------------------------------------------------------------------

double study_multiply_adds(const std::vector<int>& widths, int T, int draws) {
    double multiply_adds = 0.0;
    for (int d : widths) multiply_adds += static_cast<double>(T) * T * d * draws;
    return multiply_adds;
}

Limits limits() {
    return Limits{};
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
            const Matrix q = draw(generator, T, d), k = draw(generator, T, d);
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
