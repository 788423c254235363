// matrix: the core's one container, a dense row-major float32 matrix, and the size limits
// every function that takes one shares.
//
// It is not a linear-algebra library: no operators, no views, no strides. The products live
// where they are used (formula.cpp, kernel/products.hpp).
#pragma once

#include <cstddef>
#include <vector>

namespace attention {

// Limits. T×T buffers are what make attention memory-hungry; the formula keeps four of them.
constexpr std::size_t kMaxScoreMatrixBytes = std::size_t{64} << 20;  // one T×T float32 buffer
constexpr int kMaxFormulaT = 4096;                                   // 4096² floats = 64 MiB per buffer
constexpr int kMaxWidth = 4096;                                      // head width d and value width d_v
constexpr std::size_t kMaxInputElements = std::size_t{1} << 26;      // per Q, K or V

struct Matrix {
    int rows = 0;
    int cols = 0;
    std::vector<float> values;  // (rows, cols) row-major

    Matrix() = default;
    Matrix(int rows_, int cols_);                              // zero-filled
    Matrix(int rows_, int cols_, std::vector<float> values_);  // checks values_.size()
    // Out of line (matrix.cpp), so that a Matrix is always freed by code compiled for speed:
    // inlined into the size-optimised wasm bindings, a vector's destructor walks its floats
    // one by one (1.5% of a T = 1024 fused call in wasm).
    ~Matrix();
    Matrix(const Matrix&) = default;
    Matrix(Matrix&&) noexcept = default;
    Matrix& operator=(const Matrix&) = default;
    Matrix& operator=(Matrix&&) noexcept = default;
    // Where entry (row, col) of a row-major buffer with `cols` columns sits, and how many values
    // a (rows, cols) shape has, in std::size_t: shapes are ints, and their product can pass
    // INT_MAX. Every loop over a flat buffer, a Matrix's or not, computes its offsets here.
    static std::size_t index(int row, int col, int cols) {
        return static_cast<std::size_t>(row) * static_cast<std::size_t>(cols) + static_cast<std::size_t>(col);
    }
    static std::size_t element_count(int rows, int cols) {
        return static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
    }
    // Row i as a pointer to its cols values: m.row(i)[j] reads as m_ij.
    float* row(int i) { return values.data() + index(i, 0, cols); }
    const float* row(int i) const { return values.data() + index(i, 0, cols); }
    // One entry, m_ij, for code that reads single entries.
    float at(int i, int j) const { return row(i)[j]; }
    float& at(int i, int j) { return row(i)[j]; }
};

}  // namespace attention
