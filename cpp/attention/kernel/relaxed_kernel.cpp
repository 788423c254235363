// relaxed_kernel.cpp: the fast path's kernel (fused_kernel.hpp) and the trainer's matrix products
// (products.hpp) as one standalone wasm module built with -mrelaxed-simd, where every vector
// multiply-add is one f32x4 (or f64x2) relaxed_madd (a fused multiply-add on x86 with FMA)
// instead of simd128's multiply then add. Emscripten 3.1.6 cannot link these opcodes, so
// scripts/build-relaxed.sh builds this file with clang-19 and wasm-ld-19, and the main modules
// carry it deflated (cpp/attention/kernel/relaxed-library.js).
//
// It is not a program: no allocator, no libc, no data and no stack of its own (the build script
// checks the last two, since both would live at fixed addresses of the memory it borrows). It
// imports the Emscripten module's memory and exports three functions: attend runs a Plan that
// fused() in cpp/attention/kernel/fused.cpp has checked, packed and allocated in that memory;
// add_product_f32 and add_product_f64 run a ProductJob that the trainer's passes wrote there
// (cpp/attention/kernel/product_job.hpp).
#include "fused_kernel.hpp"
#include "product_job.hpp"

extern "C" __attribute__((export_name("attend"))) void attend(const attention::kernel::Plan* plan) {
    attention::kernel::attend(*plan);
}

extern "C" __attribute__((export_name("add_product_f32"))) void add_product_f32(const void* job) {
    attention::products::run_job(*static_cast<const attention::products::ProductJob<float>*>(job));
}

extern "C" __attribute__((export_name("add_product_f64"))) void add_product_f64(const void* job) {
    attention::products::run_job(*static_cast<const attention::products::ProductJob<double>*>(job));
}
