// relaxed-library.js: an Emscripten JS library, linked into build/wasm/attention-core.js and
// build/wasm/attention-learning.js with --js-library (CMakeLists.txt) after
// scripts/build-relaxed.sh has put the relaxed-SIMD module (cpp/attention/kernel/relaxed_kernel.cpp)
// in place of RELAXED_KERNEL_DEFLATED, unpacked by cpp/wasm/embedded-wasm.js's inflateBase64.
//
// Before the runtime starts, compileRelaxedKernel and chooseRelaxedKernel pick the kernels: where
// the engine validates the relaxed module (Chromium 114+, Firefox; not WebKitGTK 2.50, nor Node 20
// without --experimental-wasm-relaxed-simd) it is instantiated on this module's own memory, and
// attention_relaxed_attend (imported by cpp/attention/kernel/fused.cpp) runs every fused() there,
// as attention_relaxed_product_f32 and _f64 (imported by cpp/attention/kernel/product_job.hpp) run
// the trainer's matrix products; otherwise they return 0 and the simd128 code compiled into this
// module runs. Module.simdKernel names the kernels in use ('relaxed-simd' or 'simd128');
// { relaxedSimd: false } given to the factory keeps simd128, so that tests and benchmarks can run
// both paths.
mergeInto(LibraryManager.library, {
  $relaxedKernel: { exports: null, compiled: null },
  $relaxedKernel__deps: ['$compileRelaxedKernel', '$chooseRelaxedKernel'],
  // Compiled while the factory runs, beside the main module rather than after it (up to 30 ms
  // sooner on two cores); preRun then only instantiates it on that module's memory.
  $relaxedKernel__postset: 'compileRelaxedKernel(); addOnPreRun(chooseRelaxedKernel);',
  // biome-ignore lint/complexity/useArrowFunction: Emscripten 3.1.6 names a library function by rewriting its "function (".
  $compileRelaxedKernel: function () {
    Module.simdKernel = 'simd128';
    if (Module.relaxedSimd === false) return;
    // null where the engine has no relaxed SIMD; never a rejection, which nothing may be left
    // to handle when the main module itself fails to start.
    relaxedKernel.compiled = inflateBase64('RELAXED_KERNEL_DEFLATED')
      .then((bytes) => (WebAssembly.validate(bytes) ? WebAssembly.compile(bytes) : null))
      .catch((error) => {
        err(`relaxed-SIMD kernel not used (${error}); simd128 runs`);
        return null;
      });
  },
  // biome-ignore lint/complexity/useArrowFunction: as above.
  $chooseRelaxedKernel: function () {
    if (!relaxedKernel.compiled) return;
    // preRun runs once this module is instantiated (wasmMemory exists), and waits for this.
    addRunDependency('relaxed-simd kernel');
    relaxedKernel.compiled
      .then((module) => module && WebAssembly.instantiate(module, { env: { memory: wasmMemory } }))
      .then(
        (instance) => {
          if (!instance) return;
          relaxedKernel.exports = instance.exports;
          Module.simdKernel = 'relaxed-simd';
        },
        (error) => err(`relaxed-SIMD kernel not used (${error}); simd128 runs`),
      )
      .finally(() => removeRunDependency('relaxed-simd kernel'));
  },
  attention_relaxed_attend__deps: ['$relaxedKernel'],
  // biome-ignore lint/complexity/useArrowFunction: as above.
  attention_relaxed_attend: function (plan) {
    if (!relaxedKernel.exports) return 0;
    relaxedKernel.exports.attend(plan);
    return 1;
  },
  attention_relaxed_product_f32__deps: ['$relaxedKernel'],
  // biome-ignore lint/complexity/useArrowFunction: as above.
  attention_relaxed_product_f32: function (job) {
    if (!relaxedKernel.exports) return 0;
    relaxedKernel.exports.add_product_f32(job);
    return 1;
  },
  attention_relaxed_product_f64__deps: ['$relaxedKernel'],
  // biome-ignore lint/complexity/useArrowFunction: as above.
  attention_relaxed_product_f64: function (job) {
    if (!relaxedKernel.exports) return 0;
    relaxedKernel.exports.add_product_f64(job);
    return 1;
  },
});
