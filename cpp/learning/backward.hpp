// backward: the gradient of one attention head, softmax(Q·Kᵀ·scale)·V, with respect to Q, K
// and V, given the gradient of its output.
//
// Two implementations of the same function:
//   backward()     float32, the formula's path: it reuses the weights formula() kept;
//   backward_f64() the same passes in double precision, for checks and tests only.
//
// With S = Q·Kᵀ·scale (masked), W = softmax(S) row by row and O = W·V:
//   dV = Wᵀ·dO
//   dW = dO·Vᵀ
//   dS = W ∘ (dW − rowsum(W ∘ dW))   (the softmax's Jacobian; masked entries stay 0)
//   dQ = scale·dS·K,  dK = scale·dSᵀ·Q
// It is not an autograd engine: one head, no batch axis, no second derivatives.
#pragma once

#include "attention/formula.hpp"
#include "attention/reference.hpp"

#include <vector>

namespace attention {

struct AttentionGradients {
    Matrix dq;  // (T, d)
    Matrix dk;  // (T, d)
    Matrix dv;  // (T, d_v)
};

// q: (T, d), k: (T, d), v: (T, d_v), d_output: (T, d_v). Runs formula() for the weights, so it
// takes the same input checks (and their messages), plus d_output's shape and finiteness.
AttentionGradients backward(const Matrix& q, const Matrix& k, const Matrix& v, Scale scale, bool causal,
                            const Matrix& d_output);

// The gradients from a forward pass already done: weights (T, T) as formula() returns them
// (masked entries exactly 0) and the factor it applied. For callers, like the model, that keep
// the forward's intermediates. Checks only shapes.
AttentionGradients backward_from_weights(const Matrix& q, const Matrix& k, const Matrix& v,
                                         const Matrix& weights, double scale_factor, const Matrix& d_output);

// The same in double precision, from reference_f64()'s weights. Checks and tests only.
struct AttentionGradientsF64 {
    std::vector<double> dq;  // (T, d)
    std::vector<double> dk;  // (T, d)
    std::vector<double> dv;  // (T, d_v)
};
AttentionGradientsF64 backward_f64(const Matrix& q, const Matrix& k, const Matrix& v, Scale scale,
                                   bool causal, const Matrix& d_output);

// One window's rows of a batch's (B·T, n) matrix, and back: the models run attention and its
// backward window by window. rows_of copies rows [first, first + count) into a matrix of their
// own; set_rows writes block over the rows from first on.
Matrix rows_of(const Matrix& m, int first, int count);
void set_rows(Matrix& m, int first, const Matrix& block);

}  // namespace attention
