// matrix.cpp: Matrix's constructors, which refuse shapes past the core's limits.
#include "attention/matrix.hpp"

#include <stdexcept>
#include <string>
#include <utility>

namespace attention {

static std::size_t checked_element_count(int rows, int cols) {
    if (rows < 0 || cols < 0)
        throw std::invalid_argument("matrix shape (" + std::to_string(rows) + ", " + std::to_string(cols) +
                                    ") is negative");
    const std::size_t count = Matrix::element_count(rows, cols);
    if (count > kMaxInputElements)
        throw std::invalid_argument("matrix of shape (" + std::to_string(rows) + ", " + std::to_string(cols) +
                                    ") has " + std::to_string(count) + " elements; the limit is " +
                                    std::to_string(kMaxInputElements));
    return count;
}

Matrix::Matrix(int rows_, int cols_)
    : rows(rows_), cols(cols_), values(checked_element_count(rows_, cols_), 0.0f) {}

Matrix::Matrix(int rows_, int cols_, std::vector<float> values_)
    : rows(rows_), cols(cols_), values(std::move(values_)) {
    const std::size_t expected = checked_element_count(rows, cols);
    if (values.size() != expected)
        throw std::invalid_argument("matrix of shape (" + std::to_string(rows) + ", " + std::to_string(cols) +
                                    ") needs " + std::to_string(expected) + " values, got " +
                                    std::to_string(values.size()));
}

Matrix::~Matrix() = default;

}  // namespace attention
