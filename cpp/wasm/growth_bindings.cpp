// growth_bindings.cpp: section 9's "grow it yourself" in the learning section's module
// (attention-learning.js, beside cpp/wasm/learning_bindings.cpp): the growth run of
// cpp/learning/layered/growth.hpp, step by step, on the page's workers. Shared helpers and rules:
// cpp/wasm/bindings.hpp.
//
// A run lives here, keyed by a name the page chooses, as the training runs do: starting a name
// again replaces its run, and stopping it frees it. One worker takes every step itself
// (growthSteps); several workers each keep a run of the same seed and take a step together
// (growthShare, then growthApply with every worker's block: growth.hpp says why the result is the
// same bit for bit for any number of workers). Every result is a fresh plain object.
#include "wasm/bindings.hpp"

#include "learning/layered/growth.hpp"
#include "trained/copying_head.hpp"

#include <emscripten/bind.h>

#include <map>
#include <memory>
#include <string>

using emscripten::val;
using namespace attention;
using namespace attention::js;

namespace {

constexpr int kMaxGrowthRuns = 4;            // the page grows one model, on up to four workers of one page
constexpr int kMaxGrowthStepsPerCall = 500;  // each call should stay short: the page asks again
constexpr int kMaxGrowthWidth = 128;
constexpr int kMaxGrowthBatch = 64;
constexpr int kMaxGrowthShares = 16;
constexpr int kMaxGuesses = 8;

struct Growth {
    Vocabulary vocabulary{std::vector<std::string>{"a", "b"}};
    std::unique_ptr<GrowthRun> run;
};

std::map<std::string, Growth>& growths() {
    static std::map<std::string, Growth> all;
    return all;
}

Growth& growth_named(const val& request) {
    const std::string name = string_field(request, "name");
    auto found = growths().find(name);
    if (found == growths().end())
        throw FieldError("name", "no growth run is called \"" + name + "\" (start it first)");
    return found->second;
}

// The recipe's fields (web/assets/copying-head.json's config and training, as learning-core.js
// hands them over) as the run's options.
GrowthOptions growth_options(const val& request) {
    GrowthOptions options;
    const int d = int_field(request, "d", 1, kMaxGrowthWidth);
    const int context = int_field(request, "context", 2, kMaxModelContext);
    options.model = LayeredConfig{0, context, d, 2, true, Scale::inverse_sqrt_d()};
    options.batches.batch = int_field(request, "batch", 1, kMaxGrowthBatch);
    options.batches.context = context;
    options.batches.repeated = int_field(request, "repeated", 0, options.batches.batch);
    options.batches.random = int_field(request, "random", 0, options.batches.repeated);
    options.batches.shortest = int_field(request, "shortest", 1, context + 1);
    options.batches.longest = int_field(request, "longest", options.batches.shortest, context + 1);
    options.optimizer.learning_rate = number_field(request, "learningRate");
    options.warmup = int_field(request, "warmup", 0, 1 << 20);
    options.later_step = int_field(request, "laterStep", -1, 1 << 30);
    options.later_random = int_field(request, "laterRandom", 0, options.batches.repeated);
    options.seed = seed_field(request, "seed");
    options.shares = int_field(request, "shares", 1, kMaxGrowthShares);
    return options;
}

val per_layer(const CopyMeasure& probe, double LayerCopyScores::*score) {
    val list = val::array();
    for (const LayerCopyScores& layer : probe.layers) list.call<void>("push", layer.*score);
    return list;
}

// What the page draws after steps: the held-out loss, both layers' scores on the probe, and
// whether the head has formed (growth.hpp's kFormedScore and kFormedShare; the held-out share
// is measured only once the score is there, null before).
val measure_object(GrowthRun& run) {
    const GrowthMeasure measured = run.measure();
    val out = val::object();
    out.set("step", static_cast<double>(measured.step));
    out.set("heldOutLoss", measured.held_out_loss);
    out.set("induction", per_layer(measured.probe, &LayerCopyScores::induction));
    out.set("previousToken", per_layer(measured.probe, &LayerCopyScores::previous));
    out.set("firstCopyLoss", measured.probe.first_copy_loss);
    out.set("secondCopyLoss", measured.probe.second_copy_loss);
    const bool scored = measured.probe.layers.back().induction >= kFormedScore;
    const double share = scored ? run.held_out_copy_share() : 0;
    out.set("heldOutShare", scored ? val(share) : val::null());
    out.set("formed", scored && share >= kFormedShare);
    return out;
}

// { name, text, seed, shares, d, context, batch, repeated, random, shortest, longest,
// learningRate, warmup, laterStep, laterRandom } → { name, vocabulary, parameters, shares,
// measure }: the run's characters, its parameter count and its measurements at step 0.
val growth_start_js(val request) {
    return guarded([&] {
        require_request(request, "growthStart");
        const std::string name = string_field(request, "name");
        const std::string text = string_field(request, "text");
        const GrowthOptions options = growth_options(request);
        growths().erase(name);  // a restart frees the old run before building the new one
        if (static_cast<int>(growths().size()) >= kMaxGrowthRuns)
            throw FieldError("name", "at most " + std::to_string(kMaxGrowthRuns) + " growth runs at once");
        Growth growth;
        growth.vocabulary = in_field("text", [&] { return Vocabulary(text); });
        growth.run = in_field("text", [&] {
            return std::make_unique<GrowthRun>(growth.vocabulary, growth.vocabulary.encode(text), options);
        });
        val result = val::object();
        result.set("name", name);
        val characters = val::array();
        for (const std::string& c : growth.vocabulary.characters()) characters.call<void>("push", c);
        result.set("vocabulary", characters);
        result.set("parameters", static_cast<double>(growth.run->parameters().size()));
        result.set("shares", options.shares);
        result.set("measure", measure_object(*growth.run));
        growths()[name] = std::move(growth);
        return result;
    });
}

// A diverged step frees the run and says at which step, so no NaN reaches the page.
template <typename F>
val diverging(const val& request, Growth& growth, F&& steps) {
    try {
        return steps();
    } catch (const FieldError&) {
        throw;
    } catch (const std::invalid_argument& error) {
        const long step = growth.run->steps_taken() + 1;
        growths().erase(string_field(request, "name"));
        throw std::invalid_argument("the growth run stopped at step " + std::to_string(step) + " (" +
                                    error.what() + ")");
    }
}

// { name, count, measure } → { step, losses (Float32Array, one per step), measure (with measure
// true; else absent) }: `count` steps in shares on this worker alone.
val growth_steps_js(val request) {
    return guarded([&] {
        require_request(request, "growthSteps");
        Growth& growth = growth_named(request);
        const int count = int_field(request, "count", 1, kMaxGrowthStepsPerCall);
        const bool measure = bool_field(request, "measure");
        return diverging(request, growth, [&] {
            std::vector<float> losses;
            for (int s = 0; s < count; ++s)
                losses.push_back(static_cast<float>(growth.run->step_in_shares()));
            val result = val::object();
            result.set("step", static_cast<double>(growth.run->steps_taken()));
            result.set("losses", copy_out(losses));
            if (measure) result.set("measure", measure_object(*growth.run));
            return result;
        });
    });
}

// { name, first, count } → { first, count, gradient (Float32Array), loss }: this worker's block
// of the next step's shares (growth.hpp's share_gradient), for growthApply on every worker.
val growth_share_js(val request) {
    return guarded([&] {
        require_request(request, "growthShare");
        Growth& growth = growth_named(request);
        const int first = int_field(request, "first", 0, kMaxGrowthShares - 1);
        const int count = int_field(request, "count", 1, kMaxGrowthShares);
        in_field("count", [&] { growth.run->check_block(first, count); });
        return diverging(request, growth, [&] {
            const ShareGradient block = growth.run->share_gradient(first, count);
            val result = val::object();
            result.set("first", block.first);
            result.set("count", block.count);
            result.set("gradient", copy_out(block.gradient));
            result.set("loss", block.loss);
            return result;
        });
    });
}

ShareGradient block_from(const val& item, std::size_t parameters) {
    require_request(item, "each of blocks");
    ShareGradient block;
    block.first = int_field(item, "first", 0, kMaxGrowthShares - 1);
    block.count = int_field(item, "count", 1, kMaxGrowthShares);
    block.loss = number_field(item, "loss");
    const val gradient = array_field(item, "gradient");
    const Matrix values = matrix_from(gradient, 1, static_cast<double>(parameters), "gradient");
    block.gradient = values.values;
    return block;
}

// { name, blocks: [{ first, count, gradient, loss }] (every worker's growthShare, in share
// order), measure } → { step, loss, measure (with measure true) }: the step's one Adam update.
val growth_apply_js(val request) {
    return guarded([&] {
        require_request(request, "growthApply");
        Growth& growth = growth_named(request);
        const val list = array_field(request, "blocks");
        const bool measure = bool_field(request, "measure");
        std::vector<ShareGradient> blocks;
        const auto length = list["length"].as<unsigned>();
        for (unsigned b = 0; b < length; ++b)
            blocks.push_back(
                in_field("blocks", [&] { return block_from(list[b], growth.run->parameters().size()); }));
        const double loss = in_field("blocks", [&] { return growth.run->apply_shares(std::move(blocks)); });
        return diverging(request, growth, [&] {  // measuring runs the model again
            val result = val::object();
            result.set("step", static_cast<double>(growth.run->steps_taken()));
            result.set("loss", loss);
            if (measure) result.set("measure", measure_object(*growth.run));
            return result;
        });
    });
}

// { name, text, layer, detail, guesses }: copyingHeadMap's result (cpp/wasm/trained_bindings.cpp)
// for the growing model as it is now, plus the step it has reached.
val growth_map_js(val request) {
    return guarded([&] {
        require_request(request, "growthMap");
        const Growth& growth = growth_named(request);
        const std::string text = string_field(request, "text");
        const LayeredConfig& config = growth.run->config();
        const int layer = int_field(request, "layer", 1, config.layers);
        const MapDetail level = detail_field(request, "detail");
        const int guesses = int_field(request, "guesses", 0, kMaxGuesses);
        const CopyingHeadMap map = in_field("text", [&] {
            return copying_head_map(config, growth.run->parameters(), growth.vocabulary, text, layer, level,
                                    guesses);
        });
        val result = copying_map_object(map, config.d);
        result.set("step", static_cast<double>(growth.run->steps_taken()));
        return result;
    });
}

// { name }: frees the run; stopped says whether there was one.
val growth_stop_js(val request) {
    return guarded([&] {
        require_request(request, "growthStop");
        val result = val::object();
        result.set("stopped", growths().erase(string_field(request, "name")) > 0);
        return result;
    });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_growth) {
    emscripten::function("growthStart", &growth_start_js);
    emscripten::function("growthSteps", &growth_steps_js);
    emscripten::function("growthShare", &growth_share_js);
    emscripten::function("growthApply", &growth_apply_js);
    emscripten::function("growthMap", &growth_map_js);
    emscripten::function("growthStop", &growth_stop_js);
}
