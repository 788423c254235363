// fuzz_attention: a libFuzzer target over the core's whole public API, built with
// AddressSanitizer and UndefinedBehaviorSanitizer (fuzz/CMakeLists.txt; docs/fuzzing.md).
//
// An input's first byte picks one entry point, the target in fuzz/targets/ that fuzzes it;
// the rest of the input becomes that entry point's arguments (fuzz_input.hpp). Then, per call:
//   1. validity is decided by the fuzzer, by predicates written from the headers' documented
//      limits (oracle.hpp, not by asking the library), and the call must throw
//      std::invalid_argument with a message for exactly the invalid inputs -- any other
//      exception, or none, is a bug;
//   2. a successful call's results must keep the documented promises (head_checks.hpp for the
//      head's kernels, each target's file for the rest).
// A broken promise prints what was seen and aborts, which libFuzzer records as a crash.
// It is not a benchmark and not a unit test: tests/ holds the hand-checked cases.
#include "oracle.hpp"
#include "targets/targets.hpp"

#include <cstdint>
#include <cstdlib>

namespace {

// First byte mod 10 -> target. The head, the most intricate, gets three tenths of the inputs.
// The committed seeds and regression inputs (fuzz/make_corpus.py) are written to this table.
constexpr void (*kTargets[])(fuzz::FuzzInput&) = {
    fuzz::fuzz_head,          // 0
    fuzz::fuzz_head,          // 1
    fuzz::fuzz_head,          // 2
    fuzz::fuzz_map,           // 3
    fuzz::fuzz_tokenize,      // 4
    fuzz::fuzz_scale_study,   // 5
    fuzz::fuzz_torch,         // 6
    fuzz::fuzz_softmax_row,   // 7
    fuzz::fuzz_small_pieces,  // 8
    fuzz::fuzz_equivalence,   // 9
};

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    std::atexit(fuzz::print_observed);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    fuzz::FuzzInput in(data, size);
    kTargets[in.byte() % (sizeof kTargets / sizeof kTargets[0])](in);
    return 0;
}
