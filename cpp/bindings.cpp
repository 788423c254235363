// bindings.cpp: the only Emscripten code. Exposes the core to JavaScript through embind.
//
// Every function takes typed arrays (or plain arrays) and numbers, and returns a fresh plain
// object whose arrays are copies out of wasm memory: JS never holds a view into the heap,
// which would die when memory grows, and never owns a handle it must .delete(). A core
// exception comes back as { error: "message" }; web/src/core.js turns that into a thrown
// Error. Numbers a person types (d, seed, T, draws) arrive as doubles and are checked here,
// so that 2.5 or NaN gets a message instead of being truncated silently.
#include "attention.hpp"
#include "backward.hpp"
#include "learned_head.hpp"
#include "scenarios.hpp"
#include "torch_random.hpp"
#include "training.hpp"

#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <initializer_list>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

using emscripten::val;
using namespace attention;

namespace {

constexpr double kMaxSafeInteger = 9007199254740991.0;  // 2^53 - 1: JS numbers are exact below it

double checked_integer(double value, const char* name, double low, double high) {
    if (!std::isfinite(value) || std::floor(value) != value)
        throw std::invalid_argument(std::string(name) + " must be a whole number");
    if (value < low || value > high) {
        char message[160];
        std::snprintf(message, sizeof message, "%s = %.17g is outside %.17g…%.17g", name, value, low, high);
        throw std::invalid_argument(message);
    }
    return value;
}

int checked_int(double value, const char* name, int low, int high) {
    return static_cast<int>(checked_integer(value, name, low, high));
}

Matrix matrix_from(const val& array, double rows, double cols, const char* name) {
    const int r = checked_int(rows, (std::string(name) + " rows").c_str(), 0, 1 << 30);
    const int c = checked_int(cols, (std::string(name) + " columns").c_str(), 0, 1 << 30);
    std::vector<float> values = emscripten::convertJSArrayToNumberVector<float>(array);
    if (values.size() != static_cast<std::size_t>(r) * static_cast<std::size_t>(c))
        throw std::invalid_argument(std::string(name) + " has " + std::to_string(values.size()) +
                                    " values; shape (" + std::to_string(r) + ", " + std::to_string(c) +
                                    ") needs " + std::to_string(r * c));
    return Matrix(r, c, std::move(values));
}

// A copy, so the caller's array survives any later growth of wasm memory.
template <typename T>
val copy_out(const std::vector<T>& values) {
    return val(emscripten::typed_memory_view(values.size(), values.data())).call<val>("slice");
}

val matrix_object(const Matrix& m) {
    return copy_out(m.values);
}

// The enum value that `value` names among `choices`, or an error listing them all.
template <typename Enum>
Enum parse_choice(const char* argument, const std::string& value,
                  std::initializer_list<std::pair<const char*, Enum>> choices) {
    std::string names;
    for (const auto& [name, choice] : choices) {
        if (value == name) return choice;
        names += (names.empty() ? "" : ", ") + std::string(name);
    }
    throw std::invalid_argument(std::string(argument) + " \"" + value + "\" is not one of " + names);
}

// URL-style names: "sqrt" (1/√d), "d" (1/d), "none", or "custom" with a factor.
Scale parse_scale(const std::string& mode, double factor) {
    const ScaleMode parsed = parse_choice<ScaleMode>("scale", mode,
                                                     {{"sqrt", ScaleMode::inverse_sqrt_d},
                                                      {"d", ScaleMode::inverse_d},
                                                      {"none", ScaleMode::none},
                                                      {"custom", ScaleMode::custom}});
    return parsed == ScaleMode::custom ? Scale::custom(factor) : Scale{parsed, 1.0};
}

// One token per "chars" (character) or "words".
TokenMode parse_tokens(const std::string& tokens) {
    return parse_choice<TokenMode>("tokens", tokens,
                                   {{"chars", TokenMode::characters}, {"words", TokenMode::words}});
}

// How much of the working a map returns: "all", "first-rows" (kWorkingRows queries) or "weights".
MapDetail parse_detail(const std::string& detail) {
    return parse_choice<MapDetail>("detail", detail,
                                   {{"all", MapDetail::all},
                                    {"first-rows", MapDetail::first_rows},
                                    {"weights", MapDetail::weights_only}});
}

template <typename F>
val guarded(F&& compute) {
    try {
        return compute();
    } catch (const std::exception& error) {
        val result = val::object();
        result.set("error", std::string(error.what()));
        return result;
    }
}

// The weights, what their softmax divided by, and each row's shape.
void set_weights(val& result, const Intermediates& head, const RowStatistics& stats) {
    result.set("scale", head.scale);
    result.set("weights", matrix_object(head.weights));
    result.set("rowMax", copy_out(head.row_max));
    result.set("rowSum", copy_out(head.row_sum));
    result.set("peakWeight", copy_out(stats.peak_weight));
    result.set("entropy", copy_out(stats.entropy_nats));
    result.set("effectiveTokens", copy_out(stats.effective_tokens));
}

// The working that leads to the weights, and the output they make, for the rows that kept it
// (workingRows: all T, the first few, or none).
void set_working(val& result, const Intermediates& head) {
    result.set("workingRows", head.raw_scores.rows);
    if (head.raw_scores.rows == 0) return;
    result.set("rawScores", matrix_object(head.raw_scores));
    result.set("scaledScores", matrix_object(head.scaled_scores));
    result.set("maskedScores", matrix_object(head.masked_scores));
    result.set("output", matrix_object(head.output));
}

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
        val result = val::object();
        val token_list = val::array();
        for (const std::string& token : map.inputs.tokens) token_list.call<void>("push", token);
        result.set("tokens", token_list);
        result.set("T", map.inputs.q.rows);
        result.set("d", recipe.d);
        result.set("init", init);
        result.set("pos", pos);
        result.set("q", matrix_object(map.inputs.q));
        result.set("k", matrix_object(map.inputs.k));
        result.set("v", matrix_object(map.inputs.v));
        set_weights(result, map.head, map.stats);
        set_working(result, map.head);
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

// Bytes the core's allocator has handed out and not had back: a leak shows as growth here
// between two calls that should leave nothing behind (the wasm memory itself never shrinks).
double heap_in_use() {
    return static_cast<double>(mallinfo().uordblks);
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

// ---- Learning ------------------------------------------------------------------------------
// In a block of its own so that the learning functions stay one addition at the end of the file.

namespace {

// dQ, dK, dV of the head for the upstream gradient grad_output (T, d_v), in float32.
val attention_backward_js(val q, val k, val v, double T, double d, double d_v, std::string scale,
                          double factor, bool causal, val grad_output) {
    return guarded([&] {
        const AttentionGradients gradients =
            backward(matrix_from(q, T, d, "q"), matrix_from(k, T, d, "k"), matrix_from(v, T, d_v, "v"),
                     parse_scale(scale, factor), causal, matrix_from(grad_output, T, d_v, "gradOutput"));
        val result = val::object();
        result.set("dq", matrix_object(gradients.dq));
        result.set("dk", matrix_object(gradients.dk));
        result.set("dv", matrix_object(gradients.dv));
        return result;
    });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_learning) {
    emscripten::function("attentionBackward", &attention_backward_js);
}

// ---- Training sessions ---------------------------------------------------------------------
// The page trains three heads side by side. Each run lives here, keyed by a name the page
// chooses, so JavaScript holds no handle to free: starting a name again replaces its run, and
// stopping it (or a diverged step) frees it. A session also keeps a fixed probe window of the
// text, whose attention the page draws as the head learns.

namespace {

constexpr int kMaxSessions = 8;         // the page uses three; a bound keeps a stray name from piling up
constexpr int kMaxStepsPerCall = 1000;  // each call should stay short: the page asks again
constexpr int kMaxTrainingBatch = 256;
constexpr int kMaxTrainingWidth = 512;
constexpr int kProbeLength = 24;  // characters in the window whose attention the page draws

struct Session {
    std::unique_ptr<TrainingRun> run;
    std::vector<int> probe;  // token ids of the text's first characters
};

std::map<std::string, Session>& sessions() {
    static std::map<std::string, Session> all;
    return all;
}

Session& session_named(const std::string& name) {
    auto found = sessions().find(name);
    if (found == sessions().end())
        throw std::invalid_argument("no training run is called \"" + name + "\" (start it first)");
    return found->second;
}

OptimizerKind parse_optimizer(const std::string& name) {
    if (name == "adam") return OptimizerKind::adam;
    if (name == "sgd") return OptimizerKind::sgd;
    throw std::invalid_argument("optimizer \"" + name + "\" is not one of adam, sgd");
}

val character_list(const std::vector<std::string>& characters) {
    val list = val::array();
    for (const std::string& c : characters) list.call<void>("push", c);
    return list;
}

// Held-out loss, attention summary and the probe's weights: what the page draws after steps.
void set_measurements(val& result, const Session& session) {
    const Evaluation measured = session.run->evaluate();
    result.set("step", static_cast<double>(session.run->steps_taken()));
    result.set("heldOutLoss", measured.loss);
    result.set("meanEntropy", measured.attention.mean_entropy_nats);
    result.set("meanPeak", measured.attention.mean_peak_weight);
    result.set("weights", matrix_object(attention_weights_for(session.run->config(),
                                                              session.run->parameters(), session.probe)));
}

val training_start_js(std::string name, std::string text, double d, std::string scale, double factor,
                      std::string optimizer, double learning_rate, double seed, double batch,
                      double context) {
    return guarded([&] {
        TrainingOptions options;
        options.d = checked_int(d, "d", 1, kMaxTrainingWidth);
        options.scale = parse_scale(scale, factor);
        options.optimizer.kind = parse_optimizer(optimizer);
        options.optimizer.learning_rate = learning_rate;
        options.seed = static_cast<std::uint64_t>(checked_integer(seed, "seed", 0, kMaxSafeInteger));
        options.batch = checked_int(batch, "batch", 1, kMaxTrainingBatch);
        options.context = checked_int(context, "context", 2, kMaxModelContext);
        sessions().erase(name);  // a restart frees the old run before building the new one
        if (static_cast<int>(sessions().size()) >= kMaxSessions)
            throw std::invalid_argument("at most " + std::to_string(kMaxSessions) + " training runs at once");
        Session session;
        session.run = std::make_unique<TrainingRun>(text, options);
        const std::vector<int> tokens = session.run->vocabulary().encode(text);
        session.probe.assign(tokens.begin(),
                             tokens.begin() + std::min<std::ptrdiff_t>(
                                                  kProbeLength, static_cast<std::ptrdiff_t>(tokens.size())));
        val result = val::object();
        result.set("name", name);
        result.set("vocabulary", character_list(session.run->vocabulary().characters()));
        val probe = val::array();
        for (int id : session.probe)
            probe.call<void>("push", session.run->vocabulary().characters()[static_cast<std::size_t>(id)]);
        result.set("probe", probe);
        result.set("characters", static_cast<double>(tokens.size()));
        set_measurements(result, session);
        sessions()[name] = std::move(session);
        return result;
    });
}

// `count` steps; a step whose loss or gradients are not finite ends the run (it is removed, and
// the error says at which step), so no NaN ever reaches the page.
val training_steps_js(std::string name, double count) {
    return guarded([&] {
        Session& session = session_named(name);
        const int steps = checked_int(count, "count", 1, kMaxStepsPerCall);
        std::vector<float> losses, query_norms, key_norms;
        try {
            for (int s = 0; s < steps; ++s) {
                const StepReport report = session.run->step();
                if (!std::isfinite(report.loss) || !std::isfinite(report.query_gradient_norm) ||
                    !std::isfinite(report.key_gradient_norm))
                    throw std::invalid_argument("the loss or a gradient is no longer a finite number");
                losses.push_back(static_cast<float>(report.loss));
                query_norms.push_back(static_cast<float>(report.query_gradient_norm));
                key_norms.push_back(static_cast<float>(report.key_gradient_norm));
            }
            val result = val::object();
            result.set("losses", copy_out(losses));
            result.set("queryGradientNorms", copy_out(query_norms));
            result.set("keyGradientNorms", copy_out(key_norms));
            set_measurements(result, session);
            return result;
        } catch (const std::invalid_argument& error) {
            const long step = session.run->steps_taken() + 1;
            sessions().erase(name);
            throw std::invalid_argument("the run diverged at step " + std::to_string(step) + " (" +
                                        error.what() + "); try a smaller learning rate");
        }
    });
}

val training_stop_js(std::string name) {
    val result = val::object();
    result.set("stopped", sessions().erase(name) > 0);
    return result;
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_training) {
    emscripten::function("trainingStart", &training_start_js);
    emscripten::function("trainingSteps", &training_steps_js);
    emscripten::function("trainingStop", &training_stop_js);
}

// ---- The learned head on the map -----------------------------------------------------------
// The page holds the saved head (web/assets/learned-head.json, decoded to float32) and hands it
// over once (learnedHeadLoad): copying its 26,000 weights in on every keystroke would cost more
// than the map itself. Loading again replaces it; each module instance (page, worker) has its own.

namespace {

// { vocabulary: [characters], context, d, scale, parameters: { embedding: Float32Array, … } }
struct LearnedHead {
    ModelConfig config;
    Parameters parameters;
    Vocabulary vocabulary{std::vector<std::string>{"a", "b"}};
};

LearnedHead learned_head_from(const val& head) {
    LearnedHead out;
    out.vocabulary = Vocabulary(emscripten::vecFromJSArray<std::string>(head["vocabulary"]));
    out.config.vocabulary = out.vocabulary.size();
    out.config.context = checked_int(head["context"].as<double>(), "context", 1, kMaxModelContext);
    out.config.d = checked_int(head["d"].as<double>(), "d", 1, kMaxModelWidth);
    out.config.scale = parse_scale(head["scale"].as<std::string>(), 1);
    validate_config(out.config);
    out.parameters = zero_parameters(out.config);
    // The map reads x = E + P and q, k, v = x·Wq, x·Wk, x·Wv: the first five matrices in
    // Parameters order. The output projection and the unembedding only predict the next
    // character, so the page does not ship them (scripts/build-web.mjs) and they stay zero.
    constexpr int kMapMatrices = 5;
    for (int n = 0; n < kMapMatrices; ++n) {
        const char* name = Parameters::names()[static_cast<std::size_t>(n)];
        Matrix& m = *out.parameters.all()[static_cast<std::size_t>(n)];
        m = matrix_from(head["parameters"][name], m.rows, m.cols, name);
    }
    return out;
}

std::unique_ptr<LearnedHead>& loaded_head() {
    static std::unique_ptr<LearnedHead> head;
    return head;
}

val learned_head_load_js(val head) {
    return guarded([&] {
        loaded_head() = std::make_unique<LearnedHead>(learned_head_from(head));
        val result = val::object();
        result.set("vocabulary", loaded_head()->vocabulary.size());
        return result;
    });
}

// The same result as attentionMap for the loaded head, plus where each row peaks.
val learned_head_map_js(std::string text, std::string detail) {
    return guarded([&] {
        if (!loaded_head()) throw std::invalid_argument("no learned head is loaded (learnedHeadLoad first)");
        const LearnedHead& saved = *loaded_head();
        const MapDetail level = parse_detail(detail);
        const LearnedHeadMap map =
            learned_head_map(saved.config, saved.parameters, saved.vocabulary, text, level);
        val result = val::object();
        val token_list = val::array();
        for (const std::string& token : map.tokens) token_list.call<void>("push", token);
        result.set("tokens", token_list);
        result.set("T", map.inputs.q.rows);
        result.set("d", saved.config.d);
        result.set("init", std::string("trained"));
        result.set("pos", std::string("learned"));
        result.set("q", matrix_object(map.inputs.q));
        result.set("k", matrix_object(map.inputs.k));
        result.set("v", matrix_object(map.inputs.v));
        set_weights(result, map.head, map.stats);
        set_working(result, map.head);
        val peaks = val::array();
        for (PeakTarget target : map.peaks) peaks.call<void>("push", std::string(peak_target_name(target)));
        result.set("peakTargets", peaks);
        return result;
    });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_learned_head) {
    emscripten::function("learnedHeadLoad", &learned_head_load_js);
    emscripten::function("learnedHeadMap", &learned_head_map_js);
}
