// fused: attention without the T×T matrix, the page's fast path (fused.cpp; its inner loops in
// fused_kernel.hpp). Output only; formula() is the reference it is tested against.
#pragma once

#include "attention/matrix.hpp"
#include "attention/scale.hpp"

namespace attention {

// Same output as formula() within float32 rounding, without a T×T buffer: keys are visited
// in tiles of `key_tile` columns with an online (running max, running sum) softmax, and
// tiles wholly hidden by the causal mask are skipped. q, k: (T, d), v: (T, d_v) -> (T, d_v).
constexpr int kDefaultKeyTile = 64;
Matrix fused(const Matrix& q, const Matrix& k, const Matrix& v, Scale scale, bool causal,
             int key_tile = kDefaultKeyTile);

}  // namespace attention
