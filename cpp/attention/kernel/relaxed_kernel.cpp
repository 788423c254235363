// relaxed_kernel.cpp: the fast path's kernel (fused_kernel.hpp) as a standalone wasm module built
// with -mrelaxed-simd, where every multiply-add is one f32x4.relaxed_madd (a fused multiply-add
// on x86 with FMA) instead of simd128's multiply then add. Emscripten 3.1.6 cannot link these
// opcodes, so scripts/build-relaxed.sh builds this file with clang-19 and wasm-ld-19, and the
// main module carries it as hex (cpp/attention/kernel/relaxed-library.js).
//
// It is not a program: no allocator, no libc, no data and no stack of its own (the build script
// checks the last two, since both would live at fixed addresses of the memory it borrows). It
// imports the Emscripten module's memory and exports one function, which runs a Plan that
// fused() in cpp/attention/kernel/fused.cpp has checked, packed and allocated in that memory.
#include "fused_kernel.hpp"

extern "C" __attribute__((export_name("attend"))) void attend(const attention::kernel::Plan* plan) {
    attention::kernel::attend(*plan);
}
