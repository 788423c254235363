// checks: the preconditions the attention kernels share. Internal to the core (attention.cpp
// and fused.cpp); callers see only the std::invalid_argument these throw, through the public
// functions in attention.hpp.
#pragma once

#include "attention.hpp"

namespace attention {

// Shapes, limits, finite values and no float32 overflow in Q·Kᵀ; returns the scale factor
// for this head. Throws std::invalid_argument naming the argument and the limit.
double validate_inputs(const Matrix& q, const Matrix& k, const Matrix& v, Scale scale);

// Throws std::invalid_argument naming `name` unless every value is finite.
void require_finite(const Matrix& m, const char* name);

}  // namespace attention
