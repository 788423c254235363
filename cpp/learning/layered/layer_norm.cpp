// layer_norm.cpp: see layer_norm.hpp. Sums run in double for the float32 instantiation too: a row
// of d = 64 values far from 0 (mean −3000, spread 0.5) would lose its variance to float32
// cancellation otherwise.
#include "learning/layered/layer_norm.hpp"

#include <cmath>
#include <cstddef>

namespace attention {

template <typename Real>
void layer_norm_forward(Real* y, double* mean, double* rstd, const Real* x, const Real* gain,
                        const Real* bias, int n, int d) {
    for (int i = 0; i < n; ++i) {
        const Real* x_row = x + static_cast<std::size_t>(i) * static_cast<std::size_t>(d);
        Real* y_row = y + static_cast<std::size_t>(i) * static_cast<std::size_t>(d);
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

template <typename Real>
void layer_norm_backward(Real* dx, Real* dgain, Real* dbias, const Real* dy, const Real* x,
                         const double* mean, const double* rstd, const Real* gain, int n, int d) {
    for (int i = 0; i < n; ++i) {
        const std::size_t row = static_cast<std::size_t>(i) * static_cast<std::size_t>(d);
        const Real *x_row = x + row, *dy_row = dy + row;
        Real* dx_row = dx + row;
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

}  // namespace attention
