// layered_model: the one-head character model (cpp/learning/model.hpp) generalised to L layers of
// one attention head each, with an optional pre-LayerNorm, its loss and every gradient by hand.
//
// For a window of T tokens t_0 … t_{T-1} and their next characters:
//   x      = E[t] + P[0..T)                           (T, d)  token embedding plus learned positions
//   for each layer l = 1 … L:
//     h    = LN_l(x) with layer_norm, else x          (T, d)  cpp/learning/layered/layer_norm.hpp
//     q,k,v = h·Wq_l, h·Wk_l, h·Wv_l                  (T, d)
//     x    = x + softmax(q·kᵀ·scale, causal)·v·Wo_l   (T, d)  the residual stream
//   logits = x·U                                      (T, V)  no final LN, no output bias
//   loss   = mean over every position of the batch of −log softmax(logits)[next character]
// L = 0 is the headless baseline. The spec, and the PyTorch autograd numbers the gradients are
// checked against, are tests/fixtures/make_layered_fixtures.py's. Like llm.c, every parameter
// lives in one flat buffer (parameter_layout() names its pieces) and so does every gradient.
// It is not a transformer: no MLP, no biases in the projections, one head per layer.
#pragma once

#include "attention/formula.hpp"
#include "learning/corpus.hpp"
#include "learning/optimizer.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace attention {

struct LayeredConfig {
    int vocabulary = 65;
    int context = 128;  // T: rows of the position table, the longest window
    int d = 64;         // model and head width
    int layers = 2;
    bool layer_norm = true;  // pre-LN on each layer's input
    Scale scale = Scale::inverse_sqrt_d();
};

constexpr int kMaxLayers = 8;
// Throws std::invalid_argument on a size outside the one-head model's limits or 0…kMaxLayers layers.
void validate_layered_config(const LayeredConfig& config);

// One named piece of the flat parameter buffer.
struct TensorSlot {
    std::string name;  // "embedding", "position", "layer1.norm_gain", …, "layer1.query", …, "unembedding"
    int rows = 0, cols = 0;
    std::size_t offset = 0;  // into the flat buffer
};

// Where each layer's pieces start in the flat buffer (norm_gain and norm_bias only with layer_norm).
struct LayerSlots {
    std::size_t norm_gain = 0, norm_bias = 0, query = 0, key = 0, value = 0, output = 0;
};

struct ParameterLayout {
    std::vector<TensorSlot> tensors;  // in the fixtures' (and the draw's) order
    std::vector<LayerSlots> layers;
    std::size_t embedding = 0, position = 0, unembedding = 0;
    std::size_t total = 0;  // floats in the buffer
};
ParameterLayout parameter_layout(const LayeredConfig& config);

// torch.manual_seed(seed), then torch.randn for E and P (times 1/√2) and for each layer's Wq, Wk,
// Wv, Wo and for U (times 1/√d), in the layout's order; gains 1 and biases 0, not drawn. With
// L = 1 and no LN these are the one-head model's initial_parameters, bit for bit.
std::vector<float> layered_initial_parameters(const LayeredConfig& config, std::uint64_t seed);

// What layered_forward() keeps for layered_backward() (llm.c's ActivationTensors), per layer.
struct LayerActivations {
    Matrix input;                 // (B·T, d) the residual stream entering the layer
    Matrix normed;                // (B·T, d) LN(input); empty without layer norm (h = input)
    std::vector<double> mean;     // (B·T) LN's row means
    std::vector<double> rstd;     // (B·T) LN's 1/√(var + eps)
    Matrix q, k, v;               // (B·T, d) h·Wq, h·Wk, h·Wv
    std::vector<Matrix> weights;  // B windows' attention weights, (T, T) each, masked entries 0
    Matrix heads;                 // (B·T, d) each window's softmax(…)·v
};
// The backward pass's working matrices (llm.c's grads_acts), kept beside the activations only so
// that a training step reuses their memory: nothing in them outlives a call.
struct LayeredGradientBuffers {
    Matrix d_logits;                          // (B·T, V)
    Matrix d_x, d_heads, d_q, d_k, d_v, d_h;  // (B·T, d) each
};
struct LayeredActivations {
    std::vector<LayerActivations> layers;
    Matrix residual;       // (B·T, d) the stream after the last layer
    Matrix probabilities;  // (B·T, V) softmax of the logits residual·U
    double scale = 1;      // the factor the scores were multiplied by
    mutable LayeredGradientBuffers buffers;
};

// Two ways to compute the passes, as llm.c keeps a reference and a fast variant. The reference
// rounds every multiply and every add on its own, in the plain loops' order, with std::exp and
// double sums in the softmaxes: the same bits natively and in wasm's simd128 build, and what the
// saved head and docs/learning.md's tables come from. The fast path fuses each multiply-add
// (one rounding; a vfmadd natively with -march=native) and takes the softmaxes' exponentials a
// vector at a time in float (the fused kernel's 2^x): for timing and for sweeps. It agrees with
// the reference within atol + rtol·|reference| (test_layered_model.cpp says how close).
enum class LayeredPath { reference, fast };

// The batch's mean loss (nats). Fills activations (every intermediate, the attention weights
// and the next-character probabilities), reusing the memory they already hold. Throws
// std::invalid_argument on a token, shape or buffer size outside the config, and on a
// non-finite loss (a diverged run). Without a path: the reference.
double layered_forward(const LayeredConfig& config, const std::vector<float>& parameters, const Batch& batch,
                       LayeredActivations& activations);
double layered_forward(const LayeredConfig& config, const std::vector<float>& parameters, const Batch& batch,
                       LayeredActivations& activations, LayeredPath path);

// d loss / d parameter into gradients (resized to the layout's total and overwritten), from what
// layered_forward() kept on the same batch, on the same path.
void layered_backward(const LayeredConfig& config, const std::vector<float>& parameters, const Batch& batch,
                      const LayeredActivations& activations, std::vector<float>& gradients);
void layered_backward(const LayeredConfig& config, const std::vector<float>& parameters, const Batch& batch,
                      const LayeredActivations& activations, std::vector<float>& gradients, LayeredPath path);

// One step of optimizer (cpp/learning/optimizer.hpp, e.g. Adam as torch.optim.Adam takes it) on
// the flat buffers, which it sees as one matrix; both buffers are handed back unchanged in size.
void layered_optimizer_step(Optimizer& optimizer, std::vector<float>& parameters,
                            std::vector<float>& gradients);

}  // namespace attention
