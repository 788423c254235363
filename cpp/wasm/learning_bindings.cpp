// learning_bindings.cpp: the learning section's core as a second Emscripten module
// (attention-learning.js, inside dist/learning.js): the head's backward pass and the training runs
// of section 6. The page loads it only when a reader nears section 6, so the page's own module
// (cpp/wasm/core_bindings.cpp, cpp/wasm/trained_bindings.cpp) carries none of the gradients or the
// optimiser. Shared helpers and rules: cpp/wasm/bindings.hpp.
#include "wasm/bindings.hpp"

#include "learning/backward.hpp"
#include "learning/training.hpp"
#include "trained/sample.hpp"
#include "tutorial/map.hpp"

#include <emscripten/bind.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>

using emscripten::val;
using namespace attention;
using namespace attention::js;

// ---- The backward pass ------------------------------------------------------------------------

namespace {

// dQ, dK, dV of the head for the upstream gradient, in float32: { q, k, v, T, d, dV, scale,
// causal, gradOutput }, gradOutput (T, dV).
val attention_backward_js(val request) {
    return guarded([&] {
        require_request(request, "attentionBackward");
        const double T = number_field(request, "T");
        const double d = number_field(request, "d");
        const double d_v = number_field(request, "dV");
        const Matrix q = matrix_field(request, "q", T, d);
        const Matrix k = matrix_field(request, "k", T, d);
        const Matrix v = matrix_field(request, "v", T, d_v);
        const Scale scale = scale_field(request, "scale");
        if (q.cols >= 1) in_field("scale", [&] { scale_factor(scale, q.cols); });
        const AttentionGradients gradients = backward(q, k, v, scale, bool_field(request, "causal"),
                                                      matrix_field(request, "gradOutput", T, d_v));
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
constexpr int kProbeLength = 24;       // characters in the window whose attention the page draws
constexpr int kMaxSampleLength = 400;  // each character runs the model once: keep a call short

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

val character_list(const std::vector<std::string>& characters) {
    val list = val::array();
    for (const std::string& c : characters) list.call<void>("push", c);
    return list;
}

// Held-out loss, attention summary and the probe's weights: what the page draws after steps.
// A run without a head has no attention: its summary and weights are null.
void set_measurements(val& result, const Session& session) {
    const Evaluation measured = session.run->evaluate();
    result.set("step", static_cast<double>(session.run->steps_taken()));
    result.set("heldOutLoss", measured.loss);
    if (!session.run->config().head) {
        for (const char* name : {"meanEntropy", "meanPeak", "weights"}) result.set(name, val::null());
        return;
    }
    result.set("meanEntropy", measured.attention.mean_entropy_nats);
    result.set("meanPeak", measured.attention.mean_peak_weight);
    result.set("weights", matrix_object(attention_weights_for(session.run->config(),
                                                              session.run->parameters(), session.probe)));
}

// { name, text, config, d, scale, optimizer, learningRate, seed, batch, context } → the options of a
// run. config is "head" (the one-head model) or "nohead" (its baseline without the head, whose
// scale is still checked but not used).
TrainingOptions training_options(const val& request) {
    TrainingOptions options;
    options.head = choice_field<bool>(request, "config", {{"head", true}, {"nohead", false}});
    options.d = int_field(request, "d", 1, kMaxTrainingWidth);
    options.scale = scale_field(request, "scale");
    in_field("scale", [&] { scale_factor(options.scale, options.d); });
    const std::string optimizer = string_field(request, "optimizer");
    options.optimizer.kind = in_field("optimizer", [&] { return parse_optimizer(optimizer); });
    options.optimizer.learning_rate = number_field(request, "learningRate");
    options.seed = seed_field(request, "seed");
    options.batch = int_field(request, "batch", 1, kMaxTrainingBatch);
    options.context = int_field(request, "context", 2, kMaxModelContext);
    return options;
}

// What trainingStart returns: the run's vocabulary and probe, then its first measurements.
val started_object(const std::string& name, const Session& session, std::size_t characters) {
    val result = val::object();
    result.set("name", name);
    result.set("vocabulary", character_list(session.run->vocabulary().characters()));
    val probe = val::array();
    for (int id : session.probe)
        probe.call<void>("push", session.run->vocabulary().characters()[static_cast<std::size_t>(id)]);
    result.set("probe", probe);
    result.set("characters", static_cast<double>(characters));
    const Batch& held_out = session.run->held_out();
    result.set("heldOutPredictions", static_cast<double>(held_out.batch) * held_out.context);
    set_measurements(result, session);
    return result;
}

val training_start_js(val request) {
    return guarded([&] {
        require_request(request, "trainingStart");
        const std::string name = string_field(request, "name");
        const std::string text = string_field(request, "text");
        const TrainingOptions options = training_options(request);
        sessions().erase(name);  // a restart frees the old run before building the new one
        if (static_cast<int>(sessions().size()) >= kMaxSessions)
            throw std::invalid_argument("at most " + std::to_string(kMaxSessions) + " training runs at once");
        Session session;
        session.run = std::make_unique<TrainingRun>(text, options);
        const std::vector<int> tokens = session.run->vocabulary().encode(text);
        session.probe.assign(tokens.begin(),
                             tokens.begin() + std::min<std::ptrdiff_t>(
                                                  kProbeLength, static_cast<std::ptrdiff_t>(tokens.size())));
        val result = started_object(name, session, tokens.size());
        sessions()[name] = std::move(session);
        return result;
    });
}

// { name, count, measure }: `count` steps; a step whose loss or gradients are not finite ends
// the run (it is removed, and the error says at which step), so no NaN ever reaches the page.
// With measure false, the held-out windows and the probe are not measured (the result then has
// no heldOutLoss, meanEntropy, meanPeak or weights): the page measures every few calls, not
// every call.
val training_steps_js(val request) {
    return guarded([&] {
        require_request(request, "trainingSteps");
        const std::string name = string_field(request, "name");
        Session& session = in_field("name", [&]() -> Session& { return session_named(name); });
        const int steps = int_field(request, "count", 1, kMaxStepsPerCall);
        const bool measure = bool_field(request, "measure");
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
            result.set("step", static_cast<double>(session.run->steps_taken()));
            if (measure) set_measurements(result, session);
            return result;
        } catch (const std::invalid_argument& error) {
            const long step = session.run->steps_taken() + 1;
            sessions().erase(name);
            throw std::invalid_argument("the run diverged at step " + std::to_string(step) + " (" +
                                        error.what() + "); try a smaller learning rate");
        }
    });
}

// { name, length, seed }: `length` characters the run's model writes after the text's first
// character, drawn with the given seed (cpp/trained/sample.hpp), as one string that starts with
// that character.
val training_sample_js(val request) {
    return guarded([&] {
        require_request(request, "trainingSample");
        const Session& session = session_named(string_field(request, "name"));
        const int length = int_field(request, "length", 0, kMaxSampleLength);
        const std::uint64_t seed = seed_field(request, "seed");
        const std::vector<int> prompt(session.probe.begin(), session.probe.begin() + 1);
        const std::vector<std::string>& characters = session.run->vocabulary().characters();
        std::string text = characters[static_cast<std::size_t>(prompt[0])];
        for (int id : sample_tokens(session.run->config(), session.run->parameters(), prompt, length, seed))
            text += characters[static_cast<std::size_t>(id)];
        val result = val::object();
        result.set("step", static_cast<double>(session.run->steps_taken()));
        result.set("text", text);
        return result;
    });
}

// { name }: frees the run; stopped says whether there was one.
val training_stop_js(val request) {
    return guarded([&] {
        require_request(request, "trainingStop");
        val result = val::object();
        result.set("stopped", sessions().erase(string_field(request, "name")) > 0);
        return result;
    });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attention_training) {
    emscripten::function("trainingStart", &training_start_js);
    emscripten::function("trainingSteps", &training_steps_js);
    emscripten::function("trainingSample", &training_sample_js);
    emscripten::function("trainingStop", &training_stop_js);
}

EMSCRIPTEN_BINDINGS(attention_learning_heap) {
    emscripten::function("heapInUse", &heap_in_use);
}
