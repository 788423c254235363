// map.cpp: the map's inputs drawn as the tutorial draws them, then the head.
#include "tutorial/map.hpp"

#include "attention/checks.hpp"
#include "attention/kernel/products.hpp"
#include "tutorial/torch_random.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace attention {

namespace {

// a: (n, m), b: (m, p) -> (n, p). Accumulated in double: these are inputs to the head, and
// keeping them close to exact keeps our rounding below torch's. The sums are products.hpp's
// register-blocked ones, in double: each term added in increasing order onto +0, as the plain
// loop adds them, so every bit is as the plain loop's, in a fraction of its time.
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

}  // namespace

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
        inputs.x = randn_matrix(generator, T, d);
    } else {
        std::map<std::string, int> first_seen;
        std::vector<int> ids;
        for (const auto& token : inputs.tokens)
            ids.push_back(first_seen.emplace(token, static_cast<int>(first_seen.size())).first->second);
        const Matrix embedding = randn_matrix(generator, static_cast<int>(first_seen.size()), d);
        inputs.x = Matrix(T, d);
        for (int t = 0; t < T; ++t)
            std::copy_n(embedding.row(ids[static_cast<std::size_t>(t)]), d, inputs.x.row(t));
    }
    const float multiplier =
        recipe.init == Init::tutorial ? 0.5f : static_cast<float>(1.0 / std::sqrt(static_cast<double>(d)));
    const Matrix w_query = randn_matrix(generator, d, d, multiplier);
    const Matrix w_key = randn_matrix(generator, d, d, multiplier);
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

}  // namespace attention
