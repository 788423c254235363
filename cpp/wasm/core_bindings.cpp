// core_bindings.cpp: the page's core as an Emscripten module (attention-core.js), through embind:
// the map and what it costs, the formula and the fused kernel, one cell's score, PyTorch's
// draws, the √d study, the equivalence check and the core's limits. The learning section's functions are a
// second module, loaded only when a reader gets there (cpp/wasm/learning_bindings.cpp); the helpers both
// share, and the rules every binding follows, are in cpp/wasm/bindings.hpp.
#include "wasm/bindings.hpp"

#include "attention/formula.hpp"
#include "attention/kernel/fused.hpp"
#include "attention/statistics.hpp"
#include "tutorial/equivalence.hpp"
#include "tutorial/limits.hpp"
#include "tutorial/map.hpp"
#include "tutorial/scale_study.hpp"
#include "tutorial/tokenize.hpp"
#include "tutorial/torch_random.hpp"

#include <emscripten/bind.h>

#include <algorithm>
#include <climits>
#include <string>
#include <vector>

using emscripten::val;
using namespace attention;
using namespace attention::js;

namespace {

// What formula() and fused() are given: q, k (T, d) and v (T, dV), checked and copied in.
struct HeadRequest {
    Matrix q, k, v;
    Scale scale;
    bool causal = true;
};

// { q, k, v, T, d, dV, scale, causal }: T, d and dV are checked as the shapes of q, k and v (a
// bad one is the matrix's fault: "q rows must be a whole number"). A custom factor out of range
// is blamed on the scale here; what the core refuses after that (a NaN in q, scores that would
// overflow) names no one field.
HeadRequest head_request(const val& request, const char* function) {
    require_request(request, function);
    const double T = number_field(request, "T");
    const double d = number_field(request, "d");
    const double d_v = number_field(request, "dV");
    HeadRequest in{matrix_field(request, "q", T, d), matrix_field(request, "k", T, d),
                   matrix_field(request, "v", T, d_v), scale_field(request, "scale"),
                   bool_field(request, "causal")};
    if (in.q.cols >= 1) in_field("scale", [&] { scale_factor(in.scale, in.q.cols); });
    return in;
}

val formula_js(val request) {
    return guarded([&] {
        const HeadRequest in = head_request(request, "formula");
        const Intermediates head = formula(in.q, in.k, in.v, in.scale, in.causal);
        val result = val::object();
        set_weights(result, head, row_statistics(head.weights));
        set_working(result, head);
        return result;
    });
}

val fused_js(val request) {
    return guarded([&] {
        const HeadRequest in = head_request(request, "fused");
        val result = val::object();
        result.set("output", matrix_object(fused(in.q, in.k, in.v, in.scale, in.causal)));
        return result;
    });
}

// q_i·k_j and its scaled score for one cell (score_of): { query, key, scale }, query and key
// the two rows, of length d.
val score_of_js(val request) {
    return guarded([&] {
        require_request(request, "scoreOf");
        const std::vector<float> q =
            emscripten::convertJSArrayToNumberVector<float>(array_field(request, "query"));
        const std::vector<float> k =
            emscripten::convertJSArrayToNumberVector<float>(array_field(request, "key"));
        const Scale scale = scale_field(request, "scale");
        if (q.size() != k.size())
            throw FieldError("key", "scoreOf needs a query and a key row of one length; got " +
                                        std::to_string(q.size()) + " and " + std::to_string(k.size()));
        // score_of refuses a width outside 1…kMaxWidth, and non-finite entries.
        const int d = static_cast<int>(std::min<std::size_t>(q.size(), INT_MAX));
        const double factor = d >= 1 ? in_field("scale", [&] { return scale_factor(scale, d); }) : 1.0;
        const Score score = score_of(q.data(), k.data(), d, factor);
        val result = val::object();
        result.set("raw", score.raw);
        result.set("scaled", score.scaled);
        return result;
    });
}

// { seed, counts }: successive draws from one seed, as successive torch.randn calls after one
// manual_seed, one draw of each count.
val randn_js(val request) {
    return guarded([&] {
        require_request(request, "randn");
        TorchGenerator generator(seed_field(request, "seed"));
        val draws = val::array();
        for (double count :
             emscripten::convertJSArrayToNumberVector<double>(array_field(request, "counts"))) {
            const auto n =
                in_field("counts", [&] { return checked_integer(count, "count", 0, kMaxInputElements); });
            draws.call<void>("push", copy_out(generator.randn(static_cast<std::size_t>(n))));
        }
        val result = val::object();
        result.set("draws", draws);
        return result;
    });
}

// The map's recipe: { text, tokens, d, seed, vectors, init, pos }.
MapRecipe map_recipe(const val& request) {
    MapRecipe recipe;
    recipe.text = string_field(request, "text");
    recipe.tokens = tokens_field(request, "tokens");
    recipe.d = int_field(request, "d", 1, kMaxMapWidth);
    recipe.seed = seed_field(request, "seed");
    recipe.vectors = choice_field<VectorMode>(
        request, "vectors", {{"position", VectorMode::per_position}, {"token", VectorMode::per_token}});
    recipe.init =
        choice_field<Init>(request, "init", {{"tutorial", Init::tutorial}, {"standard", Init::standard}});
    recipe.positions = choice_field<Positions>(
        request, "pos",
        {{"none", Positions::none}, {"sinusoidal", Positions::sinusoidal}, {"rope", Positions::rope}});
    return recipe;
}

// The map figure in one call, for any recipe: the recipe's fields and { scale, causal, detail }.
// It runs attention_map()'s two stages itself, so that each refusal names the field at fault:
// map_inputs() refuses RoPE with an odd d (the positions' fault) and a text that is not UTF-8 or
// makes no tokens or too many; once q and k are drawn, the head can refuse only a scale so
// large that their scores would overflow.
val attention_map_js(val request) {
    return guarded([&] {
        require_request(request, "attentionMap");
        const MapRecipe recipe = map_recipe(request);
        const Scale scale = scale_field(request, "scale");
        const bool causal = bool_field(request, "causal");
        const MapDetail detail = detail_field(request, "detail");
        in_field("scale", [&] { scale_factor(scale, recipe.d); });
        const bool odd_rope = recipe.positions == Positions::rope && recipe.d % 2 != 0;
        const MapInputs in = in_field(odd_rope ? "pos" : "text", [&] { return map_inputs(recipe); });
        const Intermediates head =
            in_field("scale", [&] { return head_at_detail(in.q, in.k, in.v, scale, causal, detail); });
        val result = map_object(in.tokens, recipe.d, in.q, in.k, in.v, head, row_statistics(head.weights));
        result.set("init", string_field(request, "init"));
        result.set("pos", string_field(request, "pos"));
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

// { widths, T, draws }, checked: what a study is asked for and what its cost depends on.
std::vector<int> widths_field(const val& request) {
    std::vector<int> widths;
    for (double w : emscripten::convertJSArrayToNumberVector<double>(array_field(request, "widths")))
        widths.push_back(in_field("widths", [&] { return checked_int(w, "width", 1, kMaxWidth); }));
    return widths;
}

// { widths, T, draws, causal, seed }: peak weight and entropy against width, for each scale.
val scale_study_js(val request) {
    return guarded([&] {
        require_request(request, "scaleStudy");
        ScaleStudyOptions options;
        options.widths = widths_field(request);
        options.T = int_field(request, "T", 1, kMaxStudyT);
        options.draws = int_field(request, "draws", 1, kMaxStudyDraws);
        options.causal = bool_field(request, "causal");
        options.seed = seed_field(request, "seed");
        const ScaleStudy study = scale_study(options);
        val result = val::object();
        result.set("widths", copy_out(study.options.widths));
        result.set("none", series_object(study.unscaled));
        result.set("sqrt", series_object(study.inverse_sqrt_d));
        result.set("d", series_object(study.inverse_d));
        return result;
    });
}

// { causal, torchOutput }: the tutorial's check for one mask setting, against PyTorch's output
// (flat (2, 16, 32); empty to compare only the core's own kernels).
val equivalence_js(val request) {
    return guarded([&] {
        require_request(request, "equivalence");
        const bool causal = bool_field(request, "causal");
        const std::vector<float> torch_output =
            emscripten::convertJSArrayToNumberVector<float>(array_field(request, "torchOutput"));
        const EquivalenceCase check = in_field("torchOutput", [&] {
            return check_equivalence(tutorial_equivalence_inputs(), causal, torch_output);
        });
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

// { text, tokens }: how many tokens the map of `text` has (it may be more than the map accepts).
val token_count_js(val request) {
    return guarded([&] {
        require_request(request, "tokenCount");
        const std::string text = string_field(request, "text");
        const TokenMode mode = tokens_field(request, "tokens");
        const std::size_t count = in_field("text", [&] { return tokenize(text, mode).size(); });
        val result = val::object();
        result.set("T", static_cast<double>(count));
        return result;
    });
}

// { T, d }: what a map of T tokens at width d costs (map_multiply_adds); a T past the map's
// limit, which the map refuses, is counted at the limit.
val map_multiply_adds_js(val request) {
    return guarded([&] {
        require_request(request, "mapMultiplyAdds");
        const int T = std::min(int_field(request, "T", 0, INT_MAX), kMaxMapTokens);
        const int d = int_field(request, "d", 1, kMaxMapWidth);
        val result = val::object();
        result.set("multiplyAdds", map_multiply_adds(T, d));
        return result;
    });
}

// { widths, T, draws }: Σ T²·d·draws, what the scale study would cost.
val study_multiply_adds_js(val request) {
    return guarded([&] {
        require_request(request, "studyMultiplyAdds");
        const std::vector<int> widths = widths_field(request);
        val result = val::object();
        result.set("multiplyAdds", study_multiply_adds(widths, int_field(request, "T", 1, kMaxStudyT),
                                                       int_field(request, "draws", 1, kMaxStudyDraws)));
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
    emscripten::function("tokenCount", &token_count_js);
    emscripten::function("mapMultiplyAdds", &map_multiply_adds_js);
    emscripten::function("heapInUse", &heap_in_use);
}
