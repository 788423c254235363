// base64 and binary16 decoded from their definitions (RFC 4648, IEEE 754), independent of
// cpp/trained/float16.cpp: the float16 tests read halves with it, the learned head's tests the
// saved head's JSON.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace float16_decoding {

inline std::vector<unsigned char> from_base64(const std::string& text) {
    const std::string digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::vector<unsigned char> bytes;
    std::uint32_t buffer = 0;
    int bits = 0;
    for (char c : text) {
        if (c == '=') break;
        buffer = (buffer << 6) | static_cast<std::uint32_t>(digits.find(c));
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            bytes.push_back(static_cast<unsigned char>((buffer >> bits) & 0xffu));
        }
    }
    return bytes;
}

// binary16 → float, from the format's definition (independent of float16.cpp).
inline float half_to_float(std::uint16_t half) {
    const int exponent = (half >> 10) & 31, mantissa = half & 1023;
    const float magnitude = exponent == 0 ? std::ldexp(static_cast<float>(mantissa), -24)
                                          : std::ldexp(static_cast<float>(1024 + mantissa), exponent - 25);
    return (half & 0x8000) ? -magnitude : magnitude;
}

}  // namespace float16_decoding
