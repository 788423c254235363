// relaxed-library.js: an Emscripten JS library, linked into build/wasm/attention-core.js with
// --js-library (CMakeLists.txt) after scripts/build-relaxed.sh has put the relaxed-SIMD kernel
// module (cpp/attention/kernel/relaxed_kernel.cpp) in place of RELAXED_KERNEL_DEFLATED, unpacked by
// cpp/wasm/embedded-wasm.js's inflateBase64.
//
// Before the runtime starts, compileRelaxedKernel and chooseRelaxedKernel pick the kernel for
// fused(): where the engine validates the relaxed module (Chromium 114+, Firefox; not
// WebKitGTK 2.50, nor Node 20 without --experimental-wasm-relaxed-simd) it is instantiated on
// this module's own memory, and attention_relaxed_attend (imported by cpp/attention/kernel/fused.cpp) runs every fused() there; otherwise it
// returns 0 and fused() runs the simd128 kernel compiled into this module. Module.simdKernel
// names the kernel in use ('relaxed-simd' or 'simd128'); { relaxedSimd: false } given to the
// factory keeps simd128, so that tests and benchmarks can run both paths.
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
        err(`relaxed-SIMD kernel not used (${error}); fused() runs simd128`);
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
        (error) => err(`relaxed-SIMD kernel not used (${error}); fused() runs simd128`),
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
});
