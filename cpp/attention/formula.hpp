// formula: one scaled dot-product attention head, softmax(Q·Kᵀ·scale)·V, in float32, written
// as its four steps (scores, mask, softmax, weighted sum) and keeping every intermediate: the
// readable reference that the fused kernel (kernel/fused.hpp) is tested against, and what the
// page shows. Also the weights-only path for long maps and one cell's score.
//
// It is not a training library: no batch axis, no multi-head projection, no backward pass
// (learning/backward.hpp). Plain C++17; no Emscripten header.
//
// Errors: every public function checks its preconditions and throws std::invalid_argument
// with a message naming the argument and the limit. Non-finite values (NaN, ±inf) in Q, K
// or V are rejected rather than propagated: a NaN in one key would silently poison every
// row that can see it, which is never what a learner means. Inputs so large that Q·Kᵀ
// could overflow float32 are rejected for the same reason.
#pragma once

#include "attention/matrix.hpp"
#include "attention/scale.hpp"

#include <vector>

namespace attention {

// Every step of softmax(Q·Kᵀ·scale)·V. All T×T matrices are (query row, key column).
struct Intermediates {
    double scale = 1.0;    // the factor applied, e.g. 1/√d
    Matrix raw_scores;     // (T, T) q_i·k_j
    Matrix scaled_scores;  // (T, T) q_i·k_j · scale
    Matrix masked_scores;  // (T, T) scaled, with -inf where the causal mask hides key j > i
    Matrix weights;        // (T, T) row softmax of masked_scores; masked entries exactly 0
    // What each row's softmax divided by, so a reader can redo one weight by hand:
    // weight_ij = exp(masked_ij - row_max_i) / row_sum_i.
    std::vector<float> row_max;  // (T,) max_j masked_ij, the shift that keeps exp() from overflowing
    std::vector<float> row_sum;  // (T,) Σ_j exp(masked_ij - row_max_i), the normaliser
    Matrix output;               // (T, d_v) weights · V
};

// The causal mask's one rule: a query never sees a later key.
inline bool is_masked(bool causal, int query, int key) {
    return causal && key > query;
}

// q: (T, d), k: (T, d), v: (T, d_v). The readable reference every faster path is tested against.
Intermediates formula(const Matrix& q, const Matrix& k, const Matrix& v, Scale scale, bool causal);

// Steps 1–3 only: fills scale, weights, row_max and row_sum, and leaves raw_scores,
// scaled_scores, masked_scores and output empty. One T×T buffer instead of four, for callers
// that show the weights and not the working (the map at large T).
Intermediates attention_weights(const Matrix& q, const Matrix& k, Scale scale, bool causal);

// Every row's weights, as attention_weights() gives them, and the working of the first `rows`
// queries only: raw, scaled and masked scores (rows, T) and output (rows, d_v), each the first
// rows of what formula() keeps, bit for bit. rows ≥ T is formula(); 0 is the weights alone. For a
// figure that shows the working of a few rows beside the weights of all (the page's map).
Intermediates formula_first_rows(const Matrix& q, const Matrix& k, const Matrix& v, Scale scale, bool causal,
                                 int rows);

// One cell of steps 1–2, by formula()'s float32 operations: q_i·k_j and that times `factor`
// (what scale_factor() gives for the head). q_i, k_j: (d,). For reading any cell of a map whose
// working was kept for its first rows only. Throws on d outside 1…kMaxWidth or a non-finite entry.
struct Score {
    float raw = 0.0f;
    float scaled = 0.0f;
};
Score score_of(const float* q_i, const float* k_j, int d, double factor);

// Steps 2–3 on scores already computed: raw_scores (T, T) q_i·k_j, scaled by `factor`, masked
// and softmaxed in place; returns them as attention_weights() does. No checks: for callers
// that reuse one Q·Kᵀ for several scales (the scale study).
Intermediates weights_from_scores(Matrix raw_scores, double factor, bool causal);

// a: (n, w), b: (m, w) -> (n, m) with entry (i, j) = a_i·b_j, summed in float32 over w in
// order. Step 1 of the formula (Q·Kᵀ), shared with the scale study. lower_only: only the
// entries the causal mask keeps (j ≤ i) are summed, with the same bits; the others are left 0
// for the mask to overwrite (half the work of a causal map's weights).
Matrix dot_products(const Matrix& a, const Matrix& b, bool lower_only = false);

// Row softmax in place, max-subtracted; -inf entries become exactly 0. Returns the row's max
// and the sum of exp(x - max) it divided by.
// row: (n,) at least one finite entry. Exposed because the page and tests use it directly.
struct SoftmaxTerms {
    float max = 0.0f;
    float sum = 0.0f;
};
SoftmaxTerms softmax_row(float* row, int n);

}  // namespace attention
