// fused.cpp: the fast path. Attention without the T×T matrix: FlashAttention-2's loop order on
// one CPU core, in SIMD. Output only; formula() (attention/formula.hpp) is the readable reference it is
// tested against (tests/attention/kernel/test_fused.cpp). It is not multithreaded and has no batch axis, like
// the rest of the core; it is one source for every compiler the project uses (g++, clang++, em++).
//
// This file checks the inputs, packs them into the layout the kernel wants and allocates its
// scratch; the kernel itself (blocks, micro-kernels, online softmax) is
// cpp/attention/kernel/fused_kernel.hpp, shared with the relaxed-SIMD wasm module. In the wasm build, fused()
// hands its Plan to that module when the browser runs relaxed SIMD (cpp/attention/kernel/relaxed-library.js)
// and runs the same kernel in simd128 otherwise.

#include "attention/kernel/fused.hpp"
#include "attention/checks.hpp"
#include "attention/formula.hpp"
#include "attention/kernel/fused_kernel.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(__EMSCRIPTEN__)
// From cpp/attention/kernel/relaxed-library.js (linked with --js-library): runs the plan in the relaxed-SIMD
// module and returns 1, or returns 0 where that module is not in use. A plain wasm import, so the
// core needs no Emscripten header.
extern "C" int attention_relaxed_attend(const attention::kernel::Plan* plan);
#endif

namespace attention {

namespace {

using kernel::kGroupRows;
using kernel::kQueryBlock;
using kernel::round_up;

// ---- Data layout ----

// A float buffer that starts on a 64-byte cache line, so that rows whose length is a multiple of
// kLanes never straddle two lines with one vector (which costs a second load; about 5% of the
// kernels' speed with AVX-512). It only grows: reuse() keeps the storage of earlier calls, and
// what it returns holds whatever was there (every user writes all it reads, padding included).
class AlignedFloats {
  public:
    float* reuse(std::size_t count) {
        if (storage_.size() < count + kLineBytes / sizeof(float)) {
            storage_.assign(count + kLineBytes / sizeof(float), 0.0f);
            const auto address = reinterpret_cast<std::uintptr_t>(storage_.data());
            offset_ = (kLineBytes - address % kLineBytes) % kLineBytes / sizeof(float);
        }
        return storage_.data() + offset_;
    }
    std::size_t bytes() const { return storage_.size() * sizeof(float); }

  private:
    static constexpr std::size_t kLineBytes = 64;
    std::vector<float> storage_;
    std::size_t offset_ = 0;
};

// The packed inputs and the kernel's scratch, kept from call to call on each thread. Allocating
// them afresh cost about 10% of a call at T = 1024 natively (profiled with perf): glibc returns
// the freed megabyte to the system after every call, so the next one page-faults and zero-fills
// it again. A workspace that grew past kKeepBytes is released after its call.
struct Workspace {
    AlignedFloats queries, keys, values, scores, tile_max, correction, output, running_sum, running_max;

    std::size_t bytes() const {
        return queries.bytes() + keys.bytes() + values.bytes() + scores.bytes() + tile_max.bytes() +
               correction.bytes() + output.bytes() + running_sum.bytes() + running_max.bytes();
    }
};
constexpr std::size_t kKeepBytes = std::size_t{32} << 20;

// m's rows in blocks of `block`, each block (m.cols, block): step p holds the p-th values of
// the block's rows, so the micro-kernels read one block step as one contiguous run. The last
// block's missing rows are 0. Written into `buffer`, which it returns.
float* pack_in_blocks(const Matrix& m, int block, AlignedFloats& buffer) {
    const int rows = m.rows, d = m.cols;
    const std::size_t floats = Matrix::element_count(round_up(rows, block), d);
    float* packed = buffer.reuse(floats);
    std::fill(packed + Matrix::index(rows / block * block, 0, d), packed + floats, 0.0f);
    for (int i = 0; i < rows; ++i) {
        const float* m_i = m.row(i);
        float* step = packed + Matrix::index(i / block * block, i % block, d);
        for (int c = 0; c < d; ++c) step[c * block] = m_i[c];
    }
    return packed;
}

// The output is accumulated unnormalised, Σ exp(score - max)·v over up to T keys, each weight
// at most 1: with |v| near FLT_MAX that sum overflows although the normalised output, a weighted
// mean of v, cannot. Dividing v by a power of 2 (exact) that keeps T·max|v| below FLT_MAX / 2,
// and multiplying the output back, avoids it; for ordinary values the divisor is 1.
float values_divisor(float largest, int T) {
    const double headroom =
        static_cast<double>(std::numeric_limits<float>::max()) / 2 / static_cast<double>(T);
    double divisor = 1.0;
    while (largest / divisor > headroom) divisor *= 2;
    return static_cast<float>(divisor);
}

// ---- Checking the inputs ----

// validate_inputs() (attention/checks.cpp) states the rules and their messages; it reads every value in
// scalar loops, 3% of a call at T = 1024 on the benchmark machine (perf) and 11% on an AVX-512
// one. Nearly every call passes, and for those one vectorised pass per matrix (largest_magnitude:
// inf and NaN have the largest bit patterns of all) proves that every value is finite and that
// Q·Kᵀ cannot overflow. Any input this does not recognise as passing, validate_inputs() checks
// and rejects with its own message (tests/attention/kernel/test_fused.cpp holds the two to the
// same verdicts).
double checked_scale(const Matrix& q, const Matrix& k, const Matrix& v, Scale scale, float max_v) {
    const auto holds = [](const Matrix& m) {
        return m.values.size() == static_cast<std::size_t>(m.rows) * static_cast<std::size_t>(m.cols);
    };
    const bool shapes_pass = q.rows >= 1 && q.cols >= 1 && q.cols <= kMaxWidth && v.cols >= 1 &&
                             v.cols <= kMaxWidth && k.rows == q.rows && k.cols == q.cols &&
                             v.rows == q.rows && holds(q) && holds(k) && holds(v);
    if (shapes_pass) {
        const float max_q = largest_magnitude(q), max_k = largest_magnitude(k);
        constexpr float kLargest = std::numeric_limits<float>::max();
        if (max_q <= kLargest && max_k <= kLargest && max_v <= kLargest) {  // false for inf and NaN
            const double factor = scale_factor(scale, q.cols);
            const double bound = static_cast<double>(q.cols) * max_q * max_k * std::max(1.0, factor);
            if (bound <= static_cast<double>(kLargest) / 4) return factor;
        }
    }
    return validate_inputs(q, k, v, scale);
}

// Q, K and V copied into the workspace in the layouts the micro-kernels read (see Plan in
// cpp/attention/kernel/fused_kernel.hpp), and the scratch sized: everything of the plan except the scale,
// the mask and the output. Each layout puts what one step of a micro-kernel's inner loop reads
// side by side, at fixed offsets from one pointer, and pads with zeros: a padded query or key
// adds nothing to a dot product, a padded key has weight 0 and a padded column is never read.
kernel::Plan pack_inputs(const Matrix& q, const Matrix& k, const Matrix& v, float max_v, int key_tile,
                         Workspace& work) {
    using kernel::kKeyBlock;
    using kernel::kValueBlock;
    kernel::Plan plan;
    const int T = plan.T = q.rows;
    plan.d = q.cols;
    const int d_v = plan.d_v = v.cols;
    plan.key_tile = round_up(key_tile, kKeyBlock);
    plan.key_rows = round_up(T, kKeyBlock);
    plan.value_columns = round_up(d_v, kValueBlock);
    plan.value_bound = max_v;
    plan.value_divisor = values_divisor(plan.value_bound, T);

    // Queries group by group (kGroupRows), keys block by block (kKeyBlock).
    plan.queries = pack_in_blocks(q, kGroupRows, work.queries);
    plan.keys = pack_in_blocks(k, kKeyBlock, work.keys);

    // Values, block of columns by block: (key_rows, kValueBlock), divided by value_divisor
    // (exact: a power of 2).
    const std::size_t value_block_floats = Matrix::element_count(plan.key_rows, kValueBlock);
    const std::size_t value_floats =
        value_block_floats * static_cast<std::size_t>(plan.value_columns / kValueBlock);
    float* values = work.values.reuse(value_floats);
    // Every entry written once (filling the buffer first cost as much as the copy): the padding
    // columns of the last block as they pass, the padding keys after.
    const float reciprocal = 1.0f / plan.value_divisor;
    for (int j = 0; j < T; ++j) {
        const float* v_j = v.row(j);
        float* value_j = values + Matrix::index(j, 0, kValueBlock);
        for (int block = 0; block < plan.value_columns; block += kValueBlock, value_j += value_block_floats)
            for (int c = 0; c < kValueBlock; ++c)
                value_j[c] = block + c < d_v ? v_j[block + c] * reciprocal : 0.0f;
    }
    for (std::size_t block = 0; block < value_floats; block += value_block_floats)
        std::fill(values + block + Matrix::index(T, 0, kValueBlock), values + block + value_block_floats,
                  0.0f);
    plan.values = values;

    plan.scores = work.scores.reuse(Matrix::element_count(plan.key_tile, kGroupRows));
    plan.tile_max = work.tile_max.reuse(kGroupRows);
    plan.correction = work.correction.reuse(kGroupRows);
    plan.output = work.output.reuse(Matrix::element_count(kQueryBlock, plan.value_columns));
    plan.running_sum = work.running_sum.reuse(kQueryBlock);
    plan.running_max = work.running_max.reuse(kQueryBlock);
    return plan;
}

}  // namespace

Matrix fused(const Matrix& q, const Matrix& k, const Matrix& v, Scale scale, bool causal, int key_tile) {
    const float max_v = largest_magnitude(v);
    const double factor = checked_scale(q, k, v, scale, max_v);
    if (key_tile < 1)
        throw std::invalid_argument("key_tile = " + std::to_string(key_tile) + " must be at least 1");
    thread_local Workspace work;
    kernel::Plan plan = pack_inputs(q, k, v, max_v, std::min(key_tile, q.rows), work);
    plan.causal = causal ? 1 : 0;
    plan.scale = static_cast<float>(factor);
    Matrix out(plan.T, plan.d_v);
    plan.out = out.values.data();
#if defined(__EMSCRIPTEN__)
    const bool attended = attention_relaxed_attend(&plan) != 0;
#else
    const bool attended = false;
#endif
    if (!attended) kernel::attend(plan);
    if (work.bytes() > kKeepBytes) work = Workspace{};
    return out;
}

}  // namespace attention
