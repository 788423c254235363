// trained_bindings.cpp: the saved models on the page's own module (attention-core.js, beside
// cpp/wasm/core_bindings.cpp): the one-layer trained head (web/assets/trained-head.json) and the
// two-layer copying head (web/assets/copying-head.json), each handed over once, then mapped on any
// text a reader types. The first screen shows the copying head, so it lives here rather than in
// the learning section's module, which the page loads later. Shared helpers and rules:
// cpp/wasm/bindings.hpp.
//
// A model is handed over once (trainedHeadLoad, copyingHeadLoad): copying its weights in on
// every keystroke would cost more than the map itself. Loading again replaces it; each module
// instance (page, worker) has its own.
#include "wasm/bindings.hpp"

#include "learning/model.hpp"
#include "trained/copying_head.hpp"
#include "trained/float16.hpp"
#include "trained/trained_head.hpp"

#include <emscripten/bind.h>

#include <memory>
#include <string>

using emscripten::val;
using namespace attention;
using namespace attention::js;

namespace {

// The fields every saved model's description shares: its characters, its context and width.
Vocabulary vocabulary_field(const val& head) {
    return in_field("vocabulary", [&] {
        return Vocabulary(emscripten::vecFromJSArray<std::string>(array_field(head, "vocabulary")));
    });
}

// A saved model's float16 halves (a Uint16Array of `count`, the file's own bits) as the floats
// they stand for (from_float16): the page never decodes the format itself.
std::vector<float> halves_field(const val& array, std::size_t count, const char* name) {
    if (array.typeOf().as<std::string>() != "object" || array.isNull() ||
        !array["BYTES_PER_ELEMENT"].isNumber() || array["BYTES_PER_ELEMENT"].as<int>() != 2)
        throw std::invalid_argument(std::string(name) + " must be a Uint16Array of float16 halves");
    const auto length = array["length"].as<std::size_t>();
    if (length != count)
        throw std::invalid_argument(std::string(name) + " has " + std::to_string(length) +
                                    " halves; the model needs " + std::to_string(count));
    std::vector<std::uint16_t> halves(count);
    val(emscripten::typed_memory_view(count, halves.data())).call<void>("set", array);
    std::vector<float> values(count);
    for (std::size_t i = 0; i < count; ++i) values[i] = from_float16(halves[i]);
    return values;
}

template <typename Model>
std::unique_ptr<Model>& loaded() {
    static std::unique_ptr<Model> model;
    return model;
}

template <typename Model>
const Model& require_loaded(const char* what, const char* load) {
    if (!loaded<Model>())
        throw std::invalid_argument(std::string("no ") + what + " is loaded (" + load + " first)");
    return *loaded<Model>();
}

}  // namespace

// ---- The trained head (one layer) -------------------------------------------------------------

namespace {

struct TrainedHead {
    ModelConfig config;
    Parameters parameters;
    Vocabulary vocabulary{std::vector<std::string>{"a", "b"}};
};

// { vocabulary: [characters], context, d, scale: { mode, factor }, parameters: { embedding:
// Uint16Array of float16 halves, … } }. The map reads x = E + P and q, k, v = x·Wq, x·Wk, x·Wv: the first
// five matrices in Parameters order. The output projection and the unembedding only predict the next
// character, so the page does not ship them (scripts/build-web.mjs) and they stay zero.
val trained_head_load_js(val head) {
    return guarded([&] {
        require_request(head, "trainedHeadLoad");
        auto out = std::make_unique<TrainedHead>();
        out->vocabulary = vocabulary_field(head);
        out->config.vocabulary = out->vocabulary.size();
        out->config.context = int_field(head, "context", 1, kMaxModelContext);
        out->config.d = int_field(head, "d", 1, kMaxModelWidth);
        out->config.scale = scale_field(head, "scale");
        validate_config(out->config);
        out->parameters = zero_parameters(out->config);
        const val parameters = typed(head, "parameters", "object", "parameters", "an object of matrices");
        constexpr int kMapMatrices = 5;
        for (std::size_t n = 0; n < kMapMatrices; ++n) {
            const char* name = Parameters::names()[n];
            Matrix& m = *out->parameters.all()[n];
            m.values =
                in_field("parameters", [&] { return halves_field(parameters[name], m.values.size(), name); });
        }
        loaded<TrainedHead>() = std::move(out);
        val result = val::object();
        result.set("vocabulary", loaded<TrainedHead>()->vocabulary.size());
        return result;
    });
}

// { text, detail }: the same result as attentionMap for the loaded head, plus where each row
// peaks. What the head refuses is the text (a character it never met, or more than its context).
val trained_head_map_js(val request) {
    return guarded([&] {
        require_request(request, "trainedHeadMap");
        const TrainedHead& saved = require_loaded<TrainedHead>("trained head", "trainedHeadLoad");
        const std::string text = string_field(request, "text");
        const MapDetail level = detail_field(request, "detail");
        const TrainedHeadMap map = in_field("text", [&] {
            return trained_head_map(saved.config, saved.parameters, saved.vocabulary, text, level);
        });
        val result = map_object(map.tokens, saved.config.d, map.inputs.q, map.inputs.k, map.inputs.v,
                                map.head, map.stats);
        result.set("init", std::string("trained"));
        result.set("pos", std::string("learned"));
        val peaks = val::array();
        for (PeakTarget target : map.peaks) peaks.call<void>("push", std::string(peak_target_name(target)));
        result.set("peakTargets", peaks);
        return result;
    });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_trained_head) {
    emscripten::function("trainedHeadLoad", &trained_head_load_js);
    emscripten::function("trainedHeadMap", &trained_head_map_js);
}

// ---- The copying head (two layers) ------------------------------------------------------------

namespace {

struct CopyingHead {
    LayeredConfig config;
    std::vector<float> parameters;
    Vocabulary vocabulary{std::vector<std::string>{"a", "b"}};
};

constexpr int kMaxGuesses = 8;  // the first screen shows three

// { vocabulary: [characters], context, d, layers, layerNorm, scale, float16: Uint16Array } in
// parameter_layout() order (cpp/learning/layered/layered_model.hpp), as the file's halves.
val copying_head_load_js(val head) {
    return guarded([&] {
        require_request(head, "copyingHeadLoad");
        auto out = std::make_unique<CopyingHead>();
        out->vocabulary = vocabulary_field(head);
        out->config.vocabulary = out->vocabulary.size();
        out->config.context = int_field(head, "context", 1, kMaxModelContext);
        out->config.d = int_field(head, "d", 1, kMaxModelWidth);
        out->config.layers = int_field(head, "layers", 1, kMaxLayers);
        out->config.layer_norm = bool_field(head, "layerNorm");
        out->config.scale = scale_field(head, "scale");
        validate_layered_config(out->config);
        const std::size_t total = parameter_layout(out->config).total;
        out->parameters =
            in_field("float16", [&] { return halves_field(head["float16"], total, "float16"); });
        loaded<CopyingHead>() = std::move(out);
        val result = val::object();
        result.set("parameters", static_cast<double>(total));
        return result;
    });
}

// { text, layer, detail, guesses }: the fields of attentionMap for one layer's head (its q, k, v
// are those of the layer's normed input), plus layer, rowsWithEarlier and rowsIntoCopy
// (cpp/trained/copying_head.hpp) and next: the model's `guesses` likeliest next characters,
// [{ character, probability }], likeliest first. What the model refuses is the text.
val copying_head_map_js(val request) {
    return guarded([&] {
        require_request(request, "copyingHeadMap");
        const CopyingHead& saved = require_loaded<CopyingHead>("copying head", "copyingHeadLoad");
        const std::string text = string_field(request, "text");
        const int layer = int_field(request, "layer", 1, saved.config.layers);
        const MapDetail level = detail_field(request, "detail");
        const int guesses = int_field(request, "guesses", 0, kMaxGuesses);
        const CopyingHeadMap map = in_field("text", [&] {
            return copying_head_map(saved.config, saved.parameters, saved.vocabulary, text, layer, level,
                                    guesses);
        });
        return copying_map_object(map, saved.config.d);
    });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_copying_head) {
    emscripten::function("copyingHeadLoad", &copying_head_load_js);
    emscripten::function("copyingHeadMap", &copying_head_map_js);
}
