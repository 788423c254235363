// bindings.cpp: the page's core as an Emscripten module (attention-core.js), through embind:
// the map, the formula and the fused kernel, one cell's score, PyTorch's draws, the √d study,
// the equivalence check and the core's limits. The learning section's functions are a second
// module, loaded only when a reader gets there (cpp/wasm/learning_bindings.cpp); the helpers both
// share, and the rules every binding follows, are in cpp/wasm/bindings.hpp.
#include "wasm/bindings.hpp"

#include "attention/formula.hpp"
#include "attention/kernel/fused.hpp"
#include "attention/statistics.hpp"
#include "tutorial/equivalence.hpp"
#include "tutorial/limits.hpp"
#include "tutorial/map.hpp"
#include "tutorial/scale_study.hpp"
#include "tutorial/torch_random.hpp"

#include <emscripten/bind.h>

#include <algorithm>
#include <climits>
#include <string>

using emscripten::val;
using namespace attention;
using namespace attention::js;

namespace {

// The arguments formula() and fused() share, checked and copied into the core's types.
struct HeadArguments {
    Matrix q, k, v;
    Scale scale;
};

HeadArguments head_arguments(const val& q, const val& k, const val& v, double T, double d, double d_v,
                             const std::string& scale, double factor) {
    return {matrix_from(q, T, d, "q"), matrix_from(k, T, d, "k"), matrix_from(v, T, d_v, "v"),
            parse_scale(scale, factor)};
}

val formula_js(val q, val k, val v, double T, double d, double d_v, std::string scale, double factor,
               bool causal) {
    return guarded([&] {
        const HeadArguments in = head_arguments(q, k, v, T, d, d_v, scale, factor);
        const Intermediates head = formula(in.q, in.k, in.v, in.scale, causal);
        val result = val::object();
        set_weights(result, head, row_statistics(head.weights));
        set_working(result, head);
        return result;
    });
}

val fused_js(val q, val k, val v, double T, double d, double d_v, std::string scale, double factor,
             bool causal) {
    return guarded([&] {
        const HeadArguments in = head_arguments(q, k, v, T, d, d_v, scale, factor);
        val result = val::object();
        result.set("output", matrix_object(fused(in.q, in.k, in.v, in.scale, causal)));
        return result;
    });
}

// q_i·k_j and its scaled score for one cell (score_of): q and k are the two rows, of length d.
val score_of_js(val q_row, val k_row, std::string scale, double factor) {
    return guarded([&] {
        const std::vector<float> q = emscripten::convertJSArrayToNumberVector<float>(q_row);
        const std::vector<float> k = emscripten::convertJSArrayToNumberVector<float>(k_row);
        if (q.size() != k.size())
            throw std::invalid_argument("scoreOf needs a query and a key row of one length; got " +
                                        std::to_string(q.size()) + " and " + std::to_string(k.size()));
        // score_of refuses a width outside 1…kMaxWidth, and non-finite entries.
        const int d = static_cast<int>(std::min<std::size_t>(q.size(), INT_MAX));
        const Score score = score_of(q.data(), k.data(), d, scale_factor(parse_scale(scale, factor), d));
        val result = val::object();
        result.set("raw", score.raw);
        result.set("scaled", score.scaled);
        return result;
    });
}

// Successive draws from one seed, as successive torch.randn calls after one manual_seed.
val randn_js(double seed, val counts) {
    return guarded([&] {
        TorchGenerator generator(
            static_cast<std::uint64_t>(checked_integer(seed, "seed", 0, kMaxSafeInteger)));
        val draws = val::array();
        for (double count : emscripten::convertJSArrayToNumberVector<double>(counts))
            draws.call<void>("push", copy_out(generator.randn(static_cast<std::size_t>(
                                         checked_integer(count, "count", 0, kMaxInputElements)))));
        val result = val::object();
        result.set("draws", draws);
        return result;
    });
}

// The map figure in one call: attention_map() for any recipe, copied out for JavaScript.
val attention_map_js(std::string text, std::string tokens, double d, double seed, std::string vectors,
                     std::string init, std::string pos, std::string scale, double factor, bool causal,
                     std::string detail) {
    return guarded([&] {
        MapRecipe recipe;
        recipe.text = text;
        recipe.tokens = parse_tokens(tokens);
        recipe.d = checked_int(d, "d", 1, kMaxMapWidth);
        recipe.seed = static_cast<std::uint64_t>(checked_integer(seed, "seed", 0, kMaxSafeInteger));
        recipe.vectors = parse_choice<VectorMode>(
            "vectors", vectors, {{"position", VectorMode::per_position}, {"token", VectorMode::per_token}});
        recipe.init =
            parse_choice<Init>("init", init, {{"tutorial", Init::tutorial}, {"standard", Init::standard}});
        recipe.positions = parse_choice<Positions>(
            "pos", pos,
            {{"none", Positions::none}, {"sinusoidal", Positions::sinusoidal}, {"rope", Positions::rope}});
        const MapDetail level = parse_detail(detail);
        const AttentionMap map = attention_map(recipe, parse_scale(scale, factor), causal, level);
        val result = map_object(map.inputs.tokens, recipe.d, map.inputs.q, map.inputs.k, map.inputs.v,
                                map.head, map.stats);
        result.set("init", init);
        result.set("pos", pos);
        return result;
    });
}

val series_object(const ScaleSeries& series) {
    val result = val::object();
    result.set("peakMean", copy_out(series.peak_mean));
    result.set("peakSpread", copy_out(series.peak_spread));
    result.set("entropyMean", copy_out(series.entropy_mean));
    result.set("entropySpread", copy_out(series.entropy_spread));
    return result;
}

val scale_study_js(val widths, double T, double draws, bool causal, double seed) {
    return guarded([&] {
        ScaleStudyOptions options;
        options.widths.clear();
        for (double w : emscripten::convertJSArrayToNumberVector<double>(widths))
            options.widths.push_back(checked_int(w, "width", 1, kMaxWidth));
        options.T = checked_int(T, "T", 1, kMaxStudyT);
        options.draws = checked_int(draws, "draws", 1, kMaxStudyDraws);
        options.causal = causal;
        options.seed = static_cast<std::uint64_t>(checked_integer(seed, "seed", 0, kMaxSafeInteger));
        const ScaleStudy study = scale_study(options);
        val result = val::object();
        result.set("widths", copy_out(study.options.widths));
        result.set("none", series_object(study.unscaled));
        result.set("sqrt", series_object(study.inverse_sqrt_d));
        result.set("d", series_object(study.inverse_d));
        return result;
    });
}

val equivalence_js(bool causal, val torch_output) {
    return guarded([&] {
        const EquivalenceCase check =
            check_equivalence(tutorial_equivalence_inputs(), causal,
                              emscripten::convertJSArrayToNumberVector<float>(torch_output));
        val result = val::object();
        result.set("causal", check.causal);
        result.set("formulaVsFused", check.formula_vs_fused);
        result.set("formulaVsFloat64", check.formula_vs_f64);
        result.set("hasTorch", check.has_torch);
        result.set("formulaVsTorch", check.formula_vs_torch);
        result.set("ok", check.ok());
        result.set("line", equivalence_line(check));
        return result;
    });
}

// limits(), plus the largest seed a JavaScript number carries exactly.
val limits_js() {
    const Limits core = limits();
    val result = val::object();
    result.set("maxMapTokens", core.max_map_tokens);
    result.set("maxMapWidth", core.max_map_width);
    result.set("maxFormulaT", core.max_formula_t);
    result.set("maxWidth", core.max_width);
    result.set("maxStudyT", core.max_study_t);
    result.set("maxStudyDraws", core.max_study_draws);
    result.set("maxStudyMultiplyAdds", core.max_study_multiply_adds);
    result.set("minScaleFactor", core.min_scale_factor);
    result.set("maxScaleFactor", core.max_scale_factor);
    result.set("equivalenceTolerance", core.equivalence_tolerance);
    result.set("maxSeed", kMaxSafeInteger);
    return result;
}

// What the map of `text` costs (map_multiply_adds), from the tokens it makes.
val map_multiply_adds_js(std::string text, std::string tokens, double d) {
    return guarded([&] {
        const TokenMode mode = parse_tokens(tokens);
        const auto T = static_cast<int>(std::min<std::size_t>(tokenize(text, mode).size(), kMaxMapTokens));
        val result = val::object();
        result.set("multiplyAdds", map_multiply_adds(T, checked_int(d, "d", 1, kMaxMapWidth)));
        return result;
    });
}

val study_multiply_adds_js(val widths, double T, double draws) {
    return guarded([&] {
        std::vector<int> checked;
        for (double w : emscripten::convertJSArrayToNumberVector<double>(widths))
            checked.push_back(checked_int(w, "width", 1, kMaxWidth));
        val result = val::object();
        result.set("multiplyAdds", study_multiply_adds(checked, checked_int(T, "T", 1, kMaxStudyT),
                                                       checked_int(draws, "draws", 1, kMaxStudyDraws)));
        return result;
    });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_core) {
    emscripten::function("formula", &formula_js);
    emscripten::function("fused", &fused_js);
    emscripten::function("scoreOf", &score_of_js);
    emscripten::function("randn", &randn_js);
    emscripten::function("attentionMap", &attention_map_js);
    emscripten::function("scaleStudy", &scale_study_js);
    emscripten::function("equivalence", &equivalence_js);
    emscripten::function("limits", &limits_js);
    emscripten::function("studyMultiplyAdds", &study_multiply_adds_js);
    emscripten::function("mapMultiplyAdds", &map_multiply_adds_js);
    emscripten::function("heapInUse", &heap_in_use);
}
