// vector_width.hpp: how many bytes one vector register holds under the flags the including file
// is compiled with (AVX-512, AVX, or 16: SSE2, NEON and wasm simd128). One definition for the
// fused kernel, the model's products and the bench's peak probe. A namespace-scope constexpr
// has internal linkage, so files built with other vector flags each see their own value.
#pragma once

namespace attention::simd {

#if defined(__AVX512F__)
constexpr int kVectorBytes = 64;
#elif defined(__AVX__)
constexpr int kVectorBytes = 32;
#else
constexpr int kVectorBytes = 16;
#endif

}  // namespace attention::simd
