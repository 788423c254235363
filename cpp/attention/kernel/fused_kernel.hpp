// fused_kernel.hpp: the inner part of the fast path (cpp/attention/kernel/fused.cpp): the portable SIMD
// layer, the two multiply-add micro-kernels and the online softmax over tiles of keys, working on inputs that
// fused.cpp has already checked and packed. A header, and no allocation or libc call in it,
// because two programs compile it: fused.cpp everywhere (g++, clang++, em++ with -msimd128),
// and cpp/attention/kernel/relaxed_kernel.cpp, the small standalone wasm module that clang-19 builds with
// -mrelaxed-simd (scripts/build-relaxed.sh), where multiply_add() becomes f32x4.relaxed_madd.
// Both wasm modules share one memory: fused.cpp fills a Plan and the relaxed module runs it.
//
// Why it is fast, idea by idea:
// * Blocks. A block of kQueryBlock query rows meets a tile of key_tile keys at a time, so the
//   tile's K and V are read from cache by every group of the block, not once per query.
// * Scores transposed. A vector holds one score for each of kLanes queries, not kLanes keys of one
//   query: the softmax over keys is then lane-wise (max, exp and sum need no horizontal step, no
//   per-row branch), and the weights come out as (key, query), the layout that the weighted sum
//   broadcasts from.
// * Micro-kernels. All multiply-adds happen in two small kernels, scores = Kᵀ-blocks · Q and
//   output += P·V. Each keeps a few rows × vectors of accumulators in registers for its whole
//   inner loop, so each vector it loads feeds several multiply-adds, and reads packed operands
//   (fused.cpp's layouts) at fixed offsets from one pointer: in wasm an offset is part of the load
//   instruction, where a row stride known only at run time costs an address computation per row.
// * Online softmax. Per query: running max, running sum of exp(score - max), and the output so
//   far rescaled by the change of max; scores live only in a small L1 buffer. The score kernel
//   also masks them and takes their max as they leave its registers (no extra pass), and the
//   softmax multiplies (score - max) by scale·log2(e) once, so that exp is 2^x, a polynomial on
//   whole vectors.
// * Causal mask. Tiles past a block's last query are never visited, and in a tile on the diagonal
//   each group stops at its own last query: only a group's own small triangle is wasted.
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

#include "vector_width.hpp"

namespace attention::kernel {

// ---- The portable SIMD layer: kLanes floats, as wide as the target's vector registers. ----

constexpr int kLanes = simd::kVectorBytes / static_cast<int>(sizeof(float));

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
// a > b ? a : b, which is b when a is NaN (one instruction: maxps, f32x4.pmax).
inline Floats maximum(Floats a, Floats b) {
    return a > b ? a : b;
}

// a·b + c. With -mrelaxed-simd (cpp/attention/kernel/relaxed_kernel.cpp) this is f32x4.relaxed_madd: one
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

// {first, first + 1, ..., first + kLanes - 1}
template <int... Lane>
Ints lane_indices(int first, std::integer_sequence<int, Lane...>) {
    return Ints{Lane...} + first;
}

// 2^x for x <= 0 (std::exp does not vectorise without -ffast-math). x = n + f with n an integer
// and |f| <= 1/2; 2^f by a degree-5 polynomial, a minimax fit for relative error with the
// constant term 1 (so 2^0 is exactly 1: a query that sees one key copies its value exactly),
// whose float32 evaluation is within 1.7e-7 of 2^f over [-1/2, 1/2] (measured on 2·10⁶ points;
// degree 6 gave 0.8e-7, both far inside every test's bound); 2^n by writing n + 127 into the
// exponent bits. x is first raised to -127, where n + 127 = 0 makes those bits the float 0: below
// the normal range, for masked scores (-inf) and for NaN (max gives -127 for it) the result is
// exactly 0, the weight formula() gives a masked key. No compare, select or float-to-int
// conversion: each costs instructions in wasm.
inline Floats exp2_nonpositive(Floats x) {
    x = maximum(x, splat(-127.0f));
    // Adding 1.5·2^23 + 127 rounds x to an integer n (the ulp there is 1) and leaves n + 127 in
    // the low mantissa bits; subtracting it again gives n as a float, and x - n is exact.
    const Floats rounding = splat(12582912.0f + 127.0f);
    const Floats shifted = x + rounding;
    const Floats f = x - (shifted - rounding);
    Floats two_to_f = splat(1.3264729641377926e-3f);
    two_to_f = multiply_add(two_to_f, f, splat(9.6715129911899567e-3f));
    two_to_f = multiply_add(two_to_f, f, splat(5.5507335811853409e-2f));
    two_to_f = multiply_add(two_to_f, f, splat(2.4022242426872253e-1f));
    two_to_f = multiply_add(two_to_f, f, splat(6.9314700365066528e-1f));
    two_to_f = multiply_add(two_to_f, f, splat(1.0f));
    // The shift drops every bit of `shifted` above the low ones that hold n + 127, in [0, 127].
    Bits two_to_n;
    std::memcpy(&two_to_n, &shifted, sizeof two_to_n);
    two_to_n <<= 23;
    Floats two_to_n_float;
    std::memcpy(&two_to_n_float, &two_to_n, sizeof two_to_n_float);
    return two_to_f * two_to_n_float;
}

// ---- Shapes of the blocks ----

// A group is kQueryVectors vectors of queries, kGroupRows queries. Both micro-kernels multiply
// the group's query vectors by broadcast scalars: the score kernel by kKeyBlock keys' values at
// one depth, the weighted sum by kValueBlock value columns of one key; each keeps kQueryVectors ×
// (kKeyBlock or kValueBlock) accumulators in registers. Enough accumulators hide the latency of
// a multiply-add (at least 8 chains), and what the inner loop loads must fit beside them in the
// 15 XMM registers V8 gives wasm. In wasm 3 × 3 (9 accumulators, 3 vectors, 3 broadcasts) is the
// widest block that fits in every V8 we test (2 × 6: 20% slower in Node 20, 3% faster in
// Chromium 156; 2 × 4: 5% slower, no different). AVX2 has 16 registers and AVX-512 32, and the
// native compilers keep broadcasts in memory operands.
#if defined(__AVX512F__)
constexpr int kQueryVectors = 2;
constexpr int kKeyBlock = 12;   // 24 accumulators
constexpr int kValueBlock = 8;  // 16 accumulators; d_v = 64 is 8 blocks, no padding
constexpr int kBlockGroups = 2;
#elif defined(__AVX__)
constexpr int kQueryVectors = 2;
constexpr int kKeyBlock = 6;    // 12 accumulators
constexpr int kValueBlock = 6;  // 12 accumulators
constexpr int kBlockGroups = 3;
#else
constexpr int kQueryVectors = 3;
constexpr int kKeyBlock = 3;    // 9 accumulators
constexpr int kValueBlock = 3;  // 9 accumulators; d_v = 64 pads to 66
constexpr int kBlockGroups = 4;
#endif
constexpr int kGroupRows = kQueryVectors * kLanes;
// Query rows per block: every group of the block reads the tile's K and V from cache.
constexpr int kQueryBlock = kBlockGroups * kGroupRows;

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
    int key_tile = 0;            // keys per tile, a multiple of kKeyBlock
    int causal = 0;              // 1: query i sees keys 0..i only
    float scale = 1.0f;          // formula()'s float32 scale, so that whatever it rounds to both paths use it
    float value_divisor = 1.0f;  // values holds v / value_divisor, a power of 2 (see fused.cpp)
    float value_bound = 0.0f;    // max|v|: no weighted mean of v can lie outside ±value_bound
    int key_rows = 0;            // T rounded up to kKeyBlock: keys and values hold that many, 0 past T
    int value_columns = 0;       // d_v rounded up to kValueBlock
    const float* queries = nullptr;  // (T / kGroupRows rounded up, d, kGroupRows), group by group
    const float* keys = nullptr;     // (key_rows / kKeyBlock, d, kKeyBlock), key block by key block
    const float* values = nullptr;   // (value_columns / kValueBlock, key_rows, kValueBlock)
    float* scores = nullptr;         // (key_tile, kGroupRows) one group's scores, then weights, for one tile
    float* tile_max = nullptr;       // (kGroupRows,) the largest of those scores, query by query
    float* correction = nullptr;     // (kGroupRows,) 2^((old max - new max)·scale·log2 e), query by query
    float* output = nullptr;         // (kBlockGroups, value_columns, kGroupRows) Σ 2^(...)·v, transposed
    float* running_sum = nullptr;    // (kQueryBlock,) Σ 2^((score - running_max)·scale·log2 e)
    float* running_max = nullptr;    // (kQueryBlock,) largest raw score seen so far
    float* out = nullptr;            // (T, d_v) the result
};

// ---- The micro-kernels ----

// Raw scores q·k of one group's queries (d, kGroupRows) against `blocks` key blocks (each (d,
// kKeyBlock)), stored as scores (blocks·kKeyBlock, kGroupRows). Keys past a query's last key (its
// own index under the mask; T - 1 in any case, for the padding) are -inf, and tile_max
// (kGroupRows,) is raised to each query's largest score. Not inlined: in a function of its own the
// accumulators get the register file to themselves.
__attribute__((noinline)) inline void score_group(float* scores, float* tile_max, const float* queries,
                                                  const float* keys, int d, int blocks, int first_key,
                                                  int group_start, int causal, int last_key) {
    // Blocks up to this key need no mask for any query of the group.
    const int unmasked_last_key = causal ? smaller(group_start, last_key) : last_key;
    for (int block = 0; block < blocks; ++block, keys += d * kKeyBlock, scores += kKeyBlock * kGroupRows) {
        Floats sum[kKeyBlock][kQueryVectors];
        for (int key = 0; key < kKeyBlock; ++key)
            for (int x = 0; x < kQueryVectors; ++x) sum[key][x] = Floats{};
        const float* query_p = queries;
        const float* key_p = keys;
        for (int p = 0; p < d; ++p, query_p += kGroupRows, key_p += kKeyBlock) {
            Floats query[kQueryVectors];
            for (int x = 0; x < kQueryVectors; ++x) query[x] = load(query_p + x * kLanes);
            for (int key = 0; key < kKeyBlock; ++key) {
                const Floats key_value = splat(key_p[key]);
                for (int x = 0; x < kQueryVectors; ++x)
                    sum[key][x] = multiply_add(key_value, query[x], sum[key][x]);
            }
        }
        const int block_first_key = first_key + block * kKeyBlock;
        if (block_first_key + kKeyBlock - 1 > unmasked_last_key)
            for (int x = 0; x < kQueryVectors; ++x) {
                const Ints query =
                    lane_indices(group_start + x * kLanes, std::make_integer_sequence<int, kLanes>{});
                const Ints last = Ints{} + last_key;
                const Ints query_last_key = causal ? (query < last ? query : last) : last;
                for (int key = 0; key < kKeyBlock; ++key)
                    sum[key][x] = Ints{} + (block_first_key + key) > query_last_key
                                      ? splat(-std::numeric_limits<float>::infinity())
                                      : sum[key][x];
            }
        // The running max lives in memory, not in registers the inner loop needs.
        for (int x = 0; x < kQueryVectors; ++x) {
            Floats largest = load(tile_max + x * kLanes);
            for (int key = 0; key < kKeyBlock; ++key) {
                largest = maximum(largest, sum[key][x]);
                store(scores + key * kGroupRows + x * kLanes, sum[key][x]);
            }
            store(tile_max + x * kLanes, largest);
        }
    }
}

// The weighted sum for one group over one tile, transposed: for each of `blocks` blocks of
// kValueBlock value columns, output (kValueBlock, kGroupRows) = output · correction (query by
// query) + Σ over keys of values[key][column] · weights[key]. weights (keys, kGroupRows) are the
// softmax's, values the packed (key_rows, kValueBlock) block from the tile's first key, each
// block value_block_floats apart. Not inlined, as above.
__attribute__((noinline)) inline void weigh_values(float* output, const float* correction,
                                                   const float* weights, const float* values,
                                                   std::ptrdiff_t value_block_floats, int keys, int blocks) {
    for (int block = 0; block < blocks;
         ++block, output += kValueBlock * kGroupRows, values += value_block_floats) {
        Floats sum[kValueBlock][kQueryVectors];
        for (int x = 0; x < kQueryVectors; ++x) {
            const Floats query_correction = load(correction + x * kLanes);
            for (int column = 0; column < kValueBlock; ++column)
                sum[column][x] = load(output + column * kGroupRows + x * kLanes) * query_correction;
        }
        const float* weight_key = weights;
        const float* value_key = values;
        for (int key = 0; key < keys; ++key, weight_key += kGroupRows, value_key += kValueBlock) {
            Floats weight[kQueryVectors];
            for (int x = 0; x < kQueryVectors; ++x) weight[x] = load(weight_key + x * kLanes);
            for (int column = 0; column < kValueBlock; ++column) {
                const Floats value = splat(value_key[column]);
                for (int x = 0; x < kQueryVectors; ++x)
                    sum[column][x] = multiply_add(value, weight[x], sum[column][x]);
            }
        }
        for (int column = 0; column < kValueBlock; ++column)
            for (int x = 0; x < kQueryVectors; ++x)
                store(output + column * kGroupRows + x * kLanes, sum[column][x]);
    }
}

// ---- The algorithm ----

constexpr float kLog2e = 1.44269504088896341f;  // exp(x) = 2^(x·log2 e)

// Online softmax for one group over one tile: scores holds `keys` raw scores per query (masked
// ones -inf) and tile_max their largest; scale_log2 is formula()'s float32 scale times log2(e).
// On return scores holds the unnormalised weights 2^((score - max)·scale_log2), the running max
// and sum are brought to the new max, and correction holds 2^((old max - new max)·scale_log2),
// by which the weighted sum scales the output so far (0 on the first tile, where the old max is
// -inf; usually only the first few tiles raise the max, and then it is 1).
inline void update_softmax(float* scores, int keys, const float* tile_max, float scale_log2,
                           float* running_max, float* running_sum, float* correction) {
    const Floats scale = splat(scale_log2);
    Floats new_max[kQueryVectors], sum[kQueryVectors];
    for (int x = 0; x < kQueryVectors; ++x) {
        // Every query sees key 0 in its first tile, so new_max is finite from then on.
        const Floats old_max = load(running_max + x * kLanes);
        new_max[x] = maximum(old_max, load(tile_max + x * kLanes));
        store(running_max + x * kLanes, new_max[x]);
        store(correction + x * kLanes, exp2_nonpositive((old_max - new_max[x]) * scale));
        sum[x] = Floats{};
    }
    // Subtracting the max keeps every exponent <= 0: no overflow for any finite score. Written
    // (score - max)·scale, not score·scale - max·scale: a fused multiply-add of the latter leaves
    // a residual of up to half an ulp of max·scale, positive as often as not (1e10 for scores
    // of 1e18, found by fuzz/); the difference is never positive and is exact near the max.
    // A scale that rounds to 0 makes a masked exponent -inf·0 = NaN, which exp2_nonpositive()
    // turns into 0, and every other exponent 0: uniform weights, as formula() gives.
    for (int key = 0; key < keys; ++key)
        for (int x = 0; x < kQueryVectors; ++x) {
            float* score = scores + key * kGroupRows + x * kLanes;
            const Floats weight = exp2_nonpositive((load(score) - new_max[x]) * scale);
            store(score, weight);
            sum[x] += weight;
        }
    for (int x = 0; x < kQueryVectors; ++x)
        store(running_sum + x * kLanes,
              multiply_add(load(running_sum + x * kLanes), load(correction + x * kLanes), sum[x]));
}

// Queries [block_start, block_start + kQueryBlock) against every key they may see, written to out.
inline void attend_block(const Plan& plan, int block_start) {
    const int block_rows = smaller(kQueryBlock, round_up(plan.T - block_start, kGroupRows));
    const int last_query = smaller(block_start + block_rows, plan.T) - 1;
    // Later keys are hidden from the whole block: skipped.
    const int keys_end = plan.causal ? last_query + 1 : plan.T;
    const std::ptrdiff_t d = plan.d;
    const std::ptrdiff_t group_output_floats = static_cast<std::ptrdiff_t>(plan.value_columns) * kGroupRows;
    const std::ptrdiff_t value_block_floats = static_cast<std::ptrdiff_t>(plan.key_rows) * kValueBlock;
    const float scale_log2 = plan.scale * kLog2e;
    std::fill_n(plan.output, kBlockGroups * group_output_floats, 0.0f);
    std::fill_n(plan.running_sum, kQueryBlock, 0.0f);
    std::fill_n(plan.running_max, kQueryBlock, -std::numeric_limits<float>::infinity());

    for (int tile_start = 0; tile_start < keys_end; tile_start += plan.key_tile) {
        const int tile_keys = smaller(plan.key_tile, keys_end - tile_start);
        for (int group = 0; group < block_rows; group += kGroupRows) {
            const int group_start = block_start + group;
            // Under the mask a group needs keys only up to its own last query.
            const int group_keys =
                plan.causal ? smaller(tile_keys, group_start + kGroupRows - tile_start) : tile_keys;
            if (group_keys <= 0) continue;
            const int width = round_up(group_keys, kKeyBlock);

            // 1. scores and 2. the mask: this group's queries against the tile's keys.
            std::fill_n(plan.tile_max, kGroupRows, -std::numeric_limits<float>::infinity());
            score_group(plan.scores, plan.tile_max, plan.queries + group_start * d,
                        plan.keys + tile_start * d, plan.d, width / kKeyBlock, tile_start, group_start,
                        plan.causal, plan.T - 1);
            // 3. online softmax.
            update_softmax(plan.scores, width, plan.tile_max, scale_log2, plan.running_max + group,
                           plan.running_sum + group, plan.correction);
            // 4. weighted sum: output = output · correction + weights · V for the tile's keys.
            weigh_values(plan.output + group / kGroupRows * group_output_floats, plan.correction, plan.scores,
                         plan.values + tile_start * kValueBlock, value_block_floats, width,
                         plan.value_columns / kValueBlock);
        }
    }

    for (int row = 0; row + block_start <= last_query; ++row) {
        const float* output_column = plan.output + row / kGroupRows * group_output_floats + row % kGroupRows;
        float* out_row = plan.out + static_cast<std::ptrdiff_t>(block_start + row) * plan.d_v;
        const float sum = plan.running_sum[row];
        // A weighted mean lies within ±max|v|; rounding can push it one ulp past, which at
        // FLT_MAX would be inf, so it is held to that bound.
        for (int c = 0; c < plan.d_v; ++c)
            out_row[c] = clamped(output_column[c * kGroupRows] / sum * plan.value_divisor, -plan.value_bound,
                                 plan.value_bound);
    }
}

// The whole head: every block of queries in turn.
inline void attend(const Plan& plan) {
    for (int block_start = 0; block_start < plan.T; block_start += kQueryBlock)
        attend_block(plan, block_start);
}

}  // namespace attention::kernel
