// layer_norm.cpp: see layer_norm.hpp. Sums run in double for the float32 instantiation too: a row
// of d = 64 values far from 0 (mean −3000, spread 0.5) would lose its variance to float32
// cancellation otherwise. The fast path accepts that: its rows are a training run's residual
// stream, and its results are held to the reference's within a tolerance (test_layer_norm.cpp).
#include "learning/layered/layer_norm.hpp"

#include "attention/kernel/products.hpp"

#include <cmath>
#include <cstddef>
#include <vector>

namespace attention {

namespace {

// The fast path's row: the centred row is kept in y, so each sum is one vector reduction.
void fast_forward_row(float* y_row, double& mean, double& rstd, const float* x_row, const float* gain,
                      const float* bias, int d) {
    const float m = products::vector_sum(x_row, d) / static_cast<float>(d);
    for (int c = 0; c < d; ++c) y_row[c] = x_row[c] - m;
    const float variance = products::vector_dot(y_row, y_row, d) / static_cast<float>(d);
    const float s = 1.0f / std::sqrt(variance + static_cast<float>(kLayerNormEpsilon));
    for (int c = 0; c < d; ++c) y_row[c] = y_row[c] * s * gain[c] + bias[c];
    mean = m;
    rstd = s;
}

// normalised and g: (d) scratch.
void fast_backward_row(float* dx_row, float* dgain, float* dbias, const float* dy_row, const float* x_row,
                       double mean, double rstd, const float* gain, int d, float* normalised, float* g) {
    const auto m = static_cast<float>(mean), s = static_cast<float>(rstd);
    for (int c = 0; c < d; ++c) {
        normalised[c] = (x_row[c] - m) * s;
        g[c] = gain[c] * dy_row[c];
    }
    const float g_mean = products::vector_sum(g, d) / static_cast<float>(d);
    const float g_n_mean = products::vector_dot(g, normalised, d) / static_cast<float>(d);
    for (int c = 0; c < d; ++c) {
        dbias[c] += dy_row[c];
        dgain[c] += normalised[c] * dy_row[c];
        dx_row[c] += s * (g[c] - g_mean - normalised[c] * g_n_mean);
    }
}

}  // namespace

template <typename Real, bool Fast>
void layer_norm_forward(Real* y, double* mean, double* rstd, const Real* x, const Real* gain,
                        const Real* bias, int n, int d) {
    for (int i = 0; i < n; ++i) {
        const Real* x_row = x + static_cast<std::size_t>(i) * static_cast<std::size_t>(d);
        Real* y_row = y + static_cast<std::size_t>(i) * static_cast<std::size_t>(d);
        if constexpr (Fast) {
            fast_forward_row(y_row, mean[i], rstd[i], x_row, gain, bias, d);
            continue;
        }
        double sum = 0;
        for (int c = 0; c < d; ++c) sum += static_cast<double>(x_row[c]);
        const double m = sum / d;
        double squares = 0;
        for (int c = 0; c < d; ++c) {
            const double centred = static_cast<double>(x_row[c]) - m;
            squares += centred * centred;
        }
        const double s = 1 / std::sqrt(squares / d + kLayerNormEpsilon);
        for (int c = 0; c < d; ++c)
            y_row[c] =
                static_cast<Real>((static_cast<double>(x_row[c]) - m) * s * static_cast<double>(gain[c]) +
                                  static_cast<double>(bias[c]));
        mean[i] = m;
        rstd[i] = s;
    }
}

template <typename Real, bool Fast>
void layer_norm_backward(Real* dx, Real* dgain, Real* dbias, const Real* dy, const Real* x,
                         const double* mean, const double* rstd, const Real* gain, int n, int d) {
    std::vector<Real> scratch(Fast ? 2 * static_cast<std::size_t>(d) : 0);
    for (int i = 0; i < n; ++i) {
        const std::size_t row = static_cast<std::size_t>(i) * static_cast<std::size_t>(d);
        const Real *x_row = x + row, *dy_row = dy + row;
        Real* dx_row = dx + row;
        if constexpr (Fast) {
            fast_backward_row(dx_row, dgain, dbias, dy_row, x_row, mean[i], rstd[i], gain, d, scratch.data(),
                              scratch.data() + d);
            continue;
        }
        const double m = mean[i], s = rstd[i];
        // 1. the two row means the normalisation's Jacobian needs.
        double g_mean = 0, g_n_mean = 0;
        for (int c = 0; c < d; ++c) {
            const double normalised = (static_cast<double>(x_row[c]) - m) * s;
            const double g = static_cast<double>(gain[c]) * static_cast<double>(dy_row[c]);
            g_mean += g;
            g_n_mean += g * normalised;
        }
        g_mean /= d;
        g_n_mean /= d;
        // 2. every gradient of the row.
        for (int c = 0; c < d; ++c) {
            const double normalised = (static_cast<double>(x_row[c]) - m) * s;
            const double g = static_cast<double>(gain[c]) * static_cast<double>(dy_row[c]);
            dbias[c] += dy_row[c];
            dgain[c] += static_cast<Real>(normalised * static_cast<double>(dy_row[c]));
            dx_row[c] += static_cast<Real>(s * (g - g_mean - normalised * g_n_mean));
        }
    }
}

template void layer_norm_forward<float>(float*, double*, double*, const float*, const float*, const float*,
                                        int, int);
template void layer_norm_forward<double>(double*, double*, double*, const double*, const double*,
                                         const double*, int, int);
template void layer_norm_backward<float>(float*, float*, float*, const float*, const float*, const double*,
                                         const double*, const float*, int, int);
template void layer_norm_backward<double>(double*, double*, double*, const double*, const double*,
                                          const double*, const double*, const double*, int, int);
template void layer_norm_forward<float, true>(float*, double*, double*, const float*, const float*,
                                              const float*, int, int);
template void layer_norm_backward<float, true>(float*, float*, float*, const float*, const float*,
                                               const double*, const double*, const float*, int, int);

}  // namespace attention
