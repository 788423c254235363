// attention-tutorial: the PyTorch tutorial's whole run, natively, in milliseconds.
//
// Prints the equivalence check against PyTorch's outputs (from the committed fixture) in the
// tutorial's line format, the attention map's row statistics, the scale table for d = 4…256,
// writes the tutorial's `metric,value` results CSV and says how long it all took. It is a
// command-line report, not a library: everything it computes comes from the core.
#include "attention/formula.hpp"
#include "attention/statistics.hpp"
#include "tutorial/equivalence.hpp"
#include "tutorial/map.hpp"
#include "tutorial/scale_study.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>

#ifndef ATTENTION_FIXTURE_DIR
#define ATTENTION_FIXTURE_DIR "tests/fixtures"
#endif

namespace {

using namespace attention;

struct Options {
    std::string fixture = std::string(ATTENTION_FIXTURE_DIR) + "/equivalence.json";
    std::string csv = "results.csv";
};

Options parse_arguments(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if ((flag == "--fixture" || flag == "--csv") && i + 1 < argc) {
            (flag == "--fixture" ? options.fixture : options.csv) = argv[++i];
        } else {
            throw std::invalid_argument(
                "usage: attention-tutorial [--fixture equivalence.json] [--csv results.csv]\n"
                "unknown or incomplete argument: " +
                flag);
        }
    }
    return options;
}

nlohmann::json read_json(const std::string& path) {
    std::ifstream file(path);
    if (!file)
        throw std::invalid_argument("cannot open " + path +
                                    " (regenerate it with tests/fixtures/make_fixtures.py)");
    return nlohmann::json::parse(file);
}

bool print_equivalence(const std::string& fixture_path) {
    const nlohmann::json fixture = read_json(fixture_path);
    const EquivalenceInputs inputs = tutorial_equivalence_inputs();
    bool all_ok = true;
    for (bool causal : {false, true}) {
        const auto torch_output =
            fixture.at(causal ? "torch_out_causal_true" : "torch_out_causal_false").get<std::vector<float>>();
        const EquivalenceCase result = check_equivalence(inputs, causal, torch_output);
        std::printf("%s   (formula vs fused %.2e, vs float64 %.2e)\n", equivalence_line(result).c_str(),
                    result.formula_vs_fused, result.formula_vs_f64);
        all_ok = all_ok && result.ok();
    }
    return all_ok;
}

void print_map() {
    const MapRecipe recipe;  // the tutorial's: "To be, or not", seed 1, d = 24, one token per character
    const AttentionMap map = attention_map(recipe, Scale::inverse_sqrt_d(), true, MapDetail::weights_only);
    const std::vector<std::string>& tokens = map.inputs.tokens;
    const RowStatistics& stats = map.stats;
    std::printf(
        "\nattention map: \"%s\", seed %llu, d = %d, causal (row = query, peak weight / effective tokens)\n",
        recipe.text.c_str(), static_cast<unsigned long long>(recipe.seed), recipe.d);
    for (std::size_t t = 0; t < tokens.size(); ++t)
        std::printf("  %2zu '%s'  %.3f / %.2f\n", t, tokens[t].c_str(), stats.peak_weight[t],
                    stats.effective_tokens[t]);
}

void print_scale_table(const ScaleStudy& study) {
    std::printf(
        "\nwhy divide by sqrt(d): avg. peak attention weight, T = %d, seed %llu, one draw per width\n",
        study.options.T, static_cast<unsigned long long>(study.options.seed));
    std::printf("  %5s  %9s  %9s  %9s\n", "d", "unscaled", "1/sqrt(d)", "1/d");
    for (std::size_t w = 0; w < study.options.widths.size(); ++w)
        std::printf("  %5d  %9.3f  %9.3f  %9.3f\n", study.options.widths[w], study.unscaled.peak_mean[w],
                    study.inverse_sqrt_d.peak_mean[w], study.inverse_d.peak_mean[w]);
    std::printf("at d=256:  peak attention weight  %.2f (unscaled)  vs  %.2f (scaled)\n",
                study.unscaled.peak_mean.back(), study.inverse_sqrt_d.peak_mean.back());
}

void write_results(const std::string& path, bool verified) {
    // The tutorial's results file takes d = 256 from a fresh seed-0 draw, not from the loop.
    ScaleStudyOptions fresh;
    fresh.widths = {256};
    const ScaleStudy study = scale_study(fresh);
    std::ofstream csv(path);
    if (!csv) throw std::invalid_argument("cannot write " + path);
    csv << "metric,value\n"
        << "verified_vs_pytorch," << (verified ? "True" : "False") << "\n"
        << "peak_unscaled_d256," << study.unscaled.peak_mean[0] << "\n"
        << "peak_scaled_d256," << study.inverse_sqrt_d.peak_mean[0] << "\n";
    std::printf("\nwrote %s\n", path.c_str());
}

}  // namespace

int main(int argc, char** argv) {
    try {
        const auto start = std::chrono::steady_clock::now();
        const Options options = parse_arguments(argc, argv);
        const bool verified = print_equivalence(options.fixture);
        print_map();
        print_scale_table(scale_study(ScaleStudyOptions{}));
        write_results(options.csv, verified);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::printf("took %.1f ms (the tutorial's PyTorch script: about 20 s)\n", seconds * 1e3);
        return verified ? 0 : 1;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "attention-tutorial: %s\n", error.what());
        return 2;
    }
}
