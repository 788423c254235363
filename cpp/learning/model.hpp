// model: a one-head, attention-only character model, its loss and every gradient by hand.
//
// For a window of T tokens t_0 … t_{T-1} and their next characters:
//   x      = E[t] + P[0..T)                 (T, d)  token embedding plus a learned position table
//   q,k,v  = x·Wq, x·Wk, x·Wv               (T, d)
//   a      = softmax(q·kᵀ·scale, causal)·v  (T, d)  the core's formula(), bit for bit
//   h      = x + a·Wo                       (T, d)  residual
//   logits = h·U                            (T, V)
//   loss   = mean over every position of the batch of −log softmax(logits)[next character]
// The gradients are written out pass by pass in model.cpp and checked against PyTorch
// autograd (tests/fixtures/model_gradients.json). It is deliberately this small: no MLP, no
// layer norm, no biases, one head whose scale is the experiment.
//
// The same model without its head (ModelConfig::head = false) is the baseline the head is
// measured against: h = x, logits = x·U, so only E, P and U remain (Wq, Wk, Wv and Wo are
// empty 0×0 matrices) and what it learns is the next character given this one and its position.
#pragma once

#include "attention/formula.hpp"
#include "learning/corpus.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace attention {

struct ModelConfig {
    int vocabulary = 65;
    int context = 64;                       // T: positions in the table, the longest window
    int d = 64;                             // model and head width
    Scale scale = Scale::inverse_sqrt_d();  // read only when head is true
    bool head = true;                       // false: the no-head baseline, h = x
};

// The limits a config must meet (std::invalid_argument otherwise).
constexpr int kMaxModelVocabulary = 4096;
constexpr int kMaxModelContext = 1024;
constexpr int kMaxModelWidth = 1024;
void validate_config(const ModelConfig& config);

struct Parameters {
    Matrix embedding;    // E  (V, d)
    Matrix position;     // P  (T, d)
    Matrix query;        // Wq (d, d), (0, 0) without a head
    Matrix key;          // Wk (d, d), (0, 0) without a head
    Matrix value;        // Wv (d, d), (0, 0) without a head
    Matrix output;       // Wo (d, d), (0, 0) without a head
    Matrix unembedding;  // U  (d, V)

    // The seven matrices in the order above (the order they are drawn and saved in).
    static constexpr int kCount = 7;
    static const std::array<const char*, kCount>& names();
    std::array<Matrix*, kCount> all();
    std::array<const Matrix*, kCount> all() const;
};

// Zeros of every parameter's shape (the head's four are (0, 0) when config.head is false).
Parameters zero_parameters(const ModelConfig& config);

// torch.manual_seed(seed), then one torch.randn per matrix in Parameters order, E and P times
// 1/√2 (so x has unit variance) and the rest times 1/√d (so x·W keeps it). Bit-exact with
// PyTorch's CPU generator (cpp/tutorial/torch_random.hpp). Without a head the four head
// matrices are still drawn, then dropped: E, P and U are the headed model's, draw for draw.
Parameters initial_parameters(const ModelConfig& config, std::uint64_t seed);

// How peaked the head's attention was, averaged over every query row of a batch (row 0 of a
// causal window always has one key, entropy 0 and peak 1; it is included).
struct AttentionSummary {
    double mean_entropy_nats = 0;
    double mean_peak_weight = 0;
};

struct Evaluation {
    double loss = 0;  // mean next-character cross-entropy, nats
    AttentionSummary attention;
};

// What forward() keeps for backward() (llm.c's ActivationTensors): every intermediate that a
// gradient formula reads, for all B·T positions of a batch.
// Without a head, q, k, v, weights and heads stay empty and h = x.
struct Activations {
    Matrix x;                     // (B·T, d) E[t] + P[position]
    Matrix q, k, v;               // (B·T, d) x·Wq, x·Wk, x·Wv
    std::vector<Matrix> weights;  // B windows' attention weights, (T, T) each, masked entries 0
    double scale = 1;             // the factor the scores were multiplied by
    Matrix heads;                 // (B·T, d) each window's attention output
    Matrix h;                     // (B·T, d) x + heads·Wo (x without a head)
    Matrix probabilities;         // (B·T, V) softmax of the logits h·U
};

// The batch's loss and attention summary. With activations non-null, also keeps in it what
// backward() needs, and leaves the summary at 0: a training step does not read it (it is 0
// without a head too: there is no attention to summarise). Throws
// std::invalid_argument on a token or shape outside the config, and when a value turned
// non-finite (a diverged run), naming where.
Evaluation forward(const ModelConfig& config, const Parameters& parameters, const Batch& batch,
                   Activations* activations = nullptr);

// d loss / d parameter for every parameter, into gradients (overwritten; it must have the
// parameters' shapes, e.g. from zero_parameters), from what forward() kept on the same batch.
void backward(const ModelConfig& config, const Parameters& parameters, const Batch& batch,
              const Activations& activations, Parameters& gradients);

// forward(), and with gradients non-null backward() into *gradients: one call for a training
// step (the summary is then 0) or a measurement.
Evaluation evaluate(const ModelConfig& config, const Parameters& parameters, const Batch& batch,
                    Parameters* gradients = nullptr);

// The head's inputs for one window of token ids (T ≤ context): x = E[t] + P[0..T) and its three
// projections, each (T, d). Throws std::invalid_argument on a token or length outside the config,
// and for a model without a head.
struct HeadInputs {
    Matrix x, q, k, v;
};
HeadInputs head_inputs_for(const ModelConfig& config, const Parameters& parameters,
                           const std::vector<int>& tokens);

// The head's weights (T, T) for one window of token ids (T ≤ context): what the page's map of
// a trained head shows. Throws std::invalid_argument for a model without a head.
Matrix attention_weights_for(const ModelConfig& config, const Parameters& parameters,
                             const std::vector<int>& tokens);

// √(Σ x²) over one matrix, in double.
double frobenius_norm(const Matrix& m);

}  // namespace attention
