// fused.cpp: the fast path. Attention without the T×T matrix: FlashAttention-2's loop order on
// one CPU core, in SIMD. Output only; formula() in attention.cpp is the readable reference it is
// tested against (tests/test_fused.cpp). It is not multithreaded and has no batch axis, like the
// rest of the core; it is one source for every compiler the project uses (g++, clang++, em++).
//
// This file checks the inputs, packs them into the layout the kernel wants and allocates its
// scratch; the kernel itself (blocks, micro-kernels, online softmax) is cpp/kernel/fused_kernel.hpp,
// shared with the relaxed-SIMD wasm module. In the wasm build, fused() hands its Plan to that
// module when the browser runs relaxed SIMD (cpp/kernel/relaxed-library.js) and runs the same
// kernel in simd128 otherwise.

#include "attention.hpp"
#include "kernel/fused_kernel.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(__EMSCRIPTEN__)
// From cpp/kernel/relaxed-library.js (linked with --js-library): runs the plan in the relaxed-SIMD
// module and returns 1, or returns 0 where that module is not in use. A plain wasm import, so the
// core needs no Emscripten header.
extern "C" int attention_relaxed_attend(const attention::kernel::Plan* plan);
#endif

namespace attention {

namespace {

using kernel::kGroupRows;
using kernel::kLanes;
using kernel::kQueryBlock;
using kernel::round_up;

// ---- Data layout ----

// A zero-filled float buffer that starts on a 64-byte cache line, so that rows whose length is a
// multiple of kLanes never straddle two lines with one vector (which costs a second load; about
// 5% of the kernels' speed with AVX-512). An offset, not a pointer, so copies stay correct.
class AlignedFloats {
  public:
    AlignedFloats() = default;
    explicit AlignedFloats(std::size_t count)
        : size_(count), storage_(count + kLineBytes / sizeof(float), 0.0f) {
        const auto address = reinterpret_cast<std::uintptr_t>(storage_.data());
        offset_ = (kLineBytes - address % kLineBytes) % kLineBytes / sizeof(float);
    }
    float* data() { return storage_.data() + offset_; }
    const float* data() const { return storage_.data() + offset_; }
    std::size_t size() const { return size_; }

  private:
    static constexpr std::size_t kLineBytes = 64;
    std::size_t size_ = 0;
    std::vector<float> storage_;
    std::size_t offset_ = 0;
};

// Q, Kᵀ and V copied once per call into the shapes the kernels want.
struct PackedInputs {
    int T = 0;
    int d = 0;
    int d_v = 0;
    std::ptrdiff_t key_stride = 0;    // floats between rows of keys_transposed
    std::ptrdiff_t value_stride = 0;  // floats between rows of values: d_v rounded up to kLanes
    float value_divisor = 1.0f;       // values holds v / value_divisor, a power of 2 (see values_divisor)
    float value_bound = 0.0f;         // max|v|: no weighted mean of v can lie outside ±value_bound
    AlignedFloats queries;            // (T rounded up to kGroupRows, d), extra rows 0
    AlignedFloats keys_transposed;    // (d, key_stride): column j is key j, 0 past T
    AlignedFloats values;             // (T, value_stride), extra columns 0
};

// The largest |x| in m. Compared as bit patterns (for finite floats |x|'s bits order like |x|):
// an integer max the compilers vectorise, where a float max would run one element at a time.
float largest_magnitude(const Matrix& m) {
    std::uint32_t largest = 0;
    for (float x : m.values) {
        std::uint32_t bits;
        std::memcpy(&bits, &x, sizeof bits);
        largest = std::max(largest, bits & 0x7fffffffu);
    }
    float magnitude;
    std::memcpy(&magnitude, &largest, sizeof magnitude);
    return magnitude;
}

// The output is accumulated unnormalised, Σ exp(score - max)·v over up to T keys, each weight
// at most 1: with |v| near FLT_MAX that sum overflows although the normalised output, a weighted
// mean of v, cannot. Dividing v by a power of 2 (exact) that keeps T·max|v| below FLT_MAX / 2,
// and multiplying the output back, avoids it; for ordinary values the divisor is 1.
float values_divisor(const Matrix& v) {
    const double headroom =
        static_cast<double>(std::numeric_limits<float>::max()) / 2 / static_cast<double>(v.rows);
    const double largest = largest_magnitude(v);
    double divisor = 1.0;
    while (largest / divisor > headroom) divisor *= 2;
    return static_cast<float>(divisor);
}

PackedInputs pack_inputs(const Matrix& q, const Matrix& k, const Matrix& v) {
    PackedInputs in;
    in.T = q.rows;
    in.d = q.cols;
    in.d_v = v.cols;
    // The last vector of scores in a tile may run up to kLanes - 1 keys past T: pad by kLanes.
    // An odd number of 64-byte lines between rows of Kᵀ spreads them over all L1 sets.
    constexpr int kFloatsPerLine = 16;
    in.key_stride = round_up(in.T + kLanes, kFloatsPerLine);
    if (in.key_stride / kFloatsPerLine % 2 == 0) in.key_stride += kFloatsPerLine;
    in.value_stride = round_up(in.d_v, kLanes);
    in.value_divisor = values_divisor(v);
    in.value_bound = largest_magnitude(v);

    in.queries = AlignedFloats(static_cast<std::size_t>(round_up(in.T, kGroupRows) * in.d));
    std::copy(q.values.begin(), q.values.end(), in.queries.data());

    in.keys_transposed = AlignedFloats(static_cast<std::size_t>(in.d * in.key_stride));
    float* keys_transposed = in.keys_transposed.data();
    for (int j = 0; j < in.T; ++j)
        for (int c = 0; c < in.d; ++c) keys_transposed[c * in.key_stride + j] = k.at(j, c);

    in.values = AlignedFloats(static_cast<std::size_t>(in.T * in.value_stride));
    const float reciprocal = 1.0f / in.value_divisor;  // exact: a power of 2
    for (int j = 0; j < in.T; ++j) {
        const float* v_j = &v.values[static_cast<std::size_t>(j) * static_cast<std::size_t>(in.d_v)];
        float* values_j = in.values.data() + j * in.value_stride;
        for (int c = 0; c < in.d_v; ++c) values_j[c] = v_j[c] * reciprocal;
    }
    return in;
}

}  // namespace

Matrix fused(const Matrix& q, const Matrix& k, const Matrix& v, Scale scale, bool causal, int key_tile) {
    const double factor = validate_inputs(q, k, v, scale);
    if (key_tile < 1)
        throw std::invalid_argument("key_tile = " + std::to_string(key_tile) + " must be at least 1");
    const PackedInputs in = pack_inputs(q, k, v);
    const int tile = std::min(key_tile, in.T);
    AlignedFloats scores(static_cast<std::size_t>(kGroupRows * round_up(tile, kLanes)));
    AlignedFloats output(static_cast<std::size_t>(kQueryBlock * in.value_stride));
    AlignedFloats running_sum(kQueryBlock * kLanes);
    AlignedFloats running_max(kQueryBlock);
    Matrix out(in.T, in.d_v);

    kernel::Plan plan;
    plan.T = in.T;
    plan.d = in.d;
    plan.d_v = in.d_v;
    plan.key_tile = tile;
    plan.causal = causal ? 1 : 0;
    plan.scale = static_cast<float>(factor);
    plan.value_divisor = in.value_divisor;
    plan.value_bound = in.value_bound;
    plan.key_stride = in.key_stride;
    plan.value_stride = in.value_stride;
    plan.score_stride = round_up(tile, kLanes);
    plan.queries = in.queries.data();
    plan.keys_transposed = in.keys_transposed.data();
    plan.values = in.values.data();
    plan.scores = scores.data();
    plan.output = output.data();
    plan.running_sum = running_sum.data();
    plan.running_max = running_max.data();
    plan.out = out.values.data();
#if defined(__EMSCRIPTEN__)
    if (attention_relaxed_attend(&plan)) return out;
#endif
    kernel::attend(plan);
    return out;
}

}  // namespace attention
