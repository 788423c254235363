// model.cpp: the one-head character model's forward pass, loss and hand-written gradients, split
// as llm.c splits gpt2_forward and gpt2_backward: forward() keeps the activations that backward()
// reads. The no-head baseline takes the same passes with the attention ones left out. See model.hpp for the
// model. All B·T positions of a batch are stacked into one (B·T, d) matrix for the projections; attention
// runs window by window, giving formula()'s weights and output bit for bit (causal_attention below), and goes
// back through backward_from_weights(). Every product is a register-blocked one from products.hpp, whose sums
// keep the plain loop's order: the fast code computes the very numbers the plain loops did.
#include "learning/model.hpp"

#include "attention/checks.hpp"
#include "attention/kernel/product_job.hpp"
#include "attention/statistics.hpp"
#include "learning/backward.hpp"
#include "tutorial/torch_random.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace attention {

namespace {

// out (n, m) = a (n, k) · b (k, m); each sum runs over k in order (cpp/attention/kernel/products.hpp).
Matrix multiply(const Matrix& a, const Matrix& b) {
    Matrix out(a.rows, b.cols);
    products::add_full_product_anywhere(out.values.data(), a.values.data(), b.values.data(), a.rows, a.cols,
                                        b.cols);
    return out;
}

// out (k, m) += aᵀ · b, with a (n, k) and b (n, m): the gradient of a weight matrix.
void add_transposed_times(Matrix& out, const Matrix& a, const Matrix& b) {
    products::add_transposed_product_anywhere(out.values.data(), a.values.data(), b.values.data(), a.rows,
                                              a.cols, b.cols);
}

// out (n, k) += a (n, m) · bᵀ, with b (k, m): sending a gradient back through x·b. b is
// transposed first so the products read along rows (a dot product per entry would be a serial
// float sum, which the compiler may not reorder into vector lanes).
void add_times_transposed(Matrix& out, const Matrix& a, const Matrix& b) {
    Matrix b_transposed(b.cols, b.rows);
    products::transpose(b_transposed.values.data(), b.values.data(), b.rows, b.cols);
    products::add_full_product_anywhere(out.values.data(), a.values.data(), b_transposed.values.data(),
                                        a.rows, a.cols, b.rows);
}

void require_shape(const Matrix& m, int rows, int cols, const char* name) {
    if (m.rows != rows || m.cols != cols)
        throw std::invalid_argument(std::string(name) + " is (" + std::to_string(m.rows) + ", " +
                                    std::to_string(m.cols) + "); the config needs (" + std::to_string(rows) +
                                    ", " + std::to_string(cols) + ")");
}

void require_parameter_shapes(const ModelConfig& config, const Parameters& p) {
    const Parameters expected = zero_parameters(config);
    for (int n = 0; n < Parameters::kCount; ++n)
        require_shape(*p.all()[static_cast<std::size_t>(n)],
                      expected.all()[static_cast<std::size_t>(n)]->rows,
                      expected.all()[static_cast<std::size_t>(n)]->cols,
                      Parameters::names()[static_cast<std::size_t>(n)]);
}

// x (B·T, d) = E[token] + P[position].
Matrix embed(const Parameters& p, const Batch& batch) {
    const int T = batch.context, d = p.embedding.cols;
    Matrix x(batch.batch * T, d);
    for (int b = 0; b < batch.batch; ++b)
        for (int t = 0; t < T; ++t) {
            const float* e_row = p.embedding.row(input_token(batch, b * T + t));
            const float* p_row = p.position.row(t);
            float* x_row = x.row(b * T + t);
            for (int c = 0; c < d; ++c) x_row[c] = e_row[c] + p_row[c];
        }
    return x;
}

// One window's causal attention: formula()'s weights and output bit for bit, without its other
// T×T intermediates, and visiting only the keys each query sees (cpp/attention/kernel/products.hpp says why
// leaving out the masked zeros changes nothing). Takes formula()'s checks on q, k and v.
struct WindowAttention {
    Matrix weights;  // (T, T), masked entries exactly 0
    Matrix output;   // (T, d_v)
    double scale = 1;
};

// formula()'s checks for a window the model built (so the shapes are right): the same verdict as
// validate_inputs(), which runs (for its message) only when a value is not finite or q·k could
// overflow. Returns the scale factor and max|v|.
std::pair<double, float> checked_window(const Matrix& q, const Matrix& k, const Matrix& v, Scale scale) {
    const float max_q = largest_magnitude(q), max_k = largest_magnitude(k), max_v = largest_magnitude(v);
    if (max_q <= FLT_MAX && max_k <= FLT_MAX && max_v <= FLT_MAX) {  // false for inf and NaN
        const double factor = scale_factor(scale, q.cols);
        const double bound = static_cast<double>(q.cols) * max_q * max_k * std::max(1.0, factor);
        if (bound <= static_cast<double>(FLT_MAX) / 4) return {factor, max_v};
    }
    return {validate_inputs(q, k, v, scale), max_v};
}

WindowAttention causal_attention(const Matrix& q, const Matrix& k, const Matrix& v, Scale scale) {
    const auto [factor, largest_value] = checked_window(q, k, v, scale);
    const int T = q.rows, d = q.cols, d_v = v.cols;
    // 1. scores q·kᵀ for the keys j <= i of each query (the rest are masked next).
    Matrix k_transposed(d, T);
    products::transpose(k_transposed.values.data(), k.values.data(), T, d);
    Matrix scores(T, T);
    products::add_product_anywhere(products::Product<float>{scores.values.data(), T, q.values.data(), d, 1,
                                                            k_transposed.values.data(), T},
                                   T, [&](int i, int rows) noexcept {
                                       return products::Range{0, std::min(T, i + rows), 0, d};
                                   });
    // 2, 3. mask and softmax: the formula's own code.
    WindowAttention result;
    result.weights = weights_from_scores(std::move(scores), factor, true).weights;
    result.scale = factor;
    // 4. the weighted sum of the values in double, held to ±max|v|, as formula() does it.
    const std::vector<double> weights(result.weights.values.begin(), result.weights.values.end());
    const std::vector<double> values(v.values.begin(), v.values.end());
    std::vector<double> sum(Matrix::element_count(T, d_v), 0.0);
    products::add_product_anywhere(
        products::Product<double>{sum.data(), d_v, weights.data(), T, 1, values.data(), d_v}, T,
        [&](int i, int rows) noexcept {
            return products::Range{0, d_v, 0, std::min(T, i + rows)};
        });
    const double bound = largest_value;
    result.output = Matrix(T, d_v);
    for (std::size_t e = 0; e < sum.size(); ++e)
        result.output.values[e] = static_cast<float>(std::clamp(sum[e], -bound, bound));
    return result;
}

// x = E[token] + P[position]: each row's gradient d_x (B·T, d) goes to its token's and its
// position's row of g.
void embedding_backward(const Matrix& d_x, const Batch& batch, Parameters& g) {
    const int T = batch.context, d = d_x.cols;
    for (int b = 0; b < batch.batch; ++b)
        for (int t = 0; t < T; ++t) {
            const float* d_x_row = d_x.row(b * T + t);
            float* e_row = g.embedding.row(input_token(batch, b * T + t));
            float* p_row = g.position.row(t);
            for (int c = 0; c < d; ++c) {
                e_row[c] += d_x_row[c];
                p_row[c] += d_x_row[c];
            }
        }
}

}  // namespace

void validate_config(const ModelConfig& config) {
    const auto require = [](int value, int low, int high, const char* name) {
        if (value < low || value > high)
            throw std::invalid_argument(std::string(name) + " = " + std::to_string(value) + " is outside " +
                                        std::to_string(low) + "…" + std::to_string(high));
    };
    require(config.vocabulary, 2, kMaxModelVocabulary, "vocabulary");
    require(config.context, 1, kMaxModelContext, "context");
    require(config.d, 1, kMaxModelWidth, "d");
    scale_factor(config.scale, config.d);  // throws on a bad custom factor
}

const std::array<const char*, Parameters::kCount>& Parameters::names() {
    static const std::array<const char*, kCount> names = {"embedding", "position", "query",      "key",
                                                          "value",     "output",   "unembedding"};
    return names;
}

std::array<Matrix*, Parameters::kCount> Parameters::all() {
    return {&embedding, &position, &query, &key, &value, &output, &unembedding};
}

std::array<const Matrix*, Parameters::kCount> Parameters::all() const {
    return {&embedding, &position, &query, &key, &value, &output, &unembedding};
}

Parameters zero_parameters(const ModelConfig& config) {
    validate_config(config);
    const int V = config.vocabulary, T = config.context, d = config.d, h = config.head ? d : 0;
    return {Matrix(V, d), Matrix(T, d), Matrix(h, h), Matrix(h, h), Matrix(h, h), Matrix(h, h), Matrix(d, V)};
}

Parameters initial_parameters(const ModelConfig& config, std::uint64_t seed) {
    validate_config(config);
    const int V = config.vocabulary, T = config.context, d = config.d;
    TorchGenerator generator(seed);
    // The multipliers as torch applies them: a Python float rounded to float32.
    const float half = static_cast<float>(1 / std::sqrt(2.0));
    const float width = static_cast<float>(1 / std::sqrt(static_cast<double>(d)));
    Parameters p;
    p.embedding = randn_matrix(generator, V, d, half);
    p.position = randn_matrix(generator, T, d, half);
    p.query = randn_matrix(generator, d, d, width);
    p.key = randn_matrix(generator, d, d, width);
    p.value = randn_matrix(generator, d, d, width);
    p.output = randn_matrix(generator, d, d, width);
    p.unembedding = randn_matrix(generator, d, V, width);
    if (!config.head)
        for (Matrix* m : {&p.query, &p.key, &p.value, &p.output}) *m = Matrix();
    return p;
}

double frobenius_norm(const Matrix& m) {
    double sum = 0;
    for (float x : m.values) sum += static_cast<double>(x) * x;
    return std::sqrt(sum);
}

namespace {

void require_batch(const ModelConfig& config, const Parameters& p, const Batch& batch) {
    validate_config(config);
    require_parameter_shapes(config, p);
    check_batch(batch, config.context, config.vocabulary);
}

// Passes 1 and 2 of the forward: x, its projections and each window's attention, into acts; the
// attention summary (mean entropy and peak over every row) into summary when it is non-null.
void attention_forward(const ModelConfig& config, const Parameters& p, const Batch& batch, Activations& acts,
                       AttentionSummary* summary) {
    const int B = batch.batch, T = batch.context;
    // 1. embed and project every position of the batch at once.
    acts.x = embed(p, batch);
    acts.q = multiply(acts.x, p.query);
    acts.k = multiply(acts.x, p.key);
    acts.v = multiply(acts.x, p.value);
    // 2. attention, window by window (its checks reject non-finite q, k, v: a diverged run).
    acts.heads = Matrix(B * T, config.d);
    acts.weights.clear();
    for (int b = 0; b < B; ++b) {
        WindowAttention head = causal_attention(rows_of(acts.q, b * T, T), rows_of(acts.k, b * T, T),
                                                rows_of(acts.v, b * T, T), config.scale);
        set_rows(acts.heads, b * T, head.output);
        if (summary) {  // a training step does not read the summary, and its logarithms cost
            const RowStatistics stats = row_statistics(head.weights);
            for (int t = 0; t < T; ++t) {
                summary->mean_entropy_nats += stats.entropy_nats[static_cast<std::size_t>(t)];
                summary->mean_peak_weight += stats.peak_weight[static_cast<std::size_t>(t)];
            }
        }
        acts.scale = head.scale;
        acts.weights.push_back(std::move(head.weights));
    }
    if (summary) {
        summary->mean_entropy_nats /= B * T;
        summary->mean_peak_weight /= B * T;
    }
}

}  // namespace

Evaluation forward(const ModelConfig& config, const Parameters& p, const Batch& batch, Activations* kept) {
    require_batch(config, p, batch);
    Activations local;
    Activations& acts = kept ? *kept : local;
    Evaluation result;
    if (config.head) {
        attention_forward(config, p, batch, acts, kept ? nullptr : &result.attention);
        // 3. residual, unembedding, loss.
        acts.h = multiply(acts.heads, p.output);
        for (std::size_t e = 0; e < acts.h.values.size(); ++e) acts.h.values[e] += acts.x.values[e];
    } else {
        acts.x = embed(p, batch);  // 1. and 3.: no head, so h = x
        acts.h = acts.x;
    }
    acts.probabilities = multiply(acts.h, p.unembedding);
    result.loss = cross_entropy(acts.probabilities, batch);
    return result;
}

void backward(const ModelConfig& config, const Parameters& p, const Batch& batch, const Activations& acts,
              Parameters& g) {
    require_batch(config, p, batch);
    require_parameter_shapes(config, g);
    const int B = batch.batch, T = batch.context, d = config.d;
    // Every weight gradient is (input)ᵀ·(gradient of its output); every input gradient is
    // (gradient of the output)·(weight)ᵀ. The passes of forward(), in reverse.
    for (Matrix* m : g.all()) std::fill(m->values.begin(), m->values.end(), 0.0f);
    // 3. loss, logits = h·U;  h = x + heads·Wo.
    Matrix d_logits = acts.probabilities;
    to_loss_gradient(d_logits, batch);
    add_transposed_times(g.unembedding, acts.h, d_logits);
    Matrix d_h(B * T, d);
    add_times_transposed(d_h, d_logits, p.unembedding);
    if (!config.head) {  // h = x
        embedding_backward(d_h, batch, g);
        return;
    }
    add_transposed_times(g.output, acts.heads, d_h);
    Matrix d_heads(B * T, d);
    add_times_transposed(d_heads, d_h, p.output);
    // 2. attention, window by window, from the forward's weights.
    Matrix d_q(B * T, d), d_k(B * T, d), d_v(B * T, d);
    for (int b = 0; b < B; ++b) {
        const AttentionGradients window = backward_from_weights(
            rows_of(acts.q, b * T, T), rows_of(acts.k, b * T, T), rows_of(acts.v, b * T, T),
            acts.weights[static_cast<std::size_t>(b)], acts.scale, rows_of(d_heads, b * T, T));
        set_rows(d_q, b * T, window.dq);
        set_rows(d_k, b * T, window.dk);
        set_rows(d_v, b * T, window.dv);
    }
    // 1. q, k, v = x·W;  x reaches the loss through them and through the residual.
    add_transposed_times(g.query, acts.x, d_q);
    add_transposed_times(g.key, acts.x, d_k);
    add_transposed_times(g.value, acts.x, d_v);
    Matrix d_x = d_h;
    add_times_transposed(d_x, d_q, p.query);
    add_times_transposed(d_x, d_k, p.key);
    add_times_transposed(d_x, d_v, p.value);
    embedding_backward(d_x, batch, g);
}

Evaluation evaluate(const ModelConfig& config, const Parameters& p, const Batch& batch,
                    Parameters* gradients) {
    if (!gradients) return forward(config, p, batch);
    Activations acts;
    const Evaluation result = forward(config, p, batch, &acts);
    backward(config, p, batch, acts, *gradients);
    return result;
}

HeadInputs head_inputs_for(const ModelConfig& config, const Parameters& p, const std::vector<int>& tokens) {
    Batch window;
    window.batch = 1;
    window.context = static_cast<int>(tokens.size());
    window.tokens = tokens;
    window.tokens.push_back(0);  // a target is never read here; it only completes the window
    validate_config(config);
    if (!config.head) throw std::invalid_argument("the model without a head has no q, k or v");
    require_parameter_shapes(config, p);
    check_batch(window, config.context, config.vocabulary);
    HeadInputs in;
    in.x = embed(p, window);
    in.q = multiply(in.x, p.query);
    in.k = multiply(in.x, p.key);
    in.v = multiply(in.x, p.value);
    return in;
}

Matrix attention_weights_for(const ModelConfig& config, const Parameters& p, const std::vector<int>& tokens) {
    const HeadInputs in = head_inputs_for(config, p, tokens);
    return formula(in.q, in.k, in.v, config.scale, true).weights;
}

}  // namespace attention
