// scenarios: the tutorial's three experiments, rebuilt from the PyTorch-compatible generator,
// and their generalisations (any text, seed and width for the map; any widths, T, draws,
// mask and scale for the scale study).
//
// Every input is drawn exactly as the tutorial's PyTorch script draws it, so the numbers
// here can be compared with torch's one for one. It does not plot anything and does not
// read fixtures: callers bring PyTorch's outputs when they want that comparison.
#pragma once

#include "attention.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace attention {

// ---- The attention map ("To be, or not") --------------------------------------------------

enum class TokenMode {
    characters,  // one token per Unicode code point, like Python's list(text)
    words,       // runs of letters/digits/apostrophes; each other symbol alone; spaces dropped
};

// How each position's input vector x_t is made.
enum class VectorMode {
    per_position,  // the tutorial: x = randn(1, T, d), a fresh random vector at every position
    per_token,     // x_t = E[token_t] with E = randn(distinct tokens, d): same token, same vector
};

constexpr int kMaxMapTokens = 1024;
constexpr int kMaxMapWidth = 1024;

struct MapRecipe {
    std::string text = "To be, or not";
    TokenMode tokens = TokenMode::characters;
    int d = 24;
    std::uint64_t seed = 1;
    VectorMode vectors = VectorMode::per_position;
    bool positional = false;  // add the sinusoidal encoding of "Attention Is All You Need" to x
};

struct MapInputs {
    std::vector<std::string> tokens;
    Matrix x;  // (T, d) token vectors (plus positional encoding when asked)
    Matrix q;  // (T, d) x·Wq, Wq = randn(d, d)·0.5
    Matrix k;  // (T, d) x·Wk, Wk = randn(d, d)·0.5
    Matrix v;  // (T, d) x itself, as in the tutorial
};

std::vector<std::string> tokenize(const std::string& utf8_text, TokenMode mode);

// torch.manual_seed(seed); x = randn(1,T,d) (or randn(distinct,d)); Wq = randn(d,d)*0.5;
// Wk = randn(d,d)*0.5; in that order.
MapInputs map_inputs(const MapRecipe& recipe);

// pe[t][2i] = sin(t / 10000^(2i/d)), pe[t][2i+1] = cos(t / 10000^(2i/d)).
Matrix sinusoidal_positions(int T, int d);

// ---- The equivalence check ----------------------------------------------------------------

// torch.manual_seed(0); q, k, v = randn(2, 16, 32) each, in that order. One Matrix per batch.
struct EquivalenceInputs {
    int batch = 2, T = 16, d = 32;
    std::vector<Matrix> q, k, v;  // batch × (T, d)
};
EquivalenceInputs tutorial_equivalence_inputs();

constexpr double kEquivalenceTolerance = 1e-5;  // the tutorial's "OK" threshold

struct EquivalenceCase {
    bool causal = false;
    double formula_vs_fused = 0;  // max |formula - fused| over all batches and entries
    double formula_vs_f64 = 0;    // max |formula - float64 reference|
    bool has_torch = false;
    double formula_vs_torch = 0;  // max |formula - PyTorch|, when torch's outputs were given
    bool ok() const;              // every difference measured is below kEquivalenceTolerance
};

// torch_output: flat (batch, T, d_v) PyTorch outputs for these inputs, or empty to skip that
// comparison.
EquivalenceCase check_equivalence(const EquivalenceInputs& inputs, bool causal,
                                  const std::vector<float>& torch_output = {});

// "causal=False  max|mine - torch| = 4.77e-07  OK", the tutorial's line format.
std::string equivalence_line(const EquivalenceCase& result);

// ---- The scale study ("why divide by √d") -------------------------------------------------

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
    std::vector<ScaleSeries> series;  // none, 1/√d, 1/d, in that order
};

constexpr int kMaxStudyT = 1024;
constexpr int kMaxStudyDraws = 1000;
constexpr double kMaxStudyMultiplyAdds = 4e9;  // Σ over widths and draws of T²·d

// torch.manual_seed(seed) once; then for each width in turn, for each draw:
// q = randn(T, d), k = randn(T, d), scores = q·kᵀ. With the defaults this is exactly the
// tutorial's scale demo (one draw per width, so the curve is a little bumpy).
ScaleStudy scale_study(const ScaleStudyOptions& options);

}  // namespace attention
