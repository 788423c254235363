// float16.cpp: see float16.hpp.
#include "trained/float16.hpp"

#include <cmath>
#include <cstring>
#include <stdexcept>

namespace attention {

std::uint16_t to_float16(float value) {
    std::uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    const auto sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000u);
    const std::uint32_t magnitude = bits & 0x7fffffffu;
    if (magnitude >= 0x477ff000u)  // 65520 and above round to infinity; inf and NaN are above too
        throw std::invalid_argument("weight " + std::to_string(value) + " does not fit in float16");
    if (magnitude < 0x38800000u) {  // below 2^-14: a subnormal half, a whole number of 2^-24 steps
        float small;
        std::memcpy(&small, &magnitude, sizeof small);
        // Exact in float32, and nearbyint rounds halves to even in the default rounding mode.
        return static_cast<std::uint16_t>(sign |
                                          static_cast<std::uint16_t>(std::nearbyint(small * 16777216.0f)));
    }
    // Rebias the exponent (127 → 15) and drop 13 mantissa bits, rounding half to even; a carry
    // out of the mantissa correctly bumps the exponent.
    const std::uint32_t rounded = magnitude + 0xfffu + ((magnitude >> 13) & 1u);
    return static_cast<std::uint16_t>(sign | ((rounded - 0x38000000u) >> 13));
}

float from_float16(std::uint16_t half) {
    const int exponent = (half >> 10) & 0x1f;
    const int mantissa = half & 0x3ff;
    const float magnitude = exponent == 0 ? std::ldexp(static_cast<float>(mantissa), -24)
                                          : std::ldexp(static_cast<float>(1024 + mantissa), exponent - 25);
    return (half & 0x8000) ? -magnitude : magnitude;
}

std::string base64(const std::vector<unsigned char>& bytes) {
    static const char* digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    for (std::size_t i = 0; i < bytes.size(); i += 3) {
        const std::size_t left = bytes.size() - i;
        const std::uint32_t chunk = (std::uint32_t{bytes[i]} << 16) |
                                    (left > 1 ? std::uint32_t{bytes[i + 1]} << 8 : 0u) |
                                    (left > 2 ? std::uint32_t{bytes[i + 2]} : 0u);
        out += digits[(chunk >> 18) & 63];
        out += digits[(chunk >> 12) & 63];
        out += left > 1 ? digits[(chunk >> 6) & 63] : '=';
        out += left > 2 ? digits[chunk & 63] : '=';
    }
    return out;
}

std::string float16_base64(const std::vector<float>& values) {
    std::vector<unsigned char> bytes;
    bytes.reserve(values.size() * 2);
    for (float x : values) {
        const std::uint16_t half = to_float16(x);
        bytes.push_back(static_cast<unsigned char>(half & 0xffu));
        bytes.push_back(static_cast<unsigned char>(half >> 8));
    }
    return base64(bytes);
}

}  // namespace attention
