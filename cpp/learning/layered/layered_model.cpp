// layered_model.cpp: the L-layer model's forward pass, loss and hand-written gradients, split as
// llm.c splits gpt2_forward and gpt2_backward. See layered_model.hpp for the model. All B·T
// positions of a batch are stacked into one (B·T, d) matrix for the projections; attention runs
// window by window and goes back through the one-head backward_from_weights().
#include "learning/layered/layered_model.hpp"

#include "attention/kernel/products.hpp"
#include "attention/scale.hpp"
#include "learning/backward.hpp"
#include "learning/layered/layer_norm.hpp"
#include "learning/model.hpp"
#include "tutorial/torch_random.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

namespace attention {

namespace {

std::size_t index(int row, int col, int cols) {
    return static_cast<std::size_t>(row) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(col);
}

// out (n, m) += a (n, k) · b (k, m).
void add_product(float* out, const float* a, const float* b, int n, int k, int m) {
    products::add_full_product(out, a, b, n, k, m);
}

// out (n, k) += a (n, m) · bᵀ with b (k, m): a gradient sent back through x·b. b is transposed
// first so that the products read along rows.
void add_times_transposed(float* out, const float* a, const float* b, int n, int k, int m) {
    std::vector<float> b_transposed(static_cast<std::size_t>(k) * static_cast<std::size_t>(m));
    products::transpose(b_transposed.data(), b, k, m);
    products::add_full_product(out, a, b_transposed.data(), n, m, k);
}

void require_batch(const LayeredConfig& config, const std::vector<float>& parameters, const Batch& batch) {
    validate_layered_config(config);
    const std::size_t total = parameter_layout(config).total;
    if (parameters.size() != total)
        throw std::invalid_argument("the parameter buffer holds " + std::to_string(parameters.size()) +
                                    " numbers; the config needs " + std::to_string(total));
    check_batch(batch, config.context, config.vocabulary);
}

int input_token(const Batch& batch, int row) {
    const int T = batch.context;
    return batch.tokens[index(row / T, row % T, T + 1)];
}
int target_token(const Batch& batch, int row) {
    const int T = batch.context;
    return batch.tokens[index(row / T, row % T + 1, T + 1)];
}

// One window's causal attention: weights (T, T) with masked entries exactly 0, and
// output (T, d) += weights·v. q, k, v: (T, d) rows of the stacked matrices.
void causal_attention(Matrix& weights, float* output, const float* q, const float* k, const float* v, int T,
                      int d, double factor) {
    // 1. scores q·kᵀ for the keys j <= i of each query.
    std::vector<float> k_transposed(static_cast<std::size_t>(d) * static_cast<std::size_t>(T));
    products::transpose(k_transposed.data(), k, T, d);
    weights = Matrix(T, T);
    products::add_product(products::Product<float>{weights.values.data(), T, q, d, 1, k_transposed.data(), T},
                          T, [&](int i, int rows) noexcept {
                              return products::Range{0, std::min(T, i + rows), 0, d};
                          });
    // 2. scale, mask, softmax: the max is subtracted so exp stays finite; masked keys stay 0.
    const float scale = static_cast<float>(factor);
    for (int i = 0; i < T; ++i) {
        float* row = weights.row(i);
        float row_max = -std::numeric_limits<float>::infinity();
        for (int j = 0; j <= i; ++j) row_max = std::max(row_max, row[j] *= scale);
        double sum = 0;
        for (int j = 0; j <= i; ++j) sum += static_cast<double>(row[j] = std::exp(row[j] - row_max));
        for (int j = 0; j <= i; ++j) row[j] = static_cast<float>(row[j] / sum);
        std::fill(row + i + 1, row + T, 0.0f);
    }
    // 3. the weighted sum of the values, over the keys each row sees.
    products::add_product(products::Product<float>{output, d, weights.values.data(), T, 1, v, d}, T,
                          [&](int i, int rows) noexcept {
                              return products::Range{0, d, 0, std::min(T, i + rows)};
                          });
}

// Mean cross-entropy of logits (N, V) against the batch's targets, in double; turns the logits
// into their softmax in place.
double cross_entropy(Matrix& logits, const Batch& batch) {
    const int N = logits.rows, V = logits.cols;
    double total = 0;
    for (int n = 0; n < N; ++n) {
        float* row = logits.row(n);
        // −log softmax(z)[target] = max + log Σ exp(z − max) − z[target]: the max keeps exp finite.
        const float row_max = *std::max_element(row, row + V);
        double sum = 0;
        for (int j = 0; j < V; ++j) sum += std::exp(static_cast<double>(row[j] - row_max));
        total +=
            static_cast<double>(row_max) + std::log(sum) - static_cast<double>(row[target_token(batch, n)]);
        for (int j = 0; j < V; ++j)
            row[j] = static_cast<float>(std::exp(static_cast<double>(row[j] - row_max)) / sum);
    }
    if (!std::isfinite(total)) throw std::invalid_argument("the loss is not finite: the run diverged");
    return total / N;
}

// One layer's forward: from acts.input (filled by the caller), everything else of acts, and the
// stream after the layer into next (B·T, d).
void layer_forward(const LayeredConfig& config, const float* p, const LayerSlots& slots, int B, int T,
                   double factor, LayerActivations& acts, Matrix& next) {
    const int N = B * T, d = config.d;
    const Matrix* h = &acts.input;
    if (config.layer_norm) {
        acts.normed = Matrix(N, d);
        acts.mean.assign(static_cast<std::size_t>(N), 0.0);
        acts.rstd.assign(static_cast<std::size_t>(N), 0.0);
        layer_norm_forward(acts.normed.values.data(), acts.mean.data(), acts.rstd.data(),
                           acts.input.values.data(), p + slots.norm_gain, p + slots.norm_bias, N, d);
        h = &acts.normed;
    }
    acts.q = Matrix(N, d);
    acts.k = Matrix(N, d);
    acts.v = Matrix(N, d);
    add_product(acts.q.values.data(), h->values.data(), p + slots.query, N, d, d);
    add_product(acts.k.values.data(), h->values.data(), p + slots.key, N, d, d);
    add_product(acts.v.values.data(), h->values.data(), p + slots.value, N, d, d);
    acts.heads = Matrix(N, d);
    acts.weights.assign(static_cast<std::size_t>(B), Matrix());
    for (int b = 0; b < B; ++b) {
        const std::size_t at = index(b * T, 0, d);
        causal_attention(acts.weights[static_cast<std::size_t>(b)], acts.heads.values.data() + at,
                         acts.q.values.data() + at, acts.k.values.data() + at, acts.v.values.data() + at, T,
                         d, factor);
    }
    next = acts.input;
    add_product(next.values.data(), acts.heads.values.data(), p + slots.output, N, d, d);
}

}  // namespace

void validate_layered_config(const LayeredConfig& config) {
    validate_config(ModelConfig{config.vocabulary, config.context, config.d, config.scale});
    if (config.layers < 0 || config.layers > kMaxLayers)
        throw std::invalid_argument("layers = " + std::to_string(config.layers) + " is outside 0…" +
                                    std::to_string(kMaxLayers));
}

ParameterLayout parameter_layout(const LayeredConfig& config) {
    validate_layered_config(config);
    ParameterLayout layout;
    const auto add = [&layout](const std::string& name, int rows, int cols) {
        layout.tensors.push_back({name, rows, cols, layout.total});
        layout.total += static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
        return layout.tensors.back().offset;
    };
    const int V = config.vocabulary, T = config.context, d = config.d;
    layout.embedding = add("embedding", V, d);
    layout.position = add("position", T, d);
    for (int l = 1; l <= config.layers; ++l) {
        const std::string prefix = "layer" + std::to_string(l) + ".";
        LayerSlots slots;
        if (config.layer_norm) {
            slots.norm_gain = add(prefix + "norm_gain", 1, d);
            slots.norm_bias = add(prefix + "norm_bias", 1, d);
        }
        slots.query = add(prefix + "query", d, d);
        slots.key = add(prefix + "key", d, d);
        slots.value = add(prefix + "value", d, d);
        slots.output = add(prefix + "output", d, d);
        layout.layers.push_back(slots);
    }
    layout.unembedding = add("unembedding", d, V);
    return layout;
}

std::vector<float> layered_initial_parameters(const LayeredConfig& config, std::uint64_t seed) {
    const ParameterLayout layout = parameter_layout(config);
    std::vector<float> values(layout.total, 0.0f);
    TorchGenerator generator(seed);
    // The multipliers as torch applies them: a Python float rounded to float32.
    const float half = static_cast<float>(1 / std::sqrt(2.0));
    const float width = static_cast<float>(1 / std::sqrt(static_cast<double>(config.d)));
    for (const TensorSlot& slot : layout.tensors) {
        const bool gain = slot.name.find("norm_gain") != std::string::npos;
        if (gain || slot.name.find("norm_bias") != std::string::npos) {
            std::fill_n(values.begin() + static_cast<std::ptrdiff_t>(slot.offset), slot.cols,
                        gain ? 1.0f : 0.0f);
            continue;
        }
        const bool table = slot.name == "embedding" || slot.name == "position";
        const Matrix drawn = randn_matrix(generator, slot.rows, slot.cols, table ? half : width);
        std::copy(drawn.values.begin(), drawn.values.end(),
                  values.begin() + static_cast<std::ptrdiff_t>(slot.offset));
    }
    return values;
}

double layered_forward(const LayeredConfig& config, const std::vector<float>& parameters, const Batch& batch,
                       LayeredActivations& acts) {
    require_batch(config, parameters, batch);
    const ParameterLayout layout = parameter_layout(config);
    const float* p = parameters.data();
    const int B = batch.batch, T = batch.context, N = B * T, d = config.d;
    acts.scale = scale_factor(config.scale, d);
    // 1. x = E[token] + P[position].
    Matrix x(N, d);
    for (int n = 0; n < N; ++n) {
        const float* e_row = p + layout.embedding + index(input_token(batch, n), 0, d);
        const float* p_row = p + layout.position + index(n % T, 0, d);
        for (int c = 0; c < d; ++c) x.row(n)[c] = e_row[c] + p_row[c];
    }
    // 2. the layers, each adding its head's output to the stream.
    acts.layers.assign(static_cast<std::size_t>(config.layers), LayerActivations());
    for (std::size_t l = 0; l < acts.layers.size(); ++l) {
        acts.layers[l].input = std::move(x);
        layer_forward(config, p, layout.layers[l], B, T, acts.scale, acts.layers[l], x);
    }
    acts.residual = std::move(x);
    // 3. logits and loss.
    acts.probabilities = Matrix(N, config.vocabulary);
    add_product(acts.probabilities.values.data(), acts.residual.values.data(), p + layout.unembedding, N, d,
                config.vocabulary);
    return cross_entropy(acts.probabilities, batch);
}

namespace {

// One layer's backward: d_x (B·T, d) is the gradient of the stream after the layer on entry and
// of the stream before it on exit; the layer's parameter gradients are added into g.
void layer_backward(const LayeredConfig& config, const float* p, const LayerSlots& slots,
                    const LayerActivations& acts, int B, int T, double factor, Matrix& d_x, float* g) {
    const int N = B * T, d = config.d;
    const Matrix& h = config.layer_norm ? acts.normed : acts.input;
    // x_out = x + heads·Wo: d_x passes on unchanged, and into the head through Wo.
    products::add_transposed_product(g + slots.output, acts.heads.values.data(), d_x.values.data(), N, d, d);
    Matrix d_heads(N, d);
    add_times_transposed(d_heads.values.data(), d_x.values.data(), p + slots.output, N, d, d);
    // attention, window by window, from the forward's weights.
    Matrix d_q(N, d), d_k(N, d), d_v(N, d);
    for (int b = 0; b < B; ++b) {
        const AttentionGradients window = backward_from_weights(
            rows_of(acts.q, b * T, T), rows_of(acts.k, b * T, T), rows_of(acts.v, b * T, T),
            acts.weights[static_cast<std::size_t>(b)], factor, rows_of(d_heads, b * T, T));
        set_rows(d_q, b * T, window.dq);
        set_rows(d_k, b * T, window.dk);
        set_rows(d_v, b * T, window.dv);
    }
    // q, k, v = h·W.
    const std::pair<const Matrix*, std::size_t> projections[] = {
        {&d_q, slots.query}, {&d_k, slots.key}, {&d_v, slots.value}};
    Matrix d_h(N, d);
    for (const auto& [d_projection, slot] : projections) {
        products::add_transposed_product(g + slot, h.values.data(), d_projection->values.data(), N, d, d);
        add_times_transposed(d_h.values.data(), d_projection->values.data(), p + slot, N, d, d);
    }
    // h = LN(x) (or x itself): the stream's gradient gains the normalisation's.
    if (!config.layer_norm) {
        for (std::size_t e = 0; e < d_x.values.size(); ++e) d_x.values[e] += d_h.values[e];
        return;
    }
    layer_norm_backward(d_x.values.data(), g + slots.norm_gain, g + slots.norm_bias, d_h.values.data(),
                        acts.input.values.data(), acts.mean.data(), acts.rstd.data(), p + slots.norm_gain, N,
                        d);
}

}  // namespace

void layered_backward(const LayeredConfig& config, const std::vector<float>& parameters, const Batch& batch,
                      const LayeredActivations& acts, std::vector<float>& gradients) {
    require_batch(config, parameters, batch);
    const ParameterLayout layout = parameter_layout(config);
    const float* p = parameters.data();
    const int B = batch.batch, T = batch.context, N = B * T, d = config.d, V = config.vocabulary;
    gradients.assign(layout.total, 0.0f);
    float* g = gradients.data();
    // 3. loss: d logits = (softmax − one-hot) / N; logits = residual·U.
    Matrix d_logits = acts.probabilities;
    for (int n = 0; n < N; ++n) {
        float* row = d_logits.row(n);
        for (int j = 0; j < V; ++j) row[j] /= static_cast<float>(N);
        row[target_token(batch, n)] -= 1.0f / static_cast<float>(N);
    }
    products::add_transposed_product(g + layout.unembedding, acts.residual.values.data(),
                                     d_logits.values.data(), N, d, V);
    Matrix d_x(N, d);
    add_times_transposed(d_x.values.data(), d_logits.values.data(), p + layout.unembedding, N, d, V);
    // 2. the layers in reverse.
    for (int l = config.layers - 1; l >= 0; --l)
        layer_backward(config, p, layout.layers[static_cast<std::size_t>(l)],
                       acts.layers[static_cast<std::size_t>(l)], B, T, acts.scale, d_x, g);
    // 1. x = E[token] + P[position]: each row's gradient goes to its token's and its position's row.
    for (int n = 0; n < N; ++n)
        for (int c = 0; c < d; ++c) {
            g[layout.embedding + index(input_token(batch, n), c, d)] += d_x.row(n)[c];
            g[layout.position + index(n % T, c, d)] += d_x.row(n)[c];
        }
}

void layered_optimizer_step(Optimizer& optimizer, std::vector<float>& parameters,
                            std::vector<float>& gradients) {
    if (parameters.size() != gradients.size())
        throw std::invalid_argument("parameters and gradients differ in size");
    // The optimizer steps a Parameters (seven matrices); the flat buffers ride in the first, the
    // other six stay empty, and the vectors are moved in and out, never copied.
    const int count = static_cast<int>(parameters.size());
    Parameters values, slopes;
    values.embedding = Matrix(1, count, std::move(parameters));
    slopes.embedding = Matrix(1, count, std::move(gradients));
    optimizer.step(values, slopes);
    parameters = std::move(values.embedding.values);
    gradients = std::move(slopes.embedding.values);
}

}  // namespace attention
