// formula.cpp: the four steps of attention, written for reading first; dot_products() only
// orders its loops so that they vectorise. See formula.hpp for what each function promises.
#include "attention/formula.hpp"

#include "attention/checks.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace attention {

namespace {

constexpr float kNegativeInfinity = -std::numeric_limits<float>::infinity();

// Rows 0..rows-1 of m, copied.
Matrix first_rows(const Matrix& m, int rows) {
    const auto end = m.values.begin() + static_cast<std::ptrdiff_t>(rows) * m.cols;
    return Matrix(rows, m.cols, std::vector<float>(m.values.begin(), end));
}

}  // namespace

Matrix dot_products(const Matrix& a, const Matrix& b, bool lower_only) {
    if (a.cols != b.cols)
        throw std::invalid_argument("dot_products needs rows of one width; got " + shape_of(a) + " and " +
                                    shape_of(b));
    // Each sum runs over c in order from 0, exactly like the plain triple loop, so every entry
    // has its bits. Looping c outside j over a transposed b lets the compiler vectorise across
    // j; blocks of kRows × kColumns entries keep their sums in registers for the whole sum
    // (each loaded row of b_transposed then serves kRows rows of a): about 3× faster in wasm.
    constexpr int kRows = 4, kColumns = 8;
    const int rows = a.rows, columns = b.rows, width = a.cols;
    Matrix b_transposed(width, columns);
    for (int j = 0; j < columns; ++j)
        for (int c = 0; c < width; ++c) b_transposed.row(c)[j] = b.row(j)[c];
    Matrix out(rows, columns);
    const int full_rows = rows - rows % kRows, full_columns = columns - columns % kColumns;
    for (int i = 0; i < full_rows; i += kRows) {
        // Blocks from column i + kRows on are above the diagonal in every one of their rows.
        const int block_columns = lower_only ? std::min(full_columns, i + kRows) : full_columns;
        for (int j = 0; j < block_columns; j += kColumns) {
            float sum[kRows][kColumns] = {};
            for (int c = 0; c < width; ++c) {
                const float* b_c = b_transposed.row(c) + j;
                for (int r = 0; r < kRows; ++r) {
                    const float a_rc = a.row(i + r)[c];
                    for (int x = 0; x < kColumns; ++x) sum[r][x] += a_rc * b_c[x];
                }
            }
            for (int r = 0; r < kRows; ++r) std::copy_n(sum[r], kColumns, out.row(i + r) + j);
        }
    }
    // The edges: the last rows % kRows rows, and the last columns % kColumns of the others.
    for (int i = 0; i < rows; ++i) {
        const float* a_i = a.row(i);
        float* out_i = out.row(i);
        const int first = i < full_rows ? full_columns : 0;
        const int last = lower_only ? std::min(columns, i + 1) : columns;
        for (int c = 0; c < width; ++c) {
            const float* b_column_c = b_transposed.row(c);
            for (int j = first; j < last; ++j) out_i[j] += a_i[c] * b_column_c[j];
        }
    }
    // A block that straddles the diagonal summed some masked entries too: clear them, so that
    // every entry above it is 0 whatever the block sizes.
    if (lower_only)
        for (int i = 0; i < rows; ++i)
            std::fill(out.row(i) + std::min(columns, i + 1), out.row(i) + columns, 0.0f);
    return out;
}

SoftmaxTerms softmax_row(float* row, int n) {
    // Subtracting the row max makes the largest exponent exp(0) = 1: no overflow for any
    // finite logits, and the result is unchanged because softmax is shift-invariant.
    float row_max = kNegativeInfinity;
    for (int j = 0; j < n; ++j) row_max = std::max(row_max, row[j]);
    float sum = 0.0f;
    for (int j = 0; j < n; ++j) {
        // Masked keys (-inf) get weight exactly 0, not "very small"; exp(-inf) would give the
        // same 0, but half of a causal row is masked and exp is the costly part of this loop.
        row[j] = row[j] == kNegativeInfinity ? 0.0f : std::exp(row[j] - row_max);
        sum += row[j];
    }
    for (int j = 0; j < n; ++j) row[j] /= sum;
    return {row_max, sum};
}

namespace {

// Step 3 for a whole matrix: weights holds the masked scores on entry.
void softmax_rows(Intermediates& result) {
    Matrix& weights = result.weights;
    result.row_max.clear();
    result.row_sum.clear();
    for (int i = 0; i < weights.rows; ++i) {
        const SoftmaxTerms terms = softmax_row(weights.row(i), weights.cols);
        result.row_max.push_back(terms.max);
        result.row_sum.push_back(terms.sum);
    }
}

// Steps 1–4 for queries 0..rows-1 against all T keys (rows ≤ T), inputs already checked. Row i
// is query i, so the causal mask reads the same as in the full T × T formula.
Intermediates formula_steps(const Matrix& q, const Matrix& k, const Matrix& v, double factor, bool causal,
                            int rows) {
    const int T = k.rows, d_v = v.cols;
    const float scale_f = static_cast<float>(factor);

    Intermediates result;
    result.scale = factor;
    result.scaled_scores = Matrix(rows, T);
    result.masked_scores = Matrix(rows, T);
    result.output = Matrix(rows, d_v);

    // 1. scores: how well query i matches key j.
    result.raw_scores = rows == q.rows ? dot_products(q, k) : dot_products(first_rows(q, rows), k);
    for (std::size_t e = 0; e < result.raw_scores.values.size(); ++e)
        result.scaled_scores.values[e] = result.raw_scores.values[e] * scale_f;

    // 2. mask: -inf, not a large negative number, so that step 3 gives exactly 0.
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < T; ++j)
            result.masked_scores.row(i)[j] =
                is_masked(causal, i, j) ? kNegativeInfinity : result.scaled_scores.row(i)[j];

    // 3. softmax over keys, row by row. Key i is never masked for query i, so every row
    //    has at least one finite entry.
    result.weights = result.masked_scores;
    softmax_rows(result);

    // 4. weighted sum of the values. Masked weights are exactly 0 and add nothing. A weighted
    //    mean never exceeds max|v|, but near FLT_MAX float32 partial sums could overflow, and
    //    float32 weights sum to 1 only within T·2⁻²⁴: so the sum is kept in double and the
    //    result held to ±max|v|, which only ever moves it by those rounding errors.
    const double value_bound = max_abs(v);
    std::vector<double> sum_buffer(static_cast<std::size_t>(d_v));
    double* sum = sum_buffer.data();  // (d_v,) the output row being accumulated
    for (int i = 0; i < rows; ++i) {
        std::fill(sum, sum + d_v, 0.0);
        const float* weights_i = result.weights.row(i);
        for (int j = 0; j < T; ++j) {
            const double w = weights_i[j];
            if (w == 0.0) continue;
            const float* v_j = v.row(j);
            for (int c = 0; c < d_v; ++c) sum[c] += w * v_j[c];
        }
        float* out_i = result.output.row(i);
        for (int c = 0; c < d_v; ++c)
            out_i[c] = static_cast<float>(std::clamp(sum[c], -value_bound, value_bound));
    }
    return result;
}

}  // namespace

Intermediates formula(const Matrix& q, const Matrix& k, const Matrix& v, Scale scale, bool causal) {
    const double factor = validate_inputs(q, k, v, scale);
    check_formula_size(q.rows);
    return formula_steps(q, k, v, factor, causal, q.rows);
}

Intermediates formula_first_rows(const Matrix& q, const Matrix& k, const Matrix& v, Scale scale, bool causal,
                                 int rows) {
    const double factor = validate_inputs(q, k, v, scale);
    check_formula_size(q.rows);
    if (rows < 0) throw std::invalid_argument("rows of working = " + std::to_string(rows) + " is below 0");
    if (rows >= q.rows) return formula_steps(q, k, v, factor, causal, q.rows);
    // Every row's weights from one T × T buffer, then the working of the first rows, whose
    // weights are the same float32 operations on the same numbers: the same bits.
    Intermediates result = weights_from_scores(dot_products(q, k, causal), factor, causal);
    if (rows == 0) return result;
    Intermediates working = formula_steps(q, k, v, factor, causal, rows);
    result.raw_scores = std::move(working.raw_scores);
    result.scaled_scores = std::move(working.scaled_scores);
    result.masked_scores = std::move(working.masked_scores);
    result.output = std::move(working.output);
    return result;
}

Score score_of(const float* q_i, const float* k_j, int d, double factor) {
    if (d < 1 || d > kMaxWidth)
        throw std::invalid_argument("score_of needs a row width d from 1 to " + std::to_string(kMaxWidth) +
                                    "; got " + std::to_string(d));
    // Through dot_products() itself, so the sum runs in the order formula()'s does.
    const Matrix query(1, d, std::vector<float>(q_i, q_i + d));
    const Matrix key(1, d, std::vector<float>(k_j, k_j + d));
    require_finite(query, "q row");
    require_finite(key, "k row");
    const float raw = dot_products(query, key).values[0];
    return {raw, raw * static_cast<float>(factor)};
}

Intermediates weights_from_scores(Matrix raw_scores, double factor, bool causal) {
    const auto scale_f = static_cast<float>(factor);
    Intermediates result;
    result.scale = factor;
    // The formula's steps 2–3 in one buffer: the same float32 operations in the same order,
    // so the weights are bit-for-bit the formula's.
    result.weights = std::move(raw_scores);
    for (int i = 0; i < result.weights.rows; ++i) {
        float* scores = result.weights.row(i);
        for (int j = 0; j < result.weights.cols; ++j)
            scores[j] = is_masked(causal, i, j) ? kNegativeInfinity : scores[j] * scale_f;
    }
    softmax_rows(result);
    return result;
}

Intermediates attention_weights(const Matrix& q, const Matrix& k, Scale scale, bool causal) {
    const double factor = validate_scores(q, k, scale);
    check_formula_size(q.rows);
    return weights_from_scores(dot_products(q, k, causal), factor, causal);
}

}  // namespace attention
