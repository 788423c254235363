// head_checks: the promises of one head's three kernels, formula(), reference_f64() and
// fused(), checked on the same q, k, v (fuzz/targets/head.cpp and map.cpp use them).
//
// check_head() holds each kernel to our verdict (oracle.hpp) and, when the head is valid, to
// what the headers promise: every output finite; weights in [0, 1] whose rows sum to 1; masked
// scores exactly -inf and their weights exactly 0; scores within the float32 dot-product bound
// of the exact ones; each output row inside the range of the values its query can see; row
// statistics in range; and the kernels agreeing with one another within the tolerances of
// oracle.hpp.
#pragma once

#include "oracle.hpp"

namespace fuzz {

// m is (rows, cols) and holds rows·cols values.
void require_shape(const Matrix& m, int rows, int cols, const char* name);

// Runs formula(), reference_f64(), attention_weights() and fused() (with `key_tile`) on the head
// and checks every promise above.
void check_head(const Matrix& q, const Matrix& k, const Matrix& v, Scale scale, bool causal, int key_tile);

}  // namespace fuzz
