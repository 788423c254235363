// native_bench.cpp: the native half of the benchmark (bench/run.mjs runs it; it is not a test).
//
// Times attention::fused (the fast path) and attention::formula (the readable reference) on the
// benchmark's inputs, measures this core's peak multiply-add rate, and writes each fused output
// to a file so that the Node side can compare ONNX Runtime's output with ours. Prints one JSON
// object on stdout. Inputs come from mulberry32 (bench/inputs.mjs has the same generator), so
// Node, the browser and this program all attend over identical numbers.
//
// Usage: native_bench OUTPUT_DIR [T ...]
#include "attention/formula.hpp"
#include "attention/kernel/fused.hpp"
#include "multiply_add_peak.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace {

constexpr int kWidth = 64;  // d = d_v

// mulberry32: a tiny 32-bit generator that is easy to repeat exactly in JavaScript.
class Mulberry32 {
  public:
    explicit Mulberry32(std::uint32_t seed) : state_(seed) {}
    double next() {
        state_ += 0x6D2B79F5u;
        std::uint32_t t = state_;
        t = (t ^ (t >> 15)) * (t | 1u);
        t ^= t + (t ^ (t >> 7)) * (t | 61u);
        return static_cast<double>(t ^ (t >> 14)) / 4294967296.0;
    }

  private:
    std::uint32_t state_;
};

// q, k, v for one length: uniform on [-√3, √3) (variance 1), drawn in that order from seed T.
struct Inputs {
    attention::Matrix q, k, v;
};

Inputs make_inputs(int T) {
    Mulberry32 generator(static_cast<std::uint32_t>(T));
    auto draw = [&] {
        attention::Matrix m(T, kWidth);
        for (float& x : m.values) x = static_cast<float>((generator.next() * 2.0 - 1.0) * std::sqrt(3.0));
        return m;
    };
    Inputs in;
    in.q = draw();
    in.k = draw();
    in.v = draw();
    return in;
}

double now_ms() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// Median milliseconds per call over batches of at least 20 ms (at least 5 batches, or 3 when one
// call takes over half a second; more while under 1.5 s in all, up to 15).
double median_ms_per_call(const std::function<void()>& call) {
    double start = now_ms();
    call();  // warm-up, and a first estimate of the cost
    const double first = now_ms() - start;
    const int calls_per_batch = std::max(1, static_cast<int>(std::ceil(20.0 / std::max(first, 1e-3))));
    const int min_batches = first > 500.0 ? 3 : 5;
    std::vector<double> per_call;
    start = now_ms();
    while (static_cast<int>(per_call.size()) < min_batches ||
           (per_call.size() < 15 && now_ms() - start < 1500.0)) {
        const double batch_start = now_ms();
        for (int i = 0; i < calls_per_batch; ++i) call();
        per_call.push_back((now_ms() - batch_start) / calls_per_batch);
    }
    std::sort(per_call.begin(), per_call.end());
    const std::size_t middle = per_call.size() / 2;
    return per_call.size() % 2 ? per_call[middle] : (per_call[middle - 1] + per_call[middle]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: native_bench OUTPUT_DIR [T ...]\n");
        return 2;
    }
    const std::string output_dir = argv[1];
    std::vector<int> lengths;
    for (int i = 2; i < argc; ++i) lengths.push_back(std::atoi(argv[i]));
    if (lengths.empty()) lengths = {64, 256, 1024, 4096};

    std::printf("{\"lanes\": %d, \"peakGflops\": %.2f, \"results\": [", bench::kPeakLanes,
                bench::peak_gflops(static_cast<float>(argc)));
    bool first = true;
    for (int T : lengths) {
        const Inputs in = make_inputs(T);
        for (bool causal : {false, true}) {
            attention::Matrix out;
            const double fused_ms = median_ms_per_call([&] {
                out = attention::fused(in.q, in.k, in.v, attention::Scale::inverse_sqrt_d(), causal);
            });
            const double formula_ms = median_ms_per_call(
                [&] { attention::formula(in.q, in.k, in.v, attention::Scale::inverse_sqrt_d(), causal); });
            const attention::Matrix reference =
                attention::formula(in.q, in.k, in.v, attention::Scale::inverse_sqrt_d(), causal).output;
            double difference = 0.0;
            for (std::size_t e = 0; e < out.values.size(); ++e)
                difference =
                    std::max(difference, static_cast<double>(std::fabs(out.values[e] - reference.values[e])));

            const std::string path =
                output_dir + "/fused-T" + std::to_string(T) + (causal ? "-causal" : "") + ".f32";
            std::FILE* file = std::fopen(path.c_str(), "wb");
            if (!file ||
                std::fwrite(out.values.data(), sizeof(float), out.values.size(), file) != out.values.size()) {
                std::fprintf(stderr, "cannot write %s\n", path.c_str());
                return 1;
            }
            std::fclose(file);
            std::printf(
                "%s\n  {\"T\": %d, \"causal\": %s, \"fusedMs\": %.6f, \"formulaMs\": %.6f, \"formulaDiff\": "
                "%.3g, "
                "\"output\": \"%s\"}",
                first ? "" : ",", T, causal ? "true" : "false", fused_ms, formula_ms, difference,
                path.c_str());
            std::fflush(stdout);
            first = false;
        }
    }
    std::printf("\n]}\n");
    return 0;
}
