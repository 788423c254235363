// fused.cpp: the fast path. Attention without the T×T matrix: FlashAttention-2's loop order on
// one CPU core, in SIMD. Output only; formula() in attention.cpp is the readable reference it is
// tested against (tests/test_fused.cpp). It is not multithreaded and has no batch axis, like the
// rest of the core; it is one source for every compiler the project uses (g++, clang++, em++).
//
// Why it is fast, idea by idea:
// * Blocks. A block of kQueryBlock query rows meets a tile of key_tile keys at a time. The K and V
//   rows of a tile (16 KiB each at d = 64) are loaded into L1 once per block, not once per query.
// * Micro-kernels. All multiply-adds happen in one small matrix-multiply kernel, used twice:
//   scores = Q·Kᵀ and output += P·V. It keeps a group of kGroupRows rows × a few vectors of
//   columns in registers for its whole inner loop, so each vector it loads feeds kGroupRows
//   multiply-adds. Kᵀ is built once per call so that both uses read contiguous rows of B (Kᵀ,
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
// it to the widest registers its target flags allow (CMakeLists.txt adds -march=native for this
// file natively; the wasm build has -msimd128), and to plain scalars on a target with none.
// GCC and Clang (so em++) only, like the project's warning flags; no -ffast-math: the sums keep
// their written order, and natively GCC and Clang fuse a*b + c into one FMA by default.

#include "attention.hpp"
#include "checks.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace attention {

namespace {

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
Floats load(const float* from) {
    Floats value;
    std::memcpy(&value, from, sizeof value);
    return value;
}
void store(float* to, Floats value) {
    std::memcpy(to, &value, sizeof value);
}
// x - 0 is x for every x (x + 0 is not: -0 + 0 = +0), so this folds to a plain broadcast.
Floats splat(float x) {
    return x - Floats{};
}
Floats maximum(Floats a, Floats b) {
    return a > b ? a : b;
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
Floats exp2_nonpositive(Floats x) {
    // Adding 1.5·2^23 rounds x to an integer n (the ulp there is 1) and leaves n in the low
    // mantissa bits; subtracting it again gives n as a float, and x - n is exact.
    const Floats rounding = splat(12582912.0f);
    const Floats shifted = x + rounding;
    const Floats f = x - (shifted - rounding);
    Floats two_to_f = splat(1.5353392518591136e-4f);
    two_to_f = two_to_f * f + 1.3398879673331976e-3f;
    two_to_f = two_to_f * f + 9.6184369176626205e-3f;
    two_to_f = two_to_f * f + 5.5503323674201965e-2f;
    two_to_f = two_to_f * f + 2.4022647738456726e-1f;
    two_to_f = two_to_f * f + 6.9314718246459961e-1f;
    two_to_f = two_to_f * f + 1.0f;
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
// Query rows per block: every group of the block reads the tile's K and V from L1.
constexpr int kQueryBlock = 48;
static_assert(kQueryBlock % kGroupRows == 0, "a block is a whole number of groups");

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
            for (int x = 0; x < Vectors; ++x) sum[row][x] += a_row_p * b_p[x];
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

// ---- Data layout ----

int round_up(int n, int multiple) {
    return (n + multiple - 1) / multiple * multiple;
}

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

// Per-block scratch, allocated once per call.
struct BlockState {
    std::ptrdiff_t score_stride = 0;
    AlignedFloats scores;       // (kGroupRows, score_stride): one group's scores, then weights, for one tile
    AlignedFloats output;       // (kQueryBlock, value_stride): unnormalised Σ exp(score - max)·v
    AlignedFloats running_sum;  // (kQueryBlock, kLanes) Σ exp(score - running_max) so far, lane by lane
    std::vector<float> running_max;  // (kQueryBlock,) largest raw score seen so far
};

// ---- The algorithm ----

constexpr float kLog2e = 1.44269504088896341f;  // exp(x) = 2^(x·log2 e)

// Online softmax for one query row over one tile: row holds `width` raw scores (a multiple of
// kLanes), of which the first `visible` are keys this query may see. On return row holds the
// unnormalised weights exp((score - max)·scale), and the running max, the running sum and the
// output row accumulated from earlier tiles are brought to the new max. `scale` is formula()'s
// float32 scale, so that whatever it rounds to (even 0) both paths use the same number.
void update_softmax_row(float* row, int visible, int width, float scale, float& running_max,
                        float* running_sum, float* output_row, int output_width) {
    // -inf rather than a large negative number: exp gives exactly 0, as formula()'s mask does.
    std::fill(row + visible, row + width, -std::numeric_limits<float>::infinity());
    Floats tile_max = load(row);
    for (int j = kLanes; j < width; j += kLanes) tile_max = maximum(tile_max, load(row + j));
    // Every row sees key 0 in its first tile, so new_max is finite: no -inf - -inf below.
    const float new_max = std::max(running_max, horizontal_max(tile_max));
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
void attend_block(const PackedInputs& in, int block_start, int key_tile, bool causal, float scale,
                  BlockState& state, Matrix& out) {
    const int block_rows = std::min(kQueryBlock, round_up(in.T - block_start, kGroupRows));
    const int last_query = std::min(block_start + block_rows, in.T) - 1;
    const int keys_end =
        causal ? last_query + 1 : in.T;  // later keys are hidden from the whole block: skipped
    const std::ptrdiff_t d = in.d;
    std::fill_n(state.output.data(), state.output.size(), 0.0f);
    std::fill_n(state.running_sum.data(), state.running_sum.size(), 0.0f);
    std::fill(state.running_max.begin(), state.running_max.end(), -std::numeric_limits<float>::infinity());

    for (int tile_start = 0; tile_start < keys_end; tile_start += key_tile) {
        const int tile_keys = std::min(key_tile, keys_end - tile_start);
        for (int group = 0; group < block_rows; group += kGroupRows) {
            const int group_start = block_start + group;
            // Under the mask a group needs keys only up to its own last query.
            const int group_keys =
                causal ? std::min(tile_keys, group_start + kGroupRows - tile_start) : tile_keys;
            if (group_keys <= 0) continue;
            const int width = round_up(group_keys, kLanes);

            // 1. scores: this group's queries against the tile's keys.
            multiply_rows<kScoreVectors, false>(
                state.scores.data(), state.score_stride, in.queries.data() + group_start * d, d,
                in.keys_transposed.data() + tile_start, in.key_stride, in.d, width);
            // 2. mask and 3. online softmax, row by row.
            for (int row = 0; row < kGroupRows; ++row) {
                const int query = group_start + row;
                const int visible = causal ? std::clamp(query - tile_start + 1, 0, group_keys) : group_keys;
                update_softmax_row(state.scores.data() + row * state.score_stride, visible, width, scale,
                                   state.running_max[static_cast<std::size_t>(group + row)],
                                   state.running_sum.data() + (group + row) * kLanes,
                                   state.output.data() + (group + row) * in.value_stride,
                                   static_cast<int>(in.value_stride));
            }
            // 4. weighted sum: output += weights · V for the tile's keys.
            multiply_rows<kValueVectors, true>(
                state.output.data() + group * in.value_stride, in.value_stride, state.scores.data(),
                state.score_stride, in.values.data() + tile_start * in.value_stride, in.value_stride,
                group_keys, static_cast<int>(in.value_stride));
        }
    }

    for (int row = 0; row + block_start <= last_query; ++row) {
        const float* output_row = state.output.data() + row * in.value_stride;
        const float sum = horizontal_sum(load(state.running_sum.data() + row * kLanes));
        // A weighted mean lies within ±max|v|; rounding can push it one ulp past, which at
        // FLT_MAX would be inf, so it is held to that bound.
        for (int c = 0; c < in.d_v; ++c)
            out.at(block_start + row, c) =
                std::clamp(output_row[c] / sum * in.value_divisor, -in.value_bound, in.value_bound);
    }
}

}  // namespace

Matrix fused(const Matrix& q, const Matrix& k, const Matrix& v, Scale scale, bool causal, int key_tile) {
    const double factor = validate_inputs(q, k, v, scale);
    if (key_tile < 1)
        throw std::invalid_argument("key_tile = " + std::to_string(key_tile) + " must be at least 1");
    const PackedInputs in = pack_inputs(q, k, v);
    const int tile = std::min(key_tile, in.T);
    const float scale_f = static_cast<float>(factor);

    BlockState state;
    state.score_stride = round_up(tile, kLanes);
    state.scores = AlignedFloats(static_cast<std::size_t>(kGroupRows * state.score_stride));
    state.output = AlignedFloats(static_cast<std::size_t>(kQueryBlock * in.value_stride));
    state.running_sum = AlignedFloats(kQueryBlock * kLanes);
    state.running_max.resize(kQueryBlock);

    Matrix out(in.T, in.d_v);
    for (int block_start = 0; block_start < in.T; block_start += kQueryBlock)
        attend_block(in, block_start, tile, causal, scale_f, state, out);
    return out;
}

}  // namespace attention
