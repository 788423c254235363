// checks: the preconditions the attention kernels share. Internal to the core (attention.cpp,
// fused.cpp, backward.cpp, model.cpp); callers see only the std::invalid_argument these throw, through the
// public functions in attention.hpp.
#pragma once

#include "attention.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace attention {

// Shapes, limits, finite values and no float32 overflow in Q·Kᵀ; returns the scale factor
// for this head. Throws std::invalid_argument naming the argument and the limit.
double validate_inputs(const Matrix& q, const Matrix& k, const Matrix& v, Scale scale);

// Throws std::invalid_argument naming `name` unless every value is finite.
void require_finite(const Matrix& m, const char* name);

namespace {  // each including file gets its own copy, at its own vector flags

// The largest |x| in m, compared as bit patterns (for finite floats |x|'s bits order like |x|,
// and inf and NaN have the largest patterns of all): an integer max the compilers vectorise,
// where a float max or a per-value isfinite would run one element at a time. It is NaN or inf
// when some value is, so `largest_magnitude(m) <= FLT_MAX` proves every value finite.
inline float largest_magnitude(const Matrix& m) noexcept {
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

}  // namespace

}  // namespace attention
