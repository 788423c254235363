// torch_random: the numbers `torch.manual_seed(s); torch.randn(...)` gives on CPU.
//
// A port of PyTorch's CPU generator (mt19937 + its two normal-sampling paths) so that the
// tutorial's inputs can be rebuilt bit-for-bit-ish (to ~1e-6) without Python. It is not
// a general-purpose random library and makes no claim about CUDA or other dtypes.
#pragma once

#include "attention/matrix.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace attention {

class TorchGenerator {
  public:
    // Same state as torch.manual_seed(seed).
    explicit TorchGenerator(std::uint64_t seed);

    // What torch.randn(shape) returns as float32 for a tensor of `count` elements
    // (row-major). Successive calls continue the stream as successive torch.randn
    // calls do.
    std::vector<float> randn(std::size_t count);

  private:
    static constexpr std::size_t kStateSize = 624;

    std::uint32_t next_u32();
    double next_uniform_double();
    float next_uniform_float();
    double next_normal_double();
    void fill_normal_floats(std::vector<float>& values);

    std::array<std::uint32_t, kStateSize> mt_state_{};
    std::size_t mt_next_index_ = kStateSize;
    // Box-Muller yields normals in pairs; torch keeps the unused one for the next
    // small (< 16 element) draw, even across separate randn calls.
    bool has_cached_normal_ = false;
    double cached_normal_ = 0.0;
};

// A (rows, cols) matrix of the generator's next rows·cols draws, each times multiplier: what
// torch.randn(rows, cols) * multiplier gives.
Matrix randn_matrix(TorchGenerator& generator, int rows, int cols, float multiplier = 1.0f);

}  // namespace attention
