// torch_random.cpp: fuzz_torch, TorchGenerator::randn: finite, bounded, deterministic, and blind
// to the seed's high 32 bits, as torch.manual_seed is.
#include "tutorial/torch_random.hpp"
#include "oracle.hpp"
#include "targets/targets.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace fuzz {

void fuzz_torch(FuzzInput& in) {
    const std::uint64_t seed = seed_from(in);
    attention::TorchGenerator generator(seed), twin(seed), low_bits(seed & 0xffffffffU);
    const int calls = 1 + in.byte() % 3;
    for (int call = 0; call < calls; ++call) {
        const auto count = static_cast<std::size_t>(
            int_from_byte(in.byte(), 0, 64, {64, 100, 127, 128, 255, 256, 624, 625, 1000, 1248}));
        const std::vector<float> values = generator.randn(count);
        require(values.size() == count, "randn(%zu) returned %zu values", count, values.size());
        // Box-Muller's radius sqrt(-2 ln u) with u >= 2^-53 is at most 8.58.
        for (float x : values)
            require(std::isfinite(x) && std::fabs(x) <= 8.6f, "randn gave %g (seed %llu)",
                    static_cast<double>(x), static_cast<unsigned long long>(seed));
        require(twin.randn(count) == values, "randn is not deterministic for seed %llu",
                static_cast<unsigned long long>(seed));
        require(low_bits.randn(count) == values, "seed %llu differs from its low 32 bits",
                static_cast<unsigned long long>(seed));
    }
}

}  // namespace fuzz
