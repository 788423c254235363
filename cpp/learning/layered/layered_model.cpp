// layered_model.cpp: the L-layer model's forward pass, loss and hand-written gradients, split as
// llm.c splits gpt2_forward and gpt2_backward. See layered_model.hpp for the model. All B·T
// positions of a batch are stacked into one (B·T, d) matrix for the projections; attention runs
// window by window, on each window's rows in place, and goes back through the one-head backward's
// passes (cpp/learning/attention_gradients.hpp).
//
// Every pass is a template on Fused, the path (layered_model.hpp's LayeredPath): false is the
// reference, whose products round each multiply and each add (-ffp-contract=off, CMakeLists.txt)
// and whose softmaxes take std::exp with double sums; true is the fast path, with fused
// multiply-adds in every product and the softmaxes' exponentials eight or sixteen at a time by the
// fused kernel's 2^x (cpp/attention/kernel/fused_kernel.hpp) with float sums.
#include "learning/layered/layered_model.hpp"

#include "attention/kernel/fused_kernel.hpp"
#include "attention/kernel/product_job.hpp"
#include "attention/scale.hpp"
#include "learning/attention_gradients.hpp"
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

// m as a zero (rows, cols) matrix, in the memory it already holds when that is enough: a training
// step then allocates nothing for its activations after the first.
void reset(Matrix& m, int rows, int cols) {
    m.rows = rows;
    m.cols = cols;
    m.values.assign(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols), 0.0f);
}

// Every product runs through product_job.hpp's add_product_anywhere: natively that is products.hpp's
// add_product itself; in the wasm trainer, the relaxed-SIMD module's where the engine has it.

// out (n, m) += a (n, k) · b (k, m).
template <bool Fused>
void add_product(float* out, const float* a, const float* b, int n, int k, int m) {
    products::add_product_anywhere<Fused>(products::Product<float>{out, m, a, k, 1, b, m}, n,
                                          [&](int, int) noexcept {
                                              return products::Range{0, m, 0, k};
                                          });
}

// out (k, m) += aᵀ·b with a (n, k) and b (n, m): the sum runs over a's rows.
template <bool Fused>
void add_transposed(float* out, const float* a, const float* b, int n, int k, int m) {
    products::add_product_anywhere<Fused>(products::Product<float>{out, m, a, 1, k, b, m}, k,
                                          [&](int, int) noexcept {
                                              return products::Range{0, m, 0, n};
                                          });
}

// out (n, k) += a (n, m) · bᵀ with b (k, m): a gradient sent back through x·b. b is transposed
// first so that the products read along rows.
template <bool Fused>
void add_times_transposed(float* out, const float* a, const float* b, int n, int k, int m) {
    std::vector<float> b_transposed(static_cast<std::size_t>(k) * static_cast<std::size_t>(m));
    products::transpose(b_transposed.data(), b, k, m);
    add_product<Fused>(out, a, b_transposed.data(), n, m, k);
}

void require_batch(const LayeredConfig& config, const std::vector<float>& parameters, const Batch& batch) {
    validate_layered_config(config);
    const std::size_t total = parameter_layout(config).total;
    if (parameters.size() != total)
        throw std::invalid_argument("the parameter buffer holds " + std::to_string(parameters.size()) +
                                    " numbers; the config needs " + std::to_string(total));
    check_batch(batch, config.context, config.vocabulary);
}

// The fast path's exponentials: out[j] = exp(x[j]·factor − shift) for j < n, which must not be
// above 0, as 2^(x·factor·log2 e − shift·log2 e) a vector at a time (the tail padded with −inf,
// which gives 0); returns their float sum.
float exponentials(float* out, const float* x, int n, float factor, float shift) {
    using namespace kernel;
    constexpr float kLog2e = 1.4426950408889634f;
    const Floats scale = splat(factor * kLog2e), offset = splat(shift * kLog2e);
    Floats sum{};
    int j = 0;
    for (; j + kLanes <= n; j += kLanes) {
        const Floats e = exp2_nonpositive(load(x + j) * scale - offset);
        store(out + j, e);
        sum += e;
    }
    if (j < n) {
        float tail[kLanes];
        std::fill(tail, tail + kLanes, -std::numeric_limits<float>::infinity());
        std::copy(x + j, x + n, tail);
        const Floats e = exp2_nonpositive(load(tail) * scale - offset);
        store(tail, e);
        std::copy(tail, tail + (n - j), out + j);
        sum += e;
    }
    float total = 0;
    for (int lane = 0; lane < kLanes; ++lane) total += sum[lane];
    return total;
}

// The first n scores of a row, scaled by factor and turned into softmax weights in place; the max
// is subtracted so exp stays finite.
template <bool Fused>
void softmax_row(float* row, int n, float factor) {
    float row_max = -std::numeric_limits<float>::infinity();
    for (int j = 0; j < n; ++j) row_max = std::max(row_max, row[j] *= factor);
    if constexpr (Fused) {
        const float inverse = 1.0f / exponentials(row, row, n, 1.0f, row_max);
        for (int j = 0; j < n; ++j) row[j] *= inverse;
    } else {
        double sum = 0;
        for (int j = 0; j < n; ++j) sum += static_cast<double>(row[j] = std::exp(row[j] - row_max));
        for (int j = 0; j < n; ++j) row[j] = static_cast<float>(row[j] / sum);
    }
}

// One window's causal attention: weights (T, T) with masked entries exactly 0, and
// output (T, d) += weights·v. q, k, v: (T, d) rows of the stacked matrices.
template <bool Fused>
void causal_attention(Matrix& weights, float* output, const float* q, const float* k, const float* v, int T,
                      int d, double factor) {
    // 1. scores q·kᵀ for the keys j <= i of each query (and a few after it, to fill the last
    //    vector: the mask below overwrites them).
    std::vector<float> k_transposed(static_cast<std::size_t>(d) * static_cast<std::size_t>(T));
    products::transpose(k_transposed.data(), k, T, d);
    reset(weights, T, T);
    products::add_product_anywhere<Fused>(
        products::Product<float>{weights.values.data(), T, q, d, 1, k_transposed.data(), T}, T,
        [&](int i, int rows) noexcept {
            return products::whole_vectors<float>(products::Range{0, std::min(T, i + rows), 0, d}, T);
        });
    // 2. scale, mask, softmax: masked keys stay 0.
    for (int i = 0; i < T; ++i) {
        softmax_row<Fused>(weights.row(i), i + 1, static_cast<float>(factor));
        std::fill(weights.row(i) + i + 1, weights.row(i) + T, 0.0f);
    }
    // 3. the weighted sum of the values, over the keys each row sees.
    products::add_product_anywhere<Fused>(
        products::Product<float>{output, d, weights.values.data(), T, 1, v, d}, T,
        [&](int i, int rows) noexcept {
            return products::Range{0, d, 0, std::min(T, i + rows)};
        });
}

// The fast path's row loss (loss.hpp's row_loss, the reference, sums in double): the row's
// exponentials a vector at a time, and their sum, in float.
double fused_row_loss(float* row, int V, int target) {
    const float row_max = *std::max_element(row, row + V);
    const float logit = row[target];
    const float sum = exponentials(row, row, V, 1.0f, row_max);
    const float inverse = 1.0f / sum;
    for (int j = 0; j < V; ++j) row[j] *= inverse;
    return static_cast<double>(row_max) + std::log(static_cast<double>(sum)) - static_cast<double>(logit);
}

// One layer's forward: from acts.input (filled by the caller), everything else of acts, and the
// stream after the layer into next (B·T, d).
template <bool Fused>
void layer_forward(const LayeredConfig& config, const float* p, const LayerSlots& slots, int B, int T,
                   double factor, LayerActivations& acts, Matrix& next) {
    const int N = B * T, d = config.d;
    const Matrix* h = &acts.input;
    if (config.layer_norm) {
        reset(acts.normed, N, d);
        acts.mean.assign(static_cast<std::size_t>(N), 0.0);
        acts.rstd.assign(static_cast<std::size_t>(N), 0.0);
        layer_norm_forward<float, Fused>(acts.normed.values.data(), acts.mean.data(), acts.rstd.data(),
                                         acts.input.values.data(), p + slots.norm_gain, p + slots.norm_bias,
                                         N, d);
        h = &acts.normed;
    }
    for (const auto& [projection, slot] :
         {std::make_pair(&acts.q, slots.query), std::make_pair(&acts.k, slots.key),
          std::make_pair(&acts.v, slots.value)}) {
        reset(*projection, N, d);
        add_product<Fused>(projection->values.data(), h->values.data(), p + slot, N, d, d);
    }
    reset(acts.heads, N, d);
    acts.weights.resize(static_cast<std::size_t>(B));
    for (int b = 0; b < B; ++b) {
        const std::size_t at = Matrix::index(b * T, 0, d);
        causal_attention<Fused>(acts.weights[static_cast<std::size_t>(b)], acts.heads.values.data() + at,
                                acts.q.values.data() + at, acts.k.values.data() + at,
                                acts.v.values.data() + at, T, d, factor);
    }
    next = acts.input;
    add_product<Fused>(next.values.data(), acts.heads.values.data(), p + slots.output, N, d, d);
}

template <bool Fused>
double forward_passes(const LayeredConfig& config, const std::vector<float>& parameters, const Batch& batch,
                      LayeredActivations& acts) {
    require_batch(config, parameters, batch);
    const ParameterLayout layout = parameter_layout(config);
    const float* p = parameters.data();
    const int B = batch.batch, T = batch.context, N = B * T, d = config.d;
    acts.scale = scale_factor(config.scale, d);
    acts.layers.resize(static_cast<std::size_t>(config.layers));
    // 1. x = E[token] + P[position], into the first layer's input (or the residual without layers).
    Matrix& x = acts.layers.empty() ? acts.residual : acts.layers.front().input;
    reset(x, N, d);
    for (int n = 0; n < N; ++n) {
        const float* e_row = p + layout.embedding + Matrix::index(input_token(batch, n), 0, d);
        const float* p_row = p + layout.position + Matrix::index(n % T, 0, d);
        for (int c = 0; c < d; ++c) x.row(n)[c] = e_row[c] + p_row[c];
    }
    // 2. the layers, each adding its head's output to the stream.
    for (std::size_t l = 0; l < acts.layers.size(); ++l) {
        Matrix& next = l + 1 < acts.layers.size() ? acts.layers[l + 1].input : acts.residual;
        layer_forward<Fused>(config, p, layout.layers[l], B, T, acts.scale, acts.layers[l], next);
    }
    // 3. logits and loss.
    reset(acts.probabilities, N, config.vocabulary);
    add_product<Fused>(acts.probabilities.values.data(), acts.residual.values.data(), p + layout.unembedding,
                       N, d, config.vocabulary);
    if constexpr (Fused)
        return mean_loss(acts.probabilities, batch, fused_row_loss);
    else
        return cross_entropy(acts.probabilities, batch);
}

// One layer's backward: buffers.d_x (B·T, d) is the gradient of the stream after the layer on
// entry and of the stream before it on exit; the layer's parameter gradients are added into g.
template <bool Fused>
void layer_backward(const LayeredConfig& config, const float* p, const LayerSlots& slots,
                    const LayerActivations& acts, int B, int T, double factor,
                    LayeredGradientBuffers& buffers, float* g) {
    const int N = B * T, d = config.d;
    const Matrix& h = config.layer_norm ? acts.normed : acts.input;
    Matrix &d_x = buffers.d_x, &d_heads = buffers.d_heads, &d_q = buffers.d_q, &d_k = buffers.d_k,
           &d_v = buffers.d_v, &d_h = buffers.d_h;
    for (Matrix* m : {&d_heads, &d_q, &d_k, &d_v, &d_h}) reset(*m, N, d);
    // x_out = x + heads·Wo: d_x passes on unchanged, and into the head through Wo.
    add_transposed<Fused>(g + slots.output, acts.heads.values.data(), d_x.values.data(), N, d, d);
    add_times_transposed<Fused>(d_heads.values.data(), d_x.values.data(), p + slots.output, N, d, d);
    // attention, window by window, from the forward's weights, into each window's rows.
    for (int b = 0; b < B; ++b) {
        const std::size_t at = Matrix::index(b * T, 0, d);
        attention_gradients<float, Fused>(
            acts.q.values.data() + at, acts.k.values.data() + at, acts.v.values.data() + at,
            acts.weights[static_cast<std::size_t>(b)].values.data(), static_cast<float>(factor),
            d_heads.values.data() + at, T, d, d, d_q.values.data() + at, d_k.values.data() + at,
            d_v.values.data() + at);
    }
    // q, k, v = h·W.
    const std::pair<const Matrix*, std::size_t> projections[] = {
        {&d_q, slots.query}, {&d_k, slots.key}, {&d_v, slots.value}};
    for (const auto& [d_projection, slot] : projections) {
        add_transposed<Fused>(g + slot, h.values.data(), d_projection->values.data(), N, d, d);
        add_times_transposed<Fused>(d_h.values.data(), d_projection->values.data(), p + slot, N, d, d);
    }
    // h = LN(x) (or x itself): the stream's gradient gains the normalisation's.
    if (!config.layer_norm) {
        for (std::size_t e = 0; e < d_x.values.size(); ++e) d_x.values[e] += d_h.values[e];
        return;
    }
    layer_norm_backward<float, Fused>(d_x.values.data(), g + slots.norm_gain, g + slots.norm_bias,
                                      d_h.values.data(), acts.input.values.data(), acts.mean.data(),
                                      acts.rstd.data(), p + slots.norm_gain, N, d);
}

template <bool Fused>
void backward_passes(const LayeredConfig& config, const std::vector<float>& parameters, const Batch& batch,
                     const LayeredActivations& acts, std::vector<float>& gradients) {
    require_batch(config, parameters, batch);
    const ParameterLayout layout = parameter_layout(config);
    const float* p = parameters.data();
    const int B = batch.batch, T = batch.context, N = B * T, d = config.d, V = config.vocabulary;
    gradients.assign(layout.total, 0.0f);
    float* g = gradients.data();
    // 3. loss: d logits = (softmax − one-hot) / N; logits = residual·U.
    LayeredGradientBuffers& buffers = acts.buffers;
    Matrix &d_logits = buffers.d_logits, &d_x = buffers.d_x;
    d_logits = acts.probabilities;
    to_loss_gradient(d_logits, batch);
    add_transposed<Fused>(g + layout.unembedding, acts.residual.values.data(), d_logits.values.data(), N, d,
                          V);
    reset(d_x, N, d);
    add_times_transposed<Fused>(d_x.values.data(), d_logits.values.data(), p + layout.unembedding, N, d, V);
    // 2. the layers in reverse.
    for (int l = config.layers - 1; l >= 0; --l)
        layer_backward<Fused>(config, p, layout.layers[static_cast<std::size_t>(l)],
                              acts.layers[static_cast<std::size_t>(l)], B, T, acts.scale, buffers, g);
    // 1. x = E[token] + P[position]: each row's gradient goes to its token's and its position's row.
    for (int n = 0; n < N; ++n)
        for (int c = 0; c < d; ++c) {
            g[layout.embedding + Matrix::index(input_token(batch, n), c, d)] += d_x.row(n)[c];
            g[layout.position + Matrix::index(n % T, c, d)] += d_x.row(n)[c];
        }
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
                       LayeredActivations& activations) {
    return forward_passes<false>(config, parameters, batch, activations);
}

double layered_forward(const LayeredConfig& config, const std::vector<float>& parameters, const Batch& batch,
                       LayeredActivations& activations, LayeredPath path) {
    return path == LayeredPath::fast ? forward_passes<true>(config, parameters, batch, activations)
                                     : forward_passes<false>(config, parameters, batch, activations);
}

void layered_backward(const LayeredConfig& config, const std::vector<float>& parameters, const Batch& batch,
                      const LayeredActivations& activations, std::vector<float>& gradients) {
    backward_passes<false>(config, parameters, batch, activations, gradients);
}

void layered_backward(const LayeredConfig& config, const std::vector<float>& parameters, const Batch& batch,
                      const LayeredActivations& activations, std::vector<float>& gradients,
                      LayeredPath path) {
    if (path == LayeredPath::fast)
        backward_passes<true>(config, parameters, batch, activations, gradients);
    else
        backward_passes<false>(config, parameters, batch, activations, gradients);
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
