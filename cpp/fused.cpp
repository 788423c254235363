// fused.cpp: attention without the T×T matrix (the FlashAttention idea, on a CPU).
// Output only; formula() in attention.cpp is the readable reference it is tested against.
#include "attention.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace attention {

namespace {
constexpr float kNegativeInfinity = -std::numeric_limits<float>::infinity();
}  // namespace

Matrix fused(const Matrix& q, const Matrix& k, const Matrix& v, Scale scale, bool causal, int key_tile) {
    const double factor = validate_inputs(q, k, v, scale);
    if (key_tile < 1) throw std::invalid_argument("key_tile = " + std::to_string(key_tile) + " must be at least 1");
    const int T = q.rows, d = q.cols, d_v = v.cols;
    const float scale_f = static_cast<float>(factor);

    Matrix out(T, d_v);
    std::vector<float> tile_scores(static_cast<std::size_t>(std::min(key_tile, T)));
    std::vector<float> accumulator(static_cast<std::size_t>(d_v));
    for (int i = 0; i < T; ++i) {
        // Online softmax: keep the running max and the running sum of exp(score - max);
        // when a later tile raises the max, rescale what was accumulated so far.
        float running_max = kNegativeInfinity;
        float running_sum = 0.0f;
        std::fill(accumulator.begin(), accumulator.end(), 0.0f);
        const int visible_keys = causal ? i + 1 : T;  // tiles past this are wholly masked: skipped
        for (int tile_start = 0; tile_start < visible_keys; tile_start += key_tile) {
            const int tile_end = std::min(tile_start + key_tile, visible_keys);
            float tile_max = kNegativeInfinity;
            for (int j = tile_start; j < tile_end; ++j) {
                float dot = 0.0f;
                for (int c = 0; c < d; ++c) dot += q.at(i, c) * k.at(j, c);
                tile_scores[static_cast<std::size_t>(j - tile_start)] = dot * scale_f;
                tile_max = std::max(tile_max, dot * scale_f);
            }
            const float new_max = std::max(running_max, tile_max);
            const float correction = std::exp(running_max - new_max);  // exp(-inf) = 0 on the first tile
            running_sum *= correction;
            for (float& a : accumulator) a *= correction;
            for (int j = tile_start; j < tile_end; ++j) {
                const float p = std::exp(tile_scores[static_cast<std::size_t>(j - tile_start)] - new_max);
                running_sum += p;
                for (int c = 0; c < d_v; ++c) accumulator[static_cast<std::size_t>(c)] += p * v.at(j, c);
            }
            running_max = new_max;
        }
        for (int c = 0; c < d_v; ++c) out.at(i, c) = accumulator[static_cast<std::size_t>(c)] / running_sum;
    }
    return out;
}

}  // namespace attention
