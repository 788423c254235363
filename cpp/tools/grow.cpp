// attention-grow: grows a copying ("induction") head natively. Trains the two-layer, pre-LayerNorm
// model (cpp/learning/layered/) at d = 64 on Shakespeare with half of each batch a snippet
// repeated to fill its window, seed after seed until the second layer's head copies (its
// induction score on repeated random strings above 0.5), and says which seeds did not.
//
// Every 100 steps it prints the training loss, the held-out loss on natural text, and both
// layers' induction and previous-token scores; every 50 it records them for the page's chart.
// Then it measures the kept model as saved (float16): the census of docs/learning.md. It writes
// build/copying-head.json, or with --save web/assets/copying-head.json, which the page loads.
// It is a command-line report: every number it prints comes from the core.
#include "learning/layered/copying_head.hpp"
#include "learning/layered/growth.hpp"
#include "trained/float16.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#ifndef ATTENTION_DATA_DIR
#define ATTENTION_DATA_DIR "data"
#endif
#ifndef ATTENTION_SOURCE_DIR
#define ATTENTION_SOURCE_DIR "."
#endif

namespace {

using namespace attention;
using Clock = std::chrono::steady_clock;

struct Options {
    std::string corpus = std::string(ATTENTION_DATA_DIR) + "/tinyshakespeare.txt";
    std::string output = std::string(ATTENTION_SOURCE_DIR) + "/build/copying-head.json";
    std::vector<int> seeds = {0, 1, 2, 3, 4, 5, 6, 7};
    int steps = 2000;       // at most, per seed
    int record_every = 50;  // the saved curve's spacing
    int print_every = 100;
    double formed = 0.5;  // the layer-2 induction score that counts as a copying head
    int hold = 300;       // steps it must stay above `formed` before the run stops
    int time_steps = 0;   // > 0: only time that many steps of seed 0
};

const char* kUsage =
    "usage: attention-grow [--seeds 0,1,2] [--steps N] [--save] [--output PATH] [--corpus PATH]\n"
    "                      [--time STEPS]\n";

Options parse_arguments(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (flag == "--save") {
            options.output = std::string(ATTENTION_SOURCE_DIR) + "/web/assets/copying-head.json";
            continue;
        }
        if (i + 1 >= argc) throw std::invalid_argument(std::string(kUsage) + "missing value after " + flag);
        const std::string value = argv[++i];
        if (flag == "--seeds") {
            options.seeds.clear();
            std::stringstream list(value);
            for (std::string item; std::getline(list, item, ',');) options.seeds.push_back(std::stoi(item));
        } else if (flag == "--steps")
            options.steps = std::stoi(value);
        else if (flag == "--output")
            options.output = value;
        else if (flag == "--corpus")
            options.corpus = value;
        else if (flag == "--time")
            options.time_steps = std::stoi(value);
        else
            throw std::invalid_argument(std::string(kUsage) + "unknown option " + flag);
    }
    return options;
}

// The measured setup (docs/learning.md): d = 64, T = 128, two layers with pre-LN, 1/√d, batch
// 32 of which 16 windows are 16–64-character snippets repeated, Adam at 1e-2.
GrowthOptions growth_options(std::uint64_t seed) {
    GrowthOptions options;
    options.model = LayeredConfig{65, 128, 64, 2, true, Scale::inverse_sqrt_d()};
    options.batches = SnippetOptions{32, 128, 16, 16, 64};
    options.optimizer.learning_rate = 1e-2;
    options.seed = seed;
    return options;
}

// This thread's CPU time in seconds: on a shared machine, wall time also counts other programs' turns.
double thread_seconds() {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

// value to `digits` decimals, as the nearest double to that decimal (so JSON prints it short).
double round_to(double value, int digits) {
    const double scale = std::pow(10.0, digits);
    return std::round(value * scale) / scale;
}

// One row of the curve: step, training loss (mean since the last row), held-out loss, and per
// layer the induction and previous-token scores.
struct CurvePoint {
    long step = 0;
    double train = 0;
    GrowthMeasure measure;
};

void print_point(const CurvePoint& point, double ms_per_step) {
    const auto& layers = point.measure.probe.layers;
    std::printf("  %5ld  %7.4f  %8.4f   %6.3f  %7.3f   %6.3f  %7.3f   %5.2f  %5.2f  %6.1f\n", point.step,
                point.train, point.measure.held_out_loss, layers[0].induction, layers[0].previous,
                layers[1].induction, layers[1].previous, point.measure.probe.first_copy_loss,
                point.measure.probe.second_copy_loss, ms_per_step);
    std::fflush(stdout);
}

struct SeedResult {
    std::uint64_t seed = 0;
    bool formed = false;
    long crossed_03 = -1, crossed_05 = -1;  // first recorded step above 0.3 and 0.5, or −1
    std::vector<CurvePoint> curve;
    std::vector<float> parameters;
    double ms_per_step = 0;  // CPU time, median over the stretches between records
    long steps = 0;
};

}  // namespace

namespace {

// Notes a crossing of the layer-2 induction score and says whether the head has held above
// `formed` for `hold` steps (the run can stop).
bool note_crossings(const Options& options, const CurvePoint& point, SeedResult& result, long& above_since) {
    const double score = point.measure.probe.layers.back().induction;
    if (score > 0.3 && result.crossed_03 < 0) result.crossed_03 = point.step;
    if (score > 0.5 && result.crossed_05 < 0) result.crossed_05 = point.step;
    above_since = score > options.formed ? (above_since < 0 ? point.step : above_since) : -1;
    return above_since >= 0 && point.step - above_since >= options.hold;
}

SeedResult grow_seed(const Options& options, const Vocabulary& vocabulary, const std::vector<int>& tokens,
                     std::uint64_t seed) {
    GrowthRun run(vocabulary, tokens, growth_options(seed));
    SeedResult result;
    result.seed = seed;
    std::printf("seed %llu: %zu parameters\n", static_cast<unsigned long long>(seed),
                run.parameters().size());
    std::printf("   step  train    held-out   L1 ind  L1 prev   L2 ind  L2 prev   copy1  copy2  ms/step\n");
    std::vector<double> stretches;
    double loss_sum = 0, seconds = 0;
    long above_since = -1;
    for (long step = 0;; ++step) {
        if (step % options.record_every == 0) {
            CurvePoint point{step, step ? loss_sum / options.record_every : std::nan(""), run.measure()};
            if (step) stretches.push_back(1000 * seconds / options.record_every);
            result.curve.push_back(point);
            if (step % options.print_every == 0) print_point(point, step ? stretches.back() : 0.0);
            loss_sum = seconds = 0;
            if (note_crossings(options, point, result, above_since) || step >= options.steps) break;
        }
        const double began = thread_seconds();
        loss_sum += run.step();
        seconds += thread_seconds() - began;
    }
    result.formed = result.crossed_05 >= 0 && result.curve.back().measure.probe.layers.back().induction > 0.5;
    result.parameters = run.parameters();
    result.steps = result.curve.back().step;
    std::sort(stretches.begin(), stretches.end());
    result.ms_per_step = stretches.empty() ? 0 : stretches[stretches.size() / 2];
    return result;
}

// The parameters as the page will read them: each value through float16 and back.
std::vector<float> as_saved(const std::vector<float>& parameters) {
    std::vector<float> saved;
    saved.reserve(parameters.size());
    for (float value : parameters) saved.push_back(from_float16(to_float16(value)));
    return saved;
}

// Passages of held-out text at evenly spaced starts, their lengths cycling through 20–64.
std::vector<std::vector<int>> held_out_passages(const std::vector<int>& held_out, int count) {
    std::vector<std::vector<int>> passages;
    for (int b = 0; b < count; ++b) {
        const auto length = static_cast<std::size_t>(20 + b % 45);
        const std::size_t start =
            (held_out.size() - length) * static_cast<std::size_t>(b) / static_cast<std::size_t>(count);
        passages.emplace_back(held_out.begin() + static_cast<std::ptrdiff_t>(start),
                              held_out.begin() + static_cast<std::ptrdiff_t>(start + length));
    }
    return passages;
}

nlohmann::json copy_json(const CopyMeasure& measure) {
    nlohmann::json layers = nlohmann::json::array();
    for (const LayerCopyScores& scores : measure.layers)
        layers.push_back({{"induction", round_to(scores.induction, 4)},
                          {"previous", round_to(scores.previous, 4)},
                          {"inductionShare", round_to(scores.induction_share, 4)},
                          {"previousShare", round_to(scores.previous_share, 4)}});
    return {{"rows", measure.rows},
            {"firstCopyLoss", round_to(measure.first_copy_loss, 4)},
            {"secondCopyLoss", round_to(measure.second_copy_loss, 4)},
            {"layers", layers}};
}

// Over natural held-out windows: of the rows whose character occurred earlier in the window, the
// share whose last-layer peak points into an earlier copy (copying_head.hpp's definition).
nlohmann::json natural_census(const LayeredConfig& config, const std::vector<float>& parameters,
                              const std::vector<int>& held_out) {
    const Batch windows = spaced_windows(held_out, 64, config.context);
    LayeredActivations acts;
    layered_forward(config, parameters, windows, acts);
    long rows = 0, into = 0;
    for (int b = 0; b < windows.batch; ++b) {
        const auto begin = windows.tokens.begin() + static_cast<std::ptrdiff_t>(b) * (config.context + 1);
        const std::vector<int> ids(begin, begin + config.context);
        const std::vector<bool> points =
            points_into_earlier_copy(acts.layers.back().weights[static_cast<std::size_t>(b)], ids);
        for (int i = 1; i < config.context; ++i) {
            if (std::find(ids.begin(), ids.begin() + i, ids[static_cast<std::size_t>(i)]) == ids.begin() + i)
                continue;
            ++rows;
            into += points[static_cast<std::size_t>(i)] ? 1 : 0;
        }
    }
    return {{"windows", windows.batch},
            {"rows", rows},
            {"share", round_to(static_cast<double>(into) / static_cast<double>(rows), 4)}};
}

nlohmann::json census(const LayeredConfig& config, const std::vector<float>& saved,
                      const std::vector<int>& held_out) {
    const CopyMeasure text = measure_copying(config, saved, held_out_passages(held_out, 400));
    const CopyMeasure random =
        measure_copying(config, saved, random_passages(config.vocabulary, 400, 20, 40, 4242));
    std::printf("census (the saved float16 model, layer 2):\n");
    std::printf(
        "  held-out passages of 20-64 characters shown twice (%ld rows): %.1f%% peak on the copy; loss 2nd / "
        "1st copy %.3f / %.3f\n",
        text.rows, 100 * text.layers.back().induction_share, text.second_copy_loss, text.first_copy_loss);
    std::printf(
        "  random strings of 20-40 characters shown twice (%ld rows): %.1f%% peak on the copy; loss 2nd / "
        "1st copy %.3f / %.3f\n",
        random.rows, 100 * random.layers.back().induction_share, random.second_copy_loss,
        random.first_copy_loss);
    const nlohmann::json natural = natural_census(config, saved, held_out);
    std::printf(
        "  natural held-out windows (%ld rows with an earlier occurrence): %.1f%% point into an earlier "
        "copy\n",
        natural.at("rows").get<long>(), 100 * natural.at("share").get<double>());
    return {
        {"heldOutPassages", copy_json(text)}, {"randomStrings", copy_json(random)}, {"naturalText", natural}};
}

}  // namespace

namespace {

// The curve as columns (one array per series), rounded: small enough to ship with the model. The
// copy losses and scores are the probe's (32 random strings of 40 characters shown twice);
// induction and previousToken hold one series per layer.
nlohmann::json curve_json(const std::vector<CurvePoint>& curve) {
    nlohmann::json steps = nlohmann::json::array(), train = nlohmann::json::array(),
                   held = nlohmann::json::array(), first_copy = nlohmann::json::array(),
                   second_copy = nlohmann::json::array(),
                   induction = {nlohmann::json::array(), nlohmann::json::array()},
                   previous = {nlohmann::json::array(), nlohmann::json::array()};
    for (const CurvePoint& point : curve) {
        steps.push_back(point.step);
        train.push_back(std::isnan(point.train) ? nlohmann::json(nullptr)
                                                : nlohmann::json(round_to(point.train, 3)));
        held.push_back(round_to(point.measure.held_out_loss, 3));
        first_copy.push_back(round_to(point.measure.probe.first_copy_loss, 2));
        second_copy.push_back(round_to(point.measure.probe.second_copy_loss, 2));
        for (std::size_t l = 0; l < 2; ++l) {
            induction[l].push_back(round_to(point.measure.probe.layers[l].induction, 3));
            previous[l].push_back(round_to(point.measure.probe.layers[l].previous, 3));
        }
    }
    return {{"step", steps},
            {"trainLoss", train},
            {"heldOutLoss", held},
            {"firstCopyLoss", first_copy},
            {"secondCopyLoss", second_copy},
            {"induction", induction},
            {"previousToken", previous}};
}

nlohmann::json model_json(const LayeredConfig& config, const Vocabulary& vocabulary, const SeedResult& kept,
                          const std::vector<SeedResult>& tried, const nlohmann::json& census_numbers) {
    nlohmann::json tensors = nlohmann::json::array();
    for (const TensorSlot& slot : parameter_layout(config).tensors)
        tensors.push_back({{"name", slot.name}, {"rows", slot.rows}, {"cols", slot.cols}});
    nlohmann::json seeds = nlohmann::json::array();
    for (const SeedResult& result : tried)
        seeds.push_back({{"seed", result.seed},
                         {"formed", result.formed},
                         {"steps", result.steps},
                         {"crossed03", result.crossed_03},
                         {"crossed05", result.crossed_05}});
    return {{"model", "two layers of one head, pre-LayerNorm, learned positions (cpp/learning/layered/)"},
            {"config",
             {{"vocabulary", config.vocabulary},
              {"context", config.context},
              {"d", config.d},
              {"layers", config.layers},
              {"layerNorm", config.layer_norm},
              {"scale", "sqrt"}}},
            {"vocabulary", vocabulary.characters()},
            {"training",
             {{"seed", kept.seed},
              {"steps", kept.steps},
              {"batch", 32},
              {"repeatedWindows", 16},
              {"snippetLengths", {16, 64}},
              {"learningRate", 1e-2},
              {"msPerStep", round_to(kept.ms_per_step, 1)},
              {"crossed03", kept.crossed_03},
              {"crossed05", kept.crossed_05},
              {"seedsTried", seeds}}},
            {"format", "every tensor of `tensors` in order, row-major, float16 little-endian, base64"},
            {"tensors", tensors},
            {"float16", float16_base64(kept.parameters)},
            {"curve", curve_json(kept.curve)},
            {"census", census_numbers}};
}

int time_only(const Options& options, const Vocabulary& vocabulary, const std::vector<int>& tokens) {
    GrowthRun run(vocabulary, tokens, growth_options(0));
    for (int i = 0; i < 5; ++i) run.step();
    const auto began = Clock::now();
    const double cpu_began = thread_seconds();
    for (int i = 0; i < options.time_steps; ++i) run.step();
    const double wall =
        1000 * std::chrono::duration<double>(Clock::now() - began).count() / options.time_steps;
    const double cpu = 1000 * (thread_seconds() - cpu_began) / options.time_steps;
    std::printf("%d steps after 5 warm-up: %.1f ms/step wall, %.1f ms/step of CPU\n", options.time_steps,
                wall, cpu);
    return 0;
}

int grow(const Options& options) {
    const std::string text = read_text_file(options.corpus);
    const Vocabulary vocabulary(text);
    const std::vector<int> tokens = vocabulary.encode(text);
    if (options.time_steps > 0) return time_only(options, vocabulary, tokens);
    std::vector<SeedResult> tried;
    for (int seed : options.seeds) {
        tried.push_back(grow_seed(options, vocabulary, tokens, static_cast<std::uint64_t>(seed)));
        const SeedResult& last = tried.back();
        const auto when = [](long step) {
            return step < 0 ? std::string("never") : "step " + std::to_string(step);
        };
        std::printf(
            "seed %d: %s in %ld steps (layer-2 induction > 0.3: %s, > 0.5: %s; %.1f ms/step of CPU)\n\n",
            seed, last.formed ? "a copying head formed" : "no copying head", last.steps,
            when(last.crossed_03).c_str(), when(last.crossed_05).c_str(), last.ms_per_step);
        if (last.formed) break;
    }
    if (!tried.back().formed) {
        std::printf("no seed of those tried grew a copying head; nothing saved\n");
        return 1;
    }
    const SeedResult& kept = tried.back();
    const LayeredConfig config = growth_options(kept.seed).model;
    GrowthRun split(vocabulary, tokens, growth_options(kept.seed));  // for its held-out tokens
    const std::vector<float> saved = as_saved(kept.parameters);
    const nlohmann::json numbers = census(config, saved, split.held_out_tokens());
    std::ofstream out(options.output);
    if (!out) throw std::runtime_error("cannot write " + options.output);
    out << model_json(config, vocabulary, kept, tried, numbers).dump() << "\n";
    std::printf("wrote %s\n", options.output.c_str());
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        return grow(parse_arguments(argc, argv));
    } catch (const std::exception& error) {
        std::cerr << "attention-grow: " << error.what() << "\n";
        return 2;
    }
}
