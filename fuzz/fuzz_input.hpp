// fuzz_input: turns libFuzzer's bytes into the core's arguments, front to back.
//
// Reading is sequential and forgiving: past the end every read returns 0, so any byte
// string is a valid input and a short hand-written file (fuzz/make_corpus.py) means what it
// says. Values come from small tables that reach the edges on purpose (NaN, ±inf, FLT_MAX,
// denormals, INT_MIN, the library's own limits) as often as from plain numbers. It does not
// judge what it decodes: deciding which inputs are valid is the fuzz target's job.
#pragma once

#include "attention/formula.hpp"

#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace fuzz {

class FuzzInput {
  public:
    FuzzInput(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

    std::uint8_t byte() { return position_ < size_ ? data_[position_++] : 0; }

    // Little-endian, zero-padded past the end.
    template <typename T>
    T raw() {
        unsigned char bytes[sizeof(T)] = {};
        for (unsigned char& b : bytes) b = byte();
        T value;
        std::memcpy(&value, bytes, sizeof(T));
        return value;
    }

    std::string rest() {
        std::string text(reinterpret_cast<const char*>(data_ + position_), size_ - position_);
        position_ = size_;
        return text;
    }

  private:
    const std::uint8_t* data_;
    std::size_t size_;
    std::size_t position_ = 0;
};

// One byte -> one float: 3/4 of the bytes are the grid -6 … 5.9375 in steps of 1/16 (exact
// in float32, so ties and cancellations happen), the rest are edge values.
inline float value_from_byte(std::uint8_t b) {
    static const float kSpecial[] = {0.0f,
                                     -0.0f,
                                     std::numeric_limits<float>::quiet_NaN(),
                                     -std::numeric_limits<float>::quiet_NaN(),
                                     std::numeric_limits<float>::infinity(),
                                     -std::numeric_limits<float>::infinity(),
                                     std::numeric_limits<float>::signaling_NaN(),
                                     FLT_MAX,
                                     -FLT_MAX,
                                     FLT_MAX / 2,
                                     FLT_MAX / 4,
                                     1e38f,
                                     1e30f,
                                     -1e30f,
                                     1.8446743e19f /* ≈ sqrt(FLT_MAX) */,
                                     -1.8446743e19f,
                                     1e19f,
                                     1e15f,
                                     1e10f,
                                     65504.0f,
                                     1e6f,
                                     -1e6f,
                                     1e3f,
                                     -1e3f,
                                     100.0f,
                                     88.8f /* expf overflows above ~88.72 */,
                                     -87.4f,
                                     -103.98f /* expf underflows to 0 */,
                                     104.0f,
                                     -150.0f,
                                     16777216.0f,
                                     16777217.0f,
                                     0.1f,
                                     -0.1f,
                                     1.0f / 3.0f,
                                     1.0000001f,
                                     0.99999994f,
                                     1e-3f,
                                     1e-10f,
                                     1e-20f,
                                     1e-30f,
                                     FLT_MIN,
                                     -FLT_MIN,
                                     FLT_MIN / 2 /* denormal */,
                                     1e-40f,
                                     1e-44f,
                                     FLT_TRUE_MIN,
                                     -FLT_TRUE_MIN,
                                     3 * FLT_TRUE_MIN,
                                     1.5f,
                                     2.0f,
                                     -2.0f,
                                     8.5e37f,
                                     4.0f,
                                     7.0f,
                                     -7.0f,
                                     1e-5f,
                                     50.0f,
                                     -50.0f,
                                     1e20f,
                                     -1e20f,
                                     3e38f,
                                     1e-38f,
                                     -1e-38f};
    constexpr int kGrid = 192;
    if (b < kGrid) return static_cast<float>(b - 96) / 16.0f;
    return kSpecial[static_cast<std::size_t>(b - kGrid) % (sizeof kSpecial / sizeof kSpecial[0])];
}

// splitmix64: a tiny, fully specified generator for "many plausible values from few bytes",
// deliberately not the torch port under test.
inline std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// count floats in one of four encodings chosen by the first byte:
//   0 one byte per value (value_from_byte); 1 four raw bytes per value (any bit pattern);
//   2 seeded: (seed, exponent e) -> roughly normal values times 2^(e-128), then up to three
//     patches (2-byte index, value byte) -- a full matrix from a few bytes, at any magnitude;
//   3 every value the same (value byte): ties everywhere.
inline std::vector<float> read_values(FuzzInput& in, std::size_t count) {
    std::vector<float> values(count);
    switch (in.byte() % 4) {
        case 0:
            for (float& x : values) x = value_from_byte(in.byte());
            break;
        case 1:
            for (float& x : values) x = in.raw<float>();
            break;
        case 2: {
            std::uint64_t state = in.byte();
            const double magnitude = std::ldexp(1.0, static_cast<int>(in.byte()) - 128);
            for (float& x : values) {
                // Irwin-Hall: four uniforms minus 2, roughly normal with variance 1/3.
                double sum = 0.0;
                for (int i = 0; i < 4; ++i) sum += static_cast<double>(splitmix64(state) >> 11) * 0x1.0p-53;
                x = static_cast<float>((sum - 2.0) * magnitude);
            }
            const int patches = in.byte() % 4;
            for (int p = 0; p < patches; ++p) {
                const std::size_t at = in.raw<std::uint16_t>();
                const float x = value_from_byte(in.byte());
                if (count > 0) values[at % count] = x;
            }
            break;
        }
        default: {
            const float x = value_from_byte(in.byte());
            for (float& v : values) v = x;
            break;
        }
    }
    return values;
}

// An int near the interesting part of [0, small_range) most of the time, else an edge value.
inline int int_from_byte(std::uint8_t b, int small_base, int small_range, std::initializer_list<int> edges) {
    constexpr int kSmall = 200;
    if (b < kSmall || edges.size() == 0) return small_base + b % small_range;
    return edges.begin()[static_cast<std::size_t>(b - kSmall) % edges.size()];
}

// A custom scale factor: a table of edge cases (invalid ones included) or any 8 raw bytes.
inline double scale_factor_from(FuzzInput& in) {
    static const double kFactors[] = {
        0.0,
        -0.0,
        -1.0,
        -1e-300,
        std::numeric_limits<double>::quiet_NaN(),
        std::numeric_limits<double>::infinity(),
        -std::numeric_limits<double>::infinity(),
        1e-300 /* rounds to 0 in float32 */,
        5e-324,
        DBL_MIN,
        1e-45,
        1e-38,
        1e-10,
        1e-3,
        0.125,
        0.5,
        1.0,
        2.0,
        10.0,
        1e3,
        1e10,
        1e30,
        3.4e38,
        static_cast<double>(FLT_MAX),
        3.4028235677973366e38 /* the largest double that still rounds to FLT_MAX */,
        3.4028235677973367e38 /* rounds to inf in float32 */,
        1e39,
        1e300,
        DBL_MAX,
        attention::kMinScaleFactor,
        std::nextafter(attention::kMinScaleFactor, 0.0),
        attention::kMaxScaleFactor,
        std::nextafter(attention::kMaxScaleFactor, INFINITY)};
    const std::uint8_t b = in.byte();
    if (b < 128) return kFactors[b % (sizeof kFactors / sizeof kFactors[0])];
    return in.raw<double>();
}

// Any of the four modes, and now and then a value outside the enum's named ones.
inline attention::Scale scale_from(FuzzInput& in) {
    const std::uint8_t mode = in.byte();
    const double factor = scale_factor_from(in);
    switch (mode % 8) {
        case 0:
        case 1:
            return attention::Scale::inverse_sqrt_d();
        case 2:
            return attention::Scale::inverse_d();
        case 3:
            return attention::Scale::none();
        case 7:
            return {static_cast<attention::ScaleMode>(4 + mode / 8), factor};
        default:
            return attention::Scale::custom(factor);
    }
}

inline int key_tile_from(std::uint8_t b) {
    return int_from_byte(b, 1, 70, {0, -1, -64, INT_MIN, INT_MAX, INT_MAX - 1, 4096, 1 << 20});
}

inline std::uint64_t seed_from(FuzzInput& in) {
    return in.raw<std::uint64_t>();
}

}  // namespace fuzz
