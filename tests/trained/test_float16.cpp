// Tests of the float16 form the trained model is saved in (cpp/trained/float16.cpp): hand-worked
// bit patterns, RFC 4648's base64 vectors, every finite half read back, and what float16
// cannot hold.
#include "catch.hpp"
#include "float16_decoding.hpp"
#include "test_support.hpp"

#include "trained/float16.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

using namespace attention;
using float16_decoding::half_to_float;
using test_support::contains;
using test_support::invalid_argument_message;

TEST_CASE("float16 conversion matches hand-worked binary16 bit patterns", "[float16][hand]") {
    auto [value, bits] = GENERATE(table<float, std::uint16_t>({
        {0.0f, 0x0000},
        {-0.0f, 0x8000},
        {1.0f, 0x3c00},
        {-2.0f, 0xc000},
        {65504.0f, 0x7bff},                          // the largest float16
        {0.5f + 0.25f + 0.125f, 0x3b00},             // 0.875
        {1.0f / 3.0f, 0x3555},                       // 0.333251953125, the nearest
        {0.1f, 0x2e66},                              // 0.0999755859375
        {std::ldexp(1.0f, -14), 0x0400},             // the smallest normal
        {std::ldexp(1.0f, -24), 0x0001},             // the smallest subnormal
        {std::ldexp(1.0f, -25), 0x0000},             // half of it: a tie, to even (0)
        {std::ldexp(3.0f, -25), 0x0002},             // 1.5 steps: a tie, to even (2)
        {1.0f + std::ldexp(1.0f, -11), 0x3c00},      // a tie between 1 and its successor: to even
        {1.0f + 3 * std::ldexp(1.0f, -11), 0x3c02},  // a tie between 0x3c01 and 0x3c02: to even
        {2047.5f, 0x6800},                           // rounds up across a power of two: 2048
    }));
    CAPTURE(value, bits);
    REQUIRE(to_float16(value) == bits);
}

TEST_CASE("float16 conversion refuses what float16 cannot hold", "[float16][errors]") {
    const float value = GENERATE(65520.0f, -1e6f, std::numeric_limits<float>::infinity(),
                                 std::numeric_limits<float>::quiet_NaN());
    CAPTURE(value);
    REQUIRE(contains(invalid_argument_message([&] { to_float16(value); }), "does not fit in float16"));
}

TEST_CASE("base64 follows RFC 4648's test vectors", "[float16]") {
    auto [text, encoded] = GENERATE(table<std::string, std::string>({
        {"", ""},
        {"f", "Zg=="},
        {"fo", "Zm8="},
        {"foo", "Zm9v"},
        {"foob", "Zm9vYg=="},
        {"fooba", "Zm9vYmE="},
        {"foobar", "Zm9vYmFy"},
    }));
    CAPTURE(text);
    REQUIRE(base64(std::vector<unsigned char>(text.begin(), text.end())) == encoded);
    // 1.0 and -2.0 as little-endian float16: 00 3c 00 c0.
    REQUIRE(float16_base64({1.0f, -2.0f}) == base64({0x00, 0x3c, 0x00, 0xc0}));
}

TEST_CASE("from_float16 reads every finite half as the format defines it", "[training][float16]") {
    int mismatches = 0, first_mismatch = -1;
    for (int half = 0; half < 0x10000; ++half) {
        if (((half >> 10) & 31) == 31) continue;  // infinities and NaNs are never saved
        if (from_float16(static_cast<std::uint16_t>(half)) !=
            half_to_float(static_cast<std::uint16_t>(half))) {
            if (first_mismatch < 0) first_mismatch = half;
            ++mismatches;
        }
    }
    CAPTURE(first_mismatch);
    REQUIRE(mismatches == 0);
}
