// fused_kernel.hpp: the inner part of the fast path (cpp/fused.cpp): the portable SIMD layer, the
// multiply-add micro-kernel and the online softmax over tiles of keys, working on inputs that
// fused.cpp has already checked and packed. A header, and no allocation or libc call in it,
// because two programs compile it: fused.cpp everywhere (g++, clang++, em++ with -msimd128),
// and cpp/kernel/relaxed_kernel.cpp, the small standalone wasm module that clang-19 builds with
// -mrelaxed-simd (scripts/build-relaxed.sh), where multiply_add() becomes f32x4.relaxed_madd.
// Both wasm modules share one memory: fused.cpp fills a Plan and the relaxed module runs it.
//
// Why it is fast, idea by idea:
// * Blocks. A block of kQueryBlock query rows meets a tile of key_tile keys at a time. The K and V
//   rows of a tile (16 KiB each at d = 64) are loaded into L1 once per block, not once per query.
// * Micro-kernels. All multiply-adds happen in one small matrix-multiply kernel, used twice:
//   scores = Q·Kᵀ and output += P·V. It keeps a group of kGroupRows rows × a few vectors of
//   columns in registers for its whole inner loop, so each vector it loads feeds kGroupRows
//   multiply-adds. Kᵀ is packed once per call so that both uses read contiguous rows of B (Kᵀ,
//   V) and broadcast one scalar of A (a query value, a weight): no horizontal sums inside.
// * Online softmax. Per row: running max, running sum of exp(score - max), and the output so far
//   rescaled whenever the max grows; scores for the tile live only in a tiny L1 buffer, and exp
//   is a polynomial on whole vectors.
// * Causal mask. Tiles past a block's last query are never visited, and in a tile on the diagonal
//   each row group stops at its own last query: only a group's own small triangle is wasted.
//
// Why vector extensions (GCC/Clang `vector_size`) rather than auto-vectorisation or intrinsics:
// the compilers vectorise simple loops reliably, but not a register-blocked kernel whose
// accumulators must stay in registers across the inner loop, nor std::exp. Intrinsics would need
// one copy per instruction set (AVX-512, AVX2, SSE, NEON, wasm simd128). A vector type of
// kLanes floats with +, *, compare and select is the whole portable layer; each compiler lowers
// it to the widest registers its target flags allow (CMakeLists.txt adds -march=native for
// fused.cpp natively; the wasm builds have -msimd128), and to plain scalars on a target with
// none. GCC and Clang (so em++) only; no -ffast-math: the sums keep their written order.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>

namespace attention::kernel {

// ---- The portable SIMD layer: kLanes floats, as wide as the target's vector registers. ----

#if defined(__AVX512F__)
constexpr int kLanes = 16;
#elif defined(__AVX__)
constexpr int kLanes = 8;
#else
constexpr int kLanes = 4;  // SSE2, NEON, wasm simd128
#endif

typedef float Floats __attribute__((vector_size(kLanes * sizeof(float))));
typedef std::int32_t Ints __attribute__((vector_size(kLanes * sizeof(std::int32_t))));
typedef std::uint32_t Bits __attribute__((vector_size(kLanes * sizeof(std::uint32_t))));

// Unaligned loads and stores; memcpy is how C++ spells them, and it compiles to one instruction.
inline Floats load(const float* from) {
    Floats value;
    std::memcpy(&value, from, sizeof value);
    return value;
}
inline void store(float* to, Floats value) {
    std::memcpy(to, &value, sizeof value);
}
// x - 0 is x for every x (x + 0 is not: -0 + 0 = +0), so this folds to a plain broadcast.
inline Floats splat(float x) {
    return x - Floats{};
}
inline Floats maximum(Floats a, Floats b) {
    return a > b ? a : b;
}

// a·b + c. With -mrelaxed-simd (cpp/kernel/relaxed_kernel.cpp) this is f32x4.relaxed_madd: one
// fused multiply-add, rounded once, on x86 with FMA and ARM (an engine may also round twice;
// both are within the tests' bound). Elsewhere the compiler decides: natively GCC and Clang fuse
// it on a target with FMA, wasm simd128 has none and rounds the product and the sum.
inline Floats multiply_add(Floats a, Floats b, Floats c) {
#if defined(__wasm_relaxed_simd__)
    return __builtin_wasm_relaxed_madd_f32x4(a, b, c);
#else
    return a * b + c;
#endif
}

// v with its lanes rotated by Shift: lane i holds lane (i + Shift) mod kLanes. (Clang and GCC
// spell a constant shuffle differently; both compile it to one or two shuffle instructions.)
template <int Shift, int... Lane>
Floats rotate_lanes(Floats v, std::integer_sequence<int, Lane...>) {
#if defined(__clang__)
    return __builtin_shufflevector(v, v, ((Lane + Shift) % kLanes)...);
#else
    return __builtin_shuffle(v, Ints{((Lane + Shift) % kLanes)...});
#endif
}

// Horizontal max and sum as log2(kLanes) whole-vector steps (they run once per row per tile).
template <int Shift = kLanes / 2>
float horizontal_max(Floats v) {
    if constexpr (Shift == 0)
        return v[0];
    else
        return horizontal_max<Shift / 2>(
            maximum(v, rotate_lanes<Shift>(v, std::make_integer_sequence<int, kLanes>{})));
}

template <int Shift = kLanes / 2>
float horizontal_sum(Floats v) {
    if constexpr (Shift == 0)
        return v[0];
    else
        return horizontal_sum<Shift / 2>(v +
                                         rotate_lanes<Shift>(v, std::make_integer_sequence<int, kLanes>{}));
}

// 2^x for x <= 0, within about 1 ulp (std::exp does not vectorise without -ffast-math). x = n + f
// with n an integer and |f| <= 1/2; 2^f by a degree-6 polynomial (a minimax fit for relative
// error), 2^n by writing n + 127 into the exponent bits. Below -126, 2^n would leave the normal
// range; those lanes (masked scores are -inf) compute garbage that the last line replaces by
// exactly 0, the weight formula() gives a masked key. So does NaN, which a masked score becomes
// when the scale rounds to 0 in float32 (-inf·0). No clamp and no float-to-int conversion: both
// cost several instructions in wasm.
inline Floats exp2_nonpositive(Floats x) {
    // Adding 1.5·2^23 rounds x to an integer n (the ulp there is 1) and leaves n in the low
    // mantissa bits; subtracting it again gives n as a float, and x - n is exact.
    const Floats rounding = splat(12582912.0f);
    const Floats shifted = x + rounding;
    const Floats f = x - (shifted - rounding);
    Floats two_to_f = splat(1.5353392518591136e-4f);
    two_to_f = multiply_add(two_to_f, f, splat(1.3398879673331976e-3f));
    two_to_f = multiply_add(two_to_f, f, splat(9.6184369176626205e-3f));
    two_to_f = multiply_add(two_to_f, f, splat(5.5503323674201965e-2f));
    two_to_f = multiply_add(two_to_f, f, splat(2.4022647738456726e-1f));
    two_to_f = multiply_add(two_to_f, f, splat(6.9314718246459961e-1f));
    two_to_f = multiply_add(two_to_f, f, splat(1.0f));
    // The shift drops every bit of `shifted` above the low bits that hold n + 127.
    Bits two_to_n;
    std::memcpy(&two_to_n, &shifted, sizeof two_to_n);
    two_to_n = (two_to_n + 127u) << 23;
    Floats two_to_n_float;
    std::memcpy(&two_to_n_float, &two_to_n, sizeof two_to_n_float);
    return x >= splat(-126.0f) ? two_to_f * two_to_n_float : Floats{};
}

// ---- The micro-kernel ----

// Register blocking: a call keeps kGroupRows rows × k*Vectors vectors of accumulators, leaving
// registers for the row of B it loads and the broadcast value of A. Measured on one machine
// (Xeon, Sapphire Rapids): 6×4 beat 8×2, 12×2 and 4×4 by 5-10% with AVX-512; 6×2 was best with
// AVX2; in V8's wasm code (16 registers, a multiply and an add for each multiply-add) 4×2 was best.
#if defined(__AVX512F__)  // 32 registers of 16 floats: 24 accumulators
constexpr int kGroupRows = 6;
constexpr int kScoreVectors = 4;
constexpr int kValueVectors = 4;
#elif defined(__AVX__)  // 16 registers of 8 floats: 12 accumulators
constexpr int kGroupRows = 6;
constexpr int kScoreVectors = 2;
constexpr int kValueVectors = 2;
#else                   // 16 registers of 4 floats (SSE2, NEON, wasm simd128): 8 accumulators
constexpr int kGroupRows = 4;
constexpr int kScoreVectors = 2;
constexpr int kValueVectors = 2;
#endif

// c (kGroupRows, Vectors·kLanes) = a (kGroupRows, depth) · b (depth, Vectors·kLanes), or += when
// Accumulate. Rows of a, b and c are a_stride, b_stride and c_stride floats apart. Not inlined:
// in a function of its own the accumulators get the register file to themselves.
template <int Vectors, bool Accumulate>
__attribute__((noinline)) void multiply_group(float* c, std::ptrdiff_t c_stride, const float* a,
                                              std::ptrdiff_t a_stride, const float* b,
                                              std::ptrdiff_t b_stride, int depth) {
    Floats sum[kGroupRows][Vectors];
    for (int row = 0; row < kGroupRows; ++row)
        for (int x = 0; x < Vectors; ++x)
            sum[row][x] = Accumulate ? load(c + row * c_stride + x * kLanes) : Floats{};
    const float* a_rows[kGroupRows];
    for (int row = 0; row < kGroupRows; ++row) a_rows[row] = a + row * a_stride;
    const float* b_p_row = b;
    for (int p = 0; p < depth; ++p, b_p_row += b_stride) {
        Floats b_p[Vectors];
        for (int x = 0; x < Vectors; ++x) b_p[x] = load(b_p_row + x * kLanes);
        for (int row = 0; row < kGroupRows; ++row) {
            const Floats a_row_p = splat(a_rows[row][p]);
            for (int x = 0; x < Vectors; ++x) sum[row][x] = multiply_add(a_row_p, b_p[x], sum[row][x]);
        }
    }
    for (int row = 0; row < kGroupRows; ++row)
        for (int x = 0; x < Vectors; ++x) store(c + row * c_stride + x * kLanes, sum[row][x]);
}

// The last, narrower slice of columns: `vectors` < MaxVectors, chosen at run time.
template <int MaxVectors, bool Accumulate>
void multiply_group_remainder(int vectors, float* c, std::ptrdiff_t c_stride, const float* a,
                              std::ptrdiff_t a_stride, const float* b, std::ptrdiff_t b_stride, int depth) {
    if constexpr (MaxVectors > 0) {
        if (vectors == MaxVectors)
            multiply_group<MaxVectors, Accumulate>(c, c_stride, a, a_stride, b, b_stride, depth);
        else
            multiply_group_remainder<MaxVectors - 1, Accumulate>(vectors, c, c_stride, a, a_stride, b,
                                                                 b_stride, depth);
    }
}

// The same product over `columns` columns (a multiple of kLanes), in slices of Vectors vectors.
template <int Vectors, bool Accumulate>
void multiply_rows(float* c, std::ptrdiff_t c_stride, const float* a, std::ptrdiff_t a_stride, const float* b,
                   std::ptrdiff_t b_stride, int depth, int columns) {
    constexpr int kSlice = Vectors * kLanes;
    int column = 0;
    for (; column + kSlice <= columns; column += kSlice)
        multiply_group<Vectors, Accumulate>(c + column, c_stride, a, a_stride, b + column, b_stride, depth);
    if (column < columns)
        multiply_group_remainder<Vectors - 1, Accumulate>((columns - column) / kLanes, c + column, c_stride,
                                                          a, a_stride, b + column, b_stride, depth);
}

// ---- What one call computes ----

// Query rows per block: every group of the block reads the tile's K and V from L1.
constexpr int kQueryBlock = 48;
static_assert(kQueryBlock % kGroupRows == 0, "a block is a whole number of groups");

inline int round_up(int n, int multiple) {
    return (n + multiple - 1) / multiple * multiple;
}

// By value, unlike std::min and std::clamp, whose references clang-19 leaves as a select of
// addresses on a stack frame when the arguments live in a Plan: the relaxed module has no stack.
template <typename Number>
Number smaller(Number a, Number b) {
    return b < a ? b : a;
}
template <typename Number>
Number larger(Number a, Number b) {
    return a < b ? b : a;
}
template <typename Number>
Number clamped(Number x, Number low, Number high) {
    return smaller(larger(x, low), high);
}

// Everything the kernel reads and writes, as plain pointers into memory the caller owns (the
// relaxed-SIMD module has no allocator). Only ints, floats and pointers, so that fused.cpp and
// relaxed_kernel.cpp, both wasm32 and compiled from this header, agree on the layout.
struct Plan {
    int T = 0;
    int d = 0;
    int d_v = 0;
    int key_tile = 0;            // keys per tile, from 1 to T
    int causal = 0;              // 1: query i sees keys 0..i only
    float scale = 1.0f;          // formula()'s float32 scale, so that whatever it rounds to both paths use it
    float value_divisor = 1.0f;  // values holds v / value_divisor, a power of 2 (see fused.cpp)
    float value_bound = 0.0f;    // max|v|: no weighted mean of v can lie outside ±value_bound
    std::ptrdiff_t key_stride = 0;    // floats between rows of keys_transposed
    std::ptrdiff_t value_stride = 0;  // floats between rows of values and output: d_v rounded up to kLanes
    std::ptrdiff_t score_stride = 0;  // floats between rows of scores: key_tile rounded up to kLanes
    const float* queries = nullptr;   // (T rounded up to kGroupRows, d), extra rows 0
    const float* keys_transposed = nullptr;  // (d, key_stride): column j is key j, 0 past T
    const float* values = nullptr;           // (T, value_stride), extra columns 0
    float* scores = nullptr;  // (kGroupRows, score_stride) one group's scores, then weights, for one tile
    float* output = nullptr;  // (kQueryBlock, value_stride) unnormalised Σ exp(score - max)·v
    float* running_sum = nullptr;  // (kQueryBlock, kLanes) Σ exp(score - running_max), lane by lane
    float* running_max = nullptr;  // (kQueryBlock,) largest raw score seen so far
    float* out = nullptr;          // (T, d_v) the result
};

// ---- The algorithm ----

constexpr float kLog2e = 1.44269504088896341f;  // exp(x) = 2^(x·log2 e)

// Online softmax for one query row over one tile: row holds `width` raw scores (a multiple of
// kLanes), of which the first `visible` are keys this query may see. On return row holds the
// unnormalised weights exp((score - max)·scale), and the running max, the running sum and the
// output row accumulated from earlier tiles are brought to the new max. `scale` is formula()'s
// float32 scale, so that whatever it rounds to (even 0) both paths use the same number.
inline void update_softmax_row(float* row, int visible, int width, float scale, float& running_max,
                               float* running_sum, float* output_row, int output_width) {
    // -inf rather than a large negative number: exp gives exactly 0, as formula()'s mask does.
    std::fill(row + visible, row + width, -std::numeric_limits<float>::infinity());
    Floats tile_max = load(row);
    for (int j = kLanes; j < width; j += kLanes) tile_max = maximum(tile_max, load(row + j));
    // Every row sees key 0 in its first tile, so new_max is finite: no -inf - -inf below.
    const float new_max = larger(running_max, horizontal_max(tile_max));
    Floats sum = load(running_sum);
    if (new_max > running_max) {
        // What was summed against the old max is worth exp(old - new) times as much now
        // (0 on the first tile: exp(-inf)). Usually only the first few tiles raise the max.
        const Floats correction = exp2_nonpositive(splat((running_max - new_max) * scale * kLog2e));
        sum *= correction;
        for (int c = 0; c < output_width; c += kLanes)
            store(output_row + c, load(output_row + c) * correction);
        running_max = new_max;
    }
    // Subtracting the max keeps every exponent <= 0: no overflow for any finite score. Written
    // (score - max)·scale, not score·scale - max·scale: a fused multiply-add of the latter leaves
    // a residual of up to half an ulp of max·scale, positive as often as not (1e10 for scores
    // of 1e18, found by fuzz/); the difference is never positive and is exact near the max.
    const Floats max_vector = splat(new_max);
    for (int j = 0; j < width; j += kLanes) {
        const Floats weight = exp2_nonpositive((load(row + j) - max_vector) * scale * kLog2e);
        store(row + j, weight);
        sum += weight;
    }
    store(running_sum, sum);
}

// Queries [block_start, block_start + kQueryBlock) against every key they may see, written to out.
inline void attend_block(const Plan& plan, int block_start) {
    const int block_rows = smaller(kQueryBlock, round_up(plan.T - block_start, kGroupRows));
    const int last_query = smaller(block_start + block_rows, plan.T) - 1;
    // Later keys are hidden from the whole block: skipped.
    const int keys_end = plan.causal ? last_query + 1 : plan.T;
    const std::ptrdiff_t d = plan.d;
    const std::ptrdiff_t value_stride = plan.value_stride;
    std::fill_n(plan.output, kQueryBlock * value_stride, 0.0f);
    std::fill_n(plan.running_sum, kQueryBlock * kLanes, 0.0f);
    std::fill_n(plan.running_max, kQueryBlock, -std::numeric_limits<float>::infinity());

    for (int tile_start = 0; tile_start < keys_end; tile_start += plan.key_tile) {
        const int tile_keys = smaller(plan.key_tile, keys_end - tile_start);
        for (int group = 0; group < block_rows; group += kGroupRows) {
            const int group_start = block_start + group;
            // Under the mask a group needs keys only up to its own last query.
            const int group_keys =
                plan.causal ? smaller(tile_keys, group_start + kGroupRows - tile_start) : tile_keys;
            if (group_keys <= 0) continue;
            const int width = round_up(group_keys, kLanes);

            // 1. scores: this group's queries against the tile's keys.
            multiply_rows<kScoreVectors, false>(
                plan.scores, plan.score_stride, plan.queries + group_start * d, d,
                plan.keys_transposed + tile_start, plan.key_stride, plan.d, width);
            // 2. mask and 3. online softmax, row by row.
            for (int row = 0; row < kGroupRows; ++row) {
                const int query = group_start + row;
                const int visible = plan.causal ? clamped(query - tile_start + 1, 0, group_keys) : group_keys;
                update_softmax_row(plan.scores + row * plan.score_stride, visible, width, plan.scale,
                                   plan.running_max[group + row], plan.running_sum + (group + row) * kLanes,
                                   plan.output + (group + row) * value_stride,
                                   static_cast<int>(value_stride));
            }
            // 4. weighted sum: output += weights · V for the tile's keys.
            multiply_rows<kValueVectors, true>(plan.output + group * value_stride, value_stride, plan.scores,
                                               plan.score_stride, plan.values + tile_start * value_stride,
                                               value_stride, group_keys, static_cast<int>(value_stride));
        }
    }

    for (int row = 0; row + block_start <= last_query; ++row) {
        const float* output_row = plan.output + row * value_stride;
        float* out_row = plan.out + static_cast<std::ptrdiff_t>(block_start + row) * plan.d_v;
        const float sum = horizontal_sum(load(plan.running_sum + row * kLanes));
        // A weighted mean lies within ±max|v|; rounding can push it one ulp past, which at
        // FLT_MAX would be inf, so it is held to that bound.
        for (int c = 0; c < plan.d_v; ++c)
            out_row[c] =
                clamped(output_row[c] / sum * plan.value_divisor, -plan.value_bound, plan.value_bound);
    }
}

// The whole head: every block of queries in turn.
inline void attend(const Plan& plan) {
    for (int block_start = 0; block_start < plan.T; block_start += kQueryBlock)
        attend_block(plan, block_start);
}

}  // namespace attention::kernel
