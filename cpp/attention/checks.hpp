// checks: the preconditions the attention kernels share. Internal to the core (formula, reference,
// the fused kernel, the learning code's backward pass and model); callers see only the
// std::invalid_argument these throw, through the public functions.
#pragma once

#include "attention/matrix.hpp"
#include "attention/scale.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

namespace attention {

// Shapes, limits, finite values and no float32 overflow in Q·Kᵀ; returns the scale factor
// for this head. Throws std::invalid_argument naming the argument and the limit.
double validate_inputs(const Matrix& q, const Matrix& k, const Matrix& v, Scale scale);

// The checks on q and k alone (what the scores need); returns the scale factor.
double validate_scores(const Matrix& q, const Matrix& k, Scale scale);

// Throws std::invalid_argument naming `name` unless every value is finite.
void require_finite(const Matrix& m, const char* name);

// Throws unless T tokens fit the formula's T×T buffers (kMaxFormulaT).
void check_formula_size(int T);

// Throws "name = value is outside low…high" unless low ≤ value ≤ high.
void require_in_range(const char* name, long long value, long long low, long long high);

// "(rows, cols)", for messages.
std::string shape_of(const Matrix& m);

// The largest |x| in m (0 for an empty matrix).
float max_abs(const Matrix& m);

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
