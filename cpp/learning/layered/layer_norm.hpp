// layer_norm: LayerNorm over the last axis, its forward pass and its backward pass by hand, in
// float32 for training and float64 for checks (one template, two instantiations).
//
//   mean = Σ x / d,  var = Σ (x − mean)² / d (biased),  rstd = 1 / √(var + eps)
//   y    = (x − mean) · rstd · gain + bias
// and, with n = (x − mean) · rstd and g = gain ∘ dy for one row,
//   dx = rstd · (g − mean(g) − n · mean(g ∘ n)),  dgain += n ∘ dy,  dbias += dy
// (llm.c's layernorm_backward). Sums run in double, except on the fast path (Fast), where they
// run in float, a vector at a time. It is not a general normalisation layer: one axis, no
// running statistics, eps fixed by the caller.
#pragma once

namespace attention {

constexpr double kLayerNormEpsilon = 1e-5;  // PyTorch's F.layer_norm default

// y: (n, d) out, mean and rstd: (n,) out, in double (kept for the backward), x: (n, d), gain and bias: (d,).
// Fast (float only: the layered model's fast path) sums in float, a vector at a time.
template <typename Real, bool Fast = false>
void layer_norm_forward(Real* y, double* mean, double* rstd, const Real* x, const Real* gain,
                        const Real* bias, int n, int d);

// dx: (n, d) accumulated into (+=), dgain and dbias: (d,) accumulated into; dy: (n, d), x: (n, d),
// mean and rstd: (n,) as the forward left them, gain: (d,).
template <typename Real, bool Fast = false>
void layer_norm_backward(Real* dx, Real* dgain, Real* dbias, const Real* dy, const Real* x,
                         const double* mean, const double* rstd, const Real* gain, int n, int d);

}  // namespace attention
