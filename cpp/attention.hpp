// attention: one scaled dot-product attention head, softmax(Q·Kᵀ·scale)·V, in float32.
//
// Three implementations of the same function:
//   formula()       the four lines written out, keeping every intermediate (the page shows them);
//   fused()         online softmax over tiles of keys, never builds the T×T matrix;
//   reference_f64() the formula in double precision, for checks and tests only.
// Plus per-row statistics of the attention weights.
//
// It is not a training library: there is no batch axis, no multi-head projection and no
// backward pass. Plain C++17; no Emscripten header (bindings.cpp is the only wasm glue).
//
// Errors: every public function checks its preconditions and throws std::invalid_argument
// with a message naming the argument and the limit. Non-finite values (NaN, ±inf) in Q, K
// or V are rejected rather than propagated: a NaN in one key would silently poison every
// row that can see it, which is never what a learner means. Inputs so large that Q·Kᵀ
// could overflow float32 are rejected for the same reason.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace attention {

// A dense row-major float32 matrix.
struct Matrix {
    int rows = 0;
    int cols = 0;
    std::vector<float> values;  // (rows, cols) row-major

    Matrix() = default;
    Matrix(int rows_, int cols_);
    Matrix(int rows_, int cols_, std::vector<float> values_);  // checks values_.size()
    // Out of line (attention.cpp), so that a Matrix is always freed by code compiled for speed:
    // inlined into the wasm bindings, compiled for size, a vector's destructor walked its floats
    // one by one (1.6% of a fused() call at T = 1024).
    ~Matrix();
    Matrix(const Matrix&) = default;
    Matrix(Matrix&&) noexcept = default;
    Matrix& operator=(const Matrix&) = default;
    Matrix& operator=(Matrix&&) noexcept = default;
    // Row i as a pointer to its cols values: m.row(i)[j] reads as m_ij.
    float* row(int i) { return values.data() + static_cast<std::size_t>(i) * static_cast<std::size_t>(cols); }
    const float* row(int i) const {
        return values.data() + static_cast<std::size_t>(i) * static_cast<std::size_t>(cols);
    }
    // One entry, m_ij; kept for fused.cpp, which reads single entries.
    float at(int i, int j) const { return row(i)[j]; }
    float& at(int i, int j) { return row(i)[j]; }
};

// How the scores are scaled before the softmax.
enum class ScaleMode { inverse_sqrt_d, inverse_d, none, custom };

struct Scale {
    ScaleMode mode = ScaleMode::inverse_sqrt_d;
    double factor = 1.0;  // used only by ScaleMode::custom; from kMinScaleFactor to kMaxScaleFactor

    static Scale inverse_sqrt_d() { return {ScaleMode::inverse_sqrt_d, 1.0}; }
    static Scale inverse_d() { return {ScaleMode::inverse_d, 1.0}; }
    static Scale none() { return {ScaleMode::none, 1.0}; }
    static Scale custom(double factor) { return {ScaleMode::custom, factor}; }
};

constexpr double kMinScaleFactor = 1e-30;
constexpr double kMaxScaleFactor = 1e30;

// The multiplier applied to Q·Kᵀ for head width d (throws on a bad custom factor or d < 1).
double scale_factor(Scale scale, int d);
std::string scale_name(Scale scale);

// Limits. T×T buffers are what make attention memory-hungry; the formula keeps four of them.
constexpr std::size_t kMaxScoreMatrixBytes = std::size_t{64} << 20;  // one T×T float32 buffer
constexpr int kMaxFormulaT = 4096;                                   // 4096² floats = 64 MiB per buffer
constexpr int kMaxWidth = 4096;                                      // head width d and value width d_v
constexpr std::size_t kMaxInputElements = std::size_t{1} << 26;      // per Q, K or V

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

// Same output as formula() within float32 rounding, without a T×T buffer: keys are visited
// in tiles of `key_tile` columns with an online (running max, running sum) softmax, and
// tiles wholly hidden by the causal mask are skipped. Lives in fused.cpp.
constexpr int kDefaultKeyTile = 64;
Matrix fused(const Matrix& q, const Matrix& k, const Matrix& v, Scale scale, bool causal,
             int key_tile = kDefaultKeyTile);

// The formula in double precision: weights (T, T) and output (T, d_v). Checks and tests only.
struct ReferenceF64 {
    int T = 0;
    int d_v = 0;
    std::vector<double> weights;  // (T, T)
    std::vector<double> output;   // (T, d_v)
};
ReferenceF64 reference_f64(const Matrix& q, const Matrix& k, const Matrix& v, Scale scale, bool causal);

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

// Per-row shape of an attention distribution.
struct RowStatistics {
    std::vector<float> peak_weight;       // (T,) largest weight in the row
    std::vector<float> entropy_nats;      // (T,) -Σ w ln w, 0·ln 0 taken as 0
    std::vector<float> effective_tokens;  // (T,) exp(entropy): 1 = one token, n = uniform over n
};
RowStatistics row_statistics(const Matrix& weights);

}  // namespace attention
