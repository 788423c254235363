// float16: float32 weights packed as IEEE binary16 and base64, the form the trained model is
// saved in for the page (half the bytes; the map needs no more than float16's 3 digits).
// The writing side, and the value a weight has once saved (the page decodes in JavaScript).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace attention {

// Nearest binary16, ties to even; subnormals kept. Throws std::invalid_argument for NaN, ±inf
// and anything that would round to ±inf (|x| ≥ 65520).
std::uint16_t to_float16(float value);

// The float32 a binary16 stands for (exact: every half is a float). What a saved weight reads
// back as, so a measurement of the saved model can use the very values the page applies.
float from_float16(std::uint16_t half);

// RFC 4648 base64 with '=' padding.
std::string base64(const std::vector<unsigned char>& bytes);

// Every value as float16, little-endian (as JavaScript's Uint16Array reads it on every engine
// in use), then base64.
std::string float16_base64(const std::vector<float>& values);

}  // namespace attention
