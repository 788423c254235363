// torch_random.cpp: PyTorch 1.13's CPU random stream for torch.randn (float32), in plain C++.
//
// What it reproduces (checked against torch 1.13 by tests/fixtures/make_fixtures.py):
//   - at::mt19937 seeded like torch.manual_seed (only the low 32 bits of the seed count);
//   - tensors of fewer than 16 elements: at::normal_distribution<double>, one scalar
//     Box-Muller pair per two values, with the spare normal cached across calls;
//   - tensors of 16 or more: normal_fill_AVX2, the vectorised kernel torch runs on any
//     x86-64 CPU with AVX2, rebuilt here one lane at a time (bit-exact in our checks).
// What it is not: a model of torch on CPUs without AVX2 (its scalar normal_fill rounds
// differently, by up to ~2e-6), of other dtypes, of CUDA, or of any other distribution.
#include "tutorial/torch_random.hpp"

#include <cmath>
#include <cstring>

namespace attention {
namespace {

constexpr double kPi = 3.14159265358979323846;  // c10::pi<double>

// Tempering and twist constants of the standard 32-bit Mersenne Twister.
constexpr std::size_t kShift = 397;
constexpr std::uint32_t kMatrixA = 0x9908b0dfU;
constexpr std::uint32_t kUpperMask = 0x80000000U;
constexpr std::uint32_t kLowerMask = 0x7fffffffU;

// torch's block kernel works on 16 values: 8 lanes of u1 followed by 8 lanes of u2.
constexpr std::size_t kBlock = 16;
constexpr std::size_t kHalfBlock = kBlock / 2;

#ifdef __wasm__
// The rare case: the double sum is inexact and exactly halfway between two floats, so its last
// bit moves one step towards the error before rounding. Out of line, as it almost never runs
// (inlined at all twenty call sites it made the module 22 KB larger).
[[gnu::noinline]] float settle_halfway(double product, double addend, double sum) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &sum, sizeof bits);
    const bool negative = (bits >> 63) != 0;
    const double error = negative == (addend > product) ? product - sum + addend : addend - sum + product;
    bits = negative == (error < 0) ? bits + 1 : bits - 1;
    double adjusted = 0.0;
    std::memcpy(&adjusted, &bits, sizeof adjusted);
    return static_cast<float>(adjusted);
}
#endif

// std::fma(a, b, c) for floats, without the call into libc's software fmaf that wasm makes
// (13% of a T = 512 map's time in the browser). The product of two floats is exact in double,
// so product + c rounds once; rounding that to float is then the correctly rounded result,
// unless the sum was inexact and lies exactly halfway between two floats (settle_halfway).
// This is musl's fmaf, which the wasm build called before: 6.3 million draws over six seeds
// matched that build's bit for bit. Natively std::fma is the processor's or glibc's.
float multiply_add(float a, float b, float c) {
#ifdef __wasm__
    const double product = static_cast<double>(a) * static_cast<double>(b);
    const double addend = static_cast<double>(c);
    const double sum = product + addend;
    std::uint64_t bits = 0;
    std::memcpy(&bits, &sum, sizeof bits);
    const bool halfway = (bits & 0x1fffffffU) == 0x10000000U;
    if (halfway && std::isfinite(sum) && !(sum - product == addend && sum - addend == product))
        return settle_halfway(product, addend, sum);
    return static_cast<float>(sum);
#else
    return std::fma(a, b, c);
#endif
}

std::uint32_t float_bits(float value) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}

float float_from_bits(std::uint32_t bits) {
    float value = 0.0f;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

// One lane of avx_mathfun.h's log256_ps (Cephes logf). Torch's AVX2 object code was
// built by GCC with FMA contraction, so every multiply feeding an add is fused here
// (multiply_add); the separate statements keep compilers from fusing anything else.
// Only called with x in (0, 1], so the denormal and x <= 0 branches are left out.
float cephes_log(float x) {
    const std::uint32_t bits = float_bits(x);
    float exponent = static_cast<float>(static_cast<std::int32_t>(bits >> 23) - 0x7f);
    exponent = exponent + 1.0f;
    float mantissa = float_from_bits((bits & ~0x7f800000U) | float_bits(0.5f));  // in [0.5, 1)

    float doubled = 0.0f;
    if (mantissa < 0.707106781186547524f) {
        doubled = mantissa;
        exponent = exponent - 1.0f;
    }
    mantissa = mantissa - 1.0f;
    mantissa = mantissa + doubled;

    const float m = mantissa;
    const float m_squared = m * m;
    float poly = 7.0376836292E-2f;
    poly = multiply_add(poly, m, -1.1514610310E-1f);
    poly = multiply_add(poly, m, 1.1676998740E-1f);
    poly = multiply_add(poly, m, -1.2420140846E-1f);
    poly = multiply_add(poly, m, +1.4249322787E-1f);
    poly = multiply_add(poly, m, -1.6668057665E-1f);
    poly = multiply_add(poly, m, +2.0000714765E-1f);
    poly = multiply_add(poly, m, -2.4999993993E-1f);
    poly = multiply_add(poly, m, +3.3333331174E-1f);
    poly = poly * m;
    // GCC fused (poly * m²) with + exponent·q1, not exponent·q1 with the sum: measured.
    const float exponent_low = exponent * -2.12194440e-4f;
    poly = multiply_add(poly, m_squared, exponent_low);
    poly = multiply_add(-m_squared, 0.5f, poly);
    float result = m + poly;
    result = multiply_add(exponent, 0.693359375f, result);
    return result;
}

// One lane of avx_mathfun.h's sincos256_ps (Cephes sinf/cosf), contracted like
// cephes_log. Only called with 0 <= x < 2π.
void cephes_sincos(float x, float& sine, float& cosine) {
    const bool negative = x < 0.0f;
    x = std::fabs(x);

    const float scaled = x * 1.27323954473516f;  // 4/π
    // j = (trunc(x·4/π) + 1) & ~1: the octant pair whose centre is nearest.
    std::int32_t octant = static_cast<std::int32_t>(scaled);
    octant = (octant + 1) & ~1;
    const float octant_f = static_cast<float>(octant);

    const bool sine_flips = (octant & 4) != 0;
    const bool near_axis = (octant & 2) == 0;  // sine from the sine polynomial
    const bool cosine_flips = ((~(octant - 2)) & 4) != 0;

    // x − j·π/4 with π/4 split in three so the reduction loses nothing.
    x = multiply_add(octant_f, -0.78515625f, x);
    x = multiply_add(octant_f, -2.4187564849853515625e-4f, x);
    x = multiply_add(octant_f, -3.77489497744594108e-8f, x);

    const float z = x * x;
    float cos_poly = 2.443315711809948E-005f;
    cos_poly = multiply_add(cos_poly, z, -1.388731625493765E-003f);
    cos_poly = multiply_add(cos_poly, z, 4.166664568298827E-002f);
    cos_poly = cos_poly * z;
    const float half_z = z * 0.5f;
    cos_poly = multiply_add(cos_poly, z, -half_z);
    cos_poly = cos_poly + 1.0f;

    float sin_poly = -1.9515295891E-4f;
    sin_poly = multiply_add(sin_poly, z, 8.3321608736E-3f);
    sin_poly = multiply_add(sin_poly, z, -1.6666654611E-1f);
    sin_poly = sin_poly * z;
    sin_poly = multiply_add(sin_poly, x, x);

    sine = near_axis ? sin_poly : cos_poly;
    cosine = near_axis ? cos_poly : sin_poly;
    if (negative != sine_flips) sine = -sine;
    if (cosine_flips) cosine = -cosine;
}

// normal_fill_16_AVX2: uniforms in [0, 1) become 16 standard normals in place,
// pairing element i with element i + 8.
void box_muller_block(float* block) {
    const float two_pi = static_cast<float>(2.0 * kPi);
    for (std::size_t lane = 0; lane < kHalfBlock; ++lane) {
        const float u1 = 1.0f - block[lane];  // (0, 1], so the log is finite
        const float u2 = block[lane + kHalfBlock];
        const float radius = std::sqrt(-2.0f * cephes_log(u1));
        const float theta = two_pi * u2;
        float sine = 0.0f;
        float cosine = 0.0f;
        cephes_sincos(theta, sine, cosine);
        block[lane] = cosine * radius;
        block[lane + kHalfBlock] = sine * radius;
    }
}

}  // namespace

TorchGenerator::TorchGenerator(std::uint64_t seed) {
    // at::mt19937 keeps a 32-bit state, so seeds 5 and 2^32 + 5 give the same stream.
    mt_state_[0] = static_cast<std::uint32_t>(seed & 0xffffffffU);
    for (std::size_t i = 1; i < kStateSize; ++i) {
        const std::uint32_t previous = mt_state_[i - 1];
        mt_state_[i] = 1812433253U * (previous ^ (previous >> 30)) + static_cast<std::uint32_t>(i);
    }
    mt_next_index_ = kStateSize;
}

std::uint32_t TorchGenerator::next_u32() {
    if (mt_next_index_ >= kStateSize) {
        for (std::size_t i = 0; i < kStateSize; ++i) {
            const std::uint32_t mixed =
                (mt_state_[i] & kUpperMask) | (mt_state_[(i + 1) % kStateSize] & kLowerMask);
            const std::uint32_t twist = (mixed >> 1) ^ ((mixed & 1U) != 0 ? kMatrixA : 0U);
            mt_state_[i] = mt_state_[(i + kShift) % kStateSize] ^ twist;
        }
        mt_next_index_ = 0;
    }
    std::uint32_t y = mt_state_[mt_next_index_++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= y >> 18;
    return y;
}

// at::uniform_real_distribution<double>: random64() puts the FIRST 32-bit draw in the
// high half; only the low 53 bits are kept.
double TorchGenerator::next_uniform_double() {
    const std::uint64_t high = next_u32();
    const std::uint64_t low = next_u32();
    const std::uint64_t bits = ((high << 32) | low) & ((std::uint64_t{1} << 53) - 1);
    return static_cast<double>(bits) * (1.0 / static_cast<double>(std::uint64_t{1} << 53));
}

// at::uniform_real_distribution<float>: one 32-bit draw, low 24 bits.
float TorchGenerator::next_uniform_float() {
    return static_cast<float>(next_u32() & 0xffffffU) * (1.0f / static_cast<float>(1U << 24));
}

// at::normal_distribution<double>. Unlike the block kernel, the FIRST uniform sets the
// angle and the second the radius (through log(1 − u)).
double TorchGenerator::next_normal_double() {
    if (has_cached_normal_) {
        has_cached_normal_ = false;
        return cached_normal_;
    }
    const double angle_uniform = next_uniform_double();
    const double radius_uniform = next_uniform_double();
    const double radius = std::sqrt(-2.0 * std::log(1.0 - radius_uniform));
    const double theta = 2.0 * kPi * angle_uniform;
    cached_normal_ = radius * std::sin(theta);
    has_cached_normal_ = true;
    return radius * std::cos(theta);
}

// normal_fill_AVX2: all uniforms first, then whole blocks of 16; a ragged end is not
// padded but redone: the last 16 slots get fresh uniforms (overwriting any normals
// already there) and one more block transform. The cached scalar normal is untouched.
void TorchGenerator::fill_normal_floats(std::vector<float>& values) {
    const std::size_t count = values.size();
    for (float& value : values) value = next_uniform_float();
    for (std::size_t start = 0; start + kBlock <= count; start += kBlock)
        box_muller_block(values.data() + start);
    if (count % kBlock != 0) {
        float* tail = values.data() + (count - kBlock);
        for (std::size_t i = 0; i < kBlock; ++i) tail[i] = next_uniform_float();
        box_muller_block(tail);
    }
}

std::vector<float> TorchGenerator::randn(std::size_t count) {
    std::vector<float> values(count);
    if (count >= kBlock) {
        fill_normal_floats(values);
    } else {
        for (float& value : values) value = static_cast<float>(next_normal_double());
    }
    return values;
}

Matrix randn_matrix(TorchGenerator& generator, int rows, int cols, float multiplier) {
    std::vector<float> values = generator.randn(Matrix::element_count(rows, cols));
    if (multiplier != 1.0f)
        for (float& x : values) x *= multiplier;
    return Matrix(rows, cols, std::move(values));
}

}  // namespace attention
