// map: the tutorial's attention map ("To be, or not") and its generalisations: any text, seed,
// width, way of making token vectors, weight recipe and positions, then the head at the detail
// a caller needs and the statistics of its rows.
//
// Every input is drawn exactly as the tutorial's PyTorch script draws it, so the numbers here
// can be compared with torch's one for one. It does not plot anything and does not read
// fixtures: callers bring PyTorch's outputs when they want that comparison.
#pragma once

#include "attention/formula.hpp"
#include "attention/statistics.hpp"
#include "tutorial/tokenize.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace attention {

// How each position's input vector x_t is made.
enum class VectorMode {
    per_position,  // the tutorial: x = randn(1, T, d), a fresh random vector at every position
    per_token,     // x_t = E[token_t] with E = randn(distinct tokens, d): same token, same vector
};

// How the projections Wq, Wk are drawn (always after x, Wq before Wk).
enum class Init {
    tutorial,  // randn(d, d)·0.5, the tutorial's: q and k grow like √d, so even 1/√d-scaled
               // scores grow with d and the map saturates at large widths
    standard,  // randn(d, d)/√d: q and k keep unit spread at every width, the setting in
               // which 1/√d keeps the scores' spread (and the map's sharpness) fixed
};

// How a token's position enters the head.
enum class Positions {
    none,        // attention alone cannot tell positions apart
    sinusoidal,  // "Attention Is All You Need": sinusoidal_positions() added to x
    rope,        // rotary: q and k rotated by their position after the projection (needs even d)
};

constexpr int kMaxMapTokens = 1024;
constexpr int kMaxMapWidth = 1024;

struct MapRecipe {
    std::string text = "To be, or not";
    TokenMode tokens = TokenMode::characters;
    int d = 24;
    std::uint64_t seed = 1;
    VectorMode vectors = VectorMode::per_position;
    Init init = Init::tutorial;
    Positions positions = Positions::none;
};

struct MapInputs {
    std::vector<std::string> tokens;
    Matrix x;  // (T, d) token vectors (plus the sinusoidal encoding for Positions::sinusoidal)
    Matrix q;  // (T, d) x·Wq, then rotated by rotary_positions() for Positions::rope
    Matrix k;  // (T, d) x·Wk, then rotated by rotary_positions() for Positions::rope
    Matrix v;  // (T, d) x itself, as in the tutorial (never rotated)
};

// torch.manual_seed(seed); x = randn(1,T,d) (or randn(distinct,d)); Wq = randn(d,d)*0.5 (or
// /√d for Init::standard); Wk likewise; in that order. Throws for Positions::rope with odd d.
MapInputs map_inputs(const MapRecipe& recipe);

// pe[t][2i] = sin(t / 10000^(2i/d)), pe[t][2i+1] = cos(t / 10000^(2i/d)).
Matrix sinusoidal_positions(int T, int d);

// Rotary position embedding, in the convention of LLaMA and Hugging Face's rotate_half:
// row t (position t, from 0) has column i paired with column i + d/2, and each pair is turned
// by the angle t·θ_i, θ_i = 10000^(−2i/d). A query at m and a key at n then score
// (R_m q)·(R_n k) = q·R_(n−m) k: their distance, not where they stand. x: (T, d), d even.
Matrix rotary_positions(const Matrix& x);

enum class MapDetail {
    all,           // every intermediate of the formula
    first_rows,    // every row's weights, the working of the first kWorkingRows queries only
    weights_only,  // attention_weights(): weights and their row max and sum, no other T×T buffer
};

// Queries whose working MapDetail::first_rows keeps: the page's four-lines figure shows 16.
constexpr int kWorkingRows = 16;

// The head for a map at `detail`: formula(), formula_first_rows() or attention_weights().
Intermediates head_at_detail(const Matrix& q, const Matrix& k, const Matrix& v, Scale scale, bool causal,
                             MapDetail detail);

struct AttentionMap {
    MapInputs inputs;
    Intermediates head;  // as head_at_detail() leaves it
    RowStatistics stats;
};

AttentionMap attention_map(const MapRecipe& recipe, Scale scale, bool causal,
                           MapDetail detail = MapDetail::all);

// What attention_map() at MapDetail::first_rows costs for T tokens at width d, counted in
// multiply-adds, for a caller choosing where to run it (the page: at once or in a worker). The
// draws and the per-weight work are counted by their time in wasm, measured against the
// multiply-adds of the projections (map.cpp gives the two weights).
double map_multiply_adds(int T, int d);

}  // namespace attention
