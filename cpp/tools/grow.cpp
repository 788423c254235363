// attention-grow: grows a copying ("induction") head natively. Trains the two-layer, pre-LayerNorm
// model (cpp/learning/layered/) on Shakespeare with a share of each batch a string repeated to fill
// its window, by a recipe (width, context, batch, how many windows repeat a snippet of the text or
// a random string, their lengths, the learning rate and its warm-up), seed after seed until one
// forms the head, and says which seeds did not. With --sweep it runs every seed of every recipe
// given instead, appending one JSON line per seed to build/grow-sweep.jsonl; --table prints that
// log as the table of docs/learning.md. --losses N prints only the first N training losses of the
// first seed, each step taken in shares as the page's trainer takes it.
//
// A head has formed when layer 2's induction score on repeated random strings is at least 0.3 and
// layer 2 peaks on the copy in at least 60% of the second-copy rows of held-out passages shown
// twice; a run stops once that has held for --hold steps. Every 100 steps it prints the training
// loss, the held-out loss on natural text, and both layers' induction and previous-token scores;
// every 50 it records them for the page's chart. Then it measures the kept model as saved
// (float16): the census of docs/learning.md, and its three likeliest next characters on a phrase
// typed twice. It writes build/copying-head.json, or with --save web/assets/copying-head.json,
// which the page loads. It is a command-line report: every number it prints comes from the core.
#include "learning/layered/growth.hpp"
#include "trained/copying_head.hpp"
#include "trained/float16.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
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

// How a head is grown. The defaults are where the sweep starts (the configuration measured in
// PyTorch before it: docs/learning.md); a --recipe spec changes some of them.
struct Recipe {
    int d = 32;
    int context = 96;
    int batch = 16;
    int repeated = 8;  // windows of the batch that repeat a string
    int random = 8;    // of those, how many repeat a uniform random string, not a snippet of the text
    int shortest = 16, longest = 64;
    double learning_rate = 1e-2;
    int warmup = 0;       // steps of linear warm-up of the learning rate
    int later_step = -1;  // from this step on (−1: never), later_random of the repeats are random
    int later_random = 0;
};

// The recipe the sweep chose (docs/learning.md), grown when no --recipe is given: random strings
// in every repeated window, then from step 1,000 on two of the eight a snippet of the text.
constexpr const char* kChosenRecipe = "d=48,then=6@1000";

// "d=32,context=96,batch=16,repeated=8,random=8,lengths=16-64,lr=0.01,warmup=0,then=6@1000", any
// subset ("then=6@1000": from step 1,000 on, 6 of the repeats are random strings).
Recipe parse_recipe(const std::string& spec) {
    Recipe recipe;
    std::stringstream items(spec);
    for (std::string item; std::getline(items, item, ',');) {
        const std::size_t equals = item.find('=');
        if (equals == std::string::npos) throw std::invalid_argument("recipe item " + item + " has no '='");
        const std::string key = item.substr(0, equals), value = item.substr(equals + 1);
        if (key == "d")
            recipe.d = std::stoi(value);
        else if (key == "context")
            recipe.context = std::stoi(value);
        else if (key == "batch")
            recipe.batch = std::stoi(value);
        else if (key == "repeated")
            recipe.repeated = std::stoi(value);
        else if (key == "random")
            recipe.random = std::stoi(value);
        else if (key == "lengths" && value.find('-') != std::string::npos) {
            recipe.shortest = std::stoi(value.substr(0, value.find('-')));
            recipe.longest = std::stoi(value.substr(value.find('-') + 1));
        } else if (key == "lr")
            recipe.learning_rate = std::stod(value);
        else if (key == "warmup")
            recipe.warmup = std::stoi(value);
        else if (key == "then" && value.find('@') != std::string::npos) {
            recipe.later_random = std::stoi(value.substr(0, value.find('@')));
            recipe.later_step = std::stoi(value.substr(value.find('@') + 1));
        } else
            throw std::invalid_argument("unknown recipe item " + item);
    }
    return recipe;
}

std::string recipe_label(const Recipe& r) {
    std::ostringstream out;
    out << "d=" << r.d << ",context=" << r.context << ",batch=" << r.batch << ",repeated=" << r.repeated
        << ",random=" << r.random << ",lengths=" << r.shortest << "-" << r.longest
        << ",lr=" << r.learning_rate << ",warmup=" << r.warmup;
    if (r.later_step >= 0) out << ",then=" << r.later_random << "@" << r.later_step;
    return out.str();
}

GrowthOptions growth_options(const Recipe& r, std::uint64_t seed) {
    GrowthOptions options;
    options.model = LayeredConfig{65, r.context, r.d, 2, true, Scale::inverse_sqrt_d()};
    options.batches = SnippetOptions{r.batch, r.context, r.repeated, r.shortest, r.longest, r.random, 0};
    options.optimizer.learning_rate = r.learning_rate;
    options.warmup = r.warmup;
    options.later_step = r.later_step;
    options.later_random = r.later_random;
    options.seed = seed;
    return options;
}

struct Options {
    std::string corpus = std::string(ATTENTION_DATA_DIR) + "/tinyshakespeare.txt";
    std::string output = std::string(ATTENTION_SOURCE_DIR) + "/build/copying-head.json";
    std::string sweep_log = std::string(ATTENTION_SOURCE_DIR) + "/build/grow-sweep.jsonl";
    std::vector<Recipe> recipes;
    std::vector<int> seeds = {0, 1, 2, 3, 4, 5, 6, 7};
    int steps = 3000;       // at most, per seed
    int record_every = 50;  // the saved curve's spacing
    int print_every = 100;
    int hold = 200;  // steps the head must stay formed before the run stops
    bool sweep = false;
    bool table = false;  // print the sweep log's table and stop
    int time_steps = 0;  // > 0: only time that many steps of seed 0, on both paths
    int time_rounds = 1;
    bool json = false;   // --time's result as one JSON line
    int loss_steps = 0;  // > 0: only print that many training losses of the first seed, in shares
};

std::string usage() {
    return std::string(
               "usage: attention-grow [--recipe SPEC]... [--seeds 0,1,2] [--steps N] [--hold N] [--sweep]\n"
               "                      [--save] [--output PATH] [--corpus PATH] [--time STEPS [--rounds N] "
               "[--json]]\n"
               "                      [--table] [--log PATH] [--losses STEPS]\n"
               "  SPEC: "
               "d=32,context=96,batch=16,repeated=8,random=8,lengths=16-64,lr=0.01,warmup=0,then=6@1000\n"
               "        (any subset, each item changing the sweep's starting point; without --recipe: ") +
           kChosenRecipe + ")\n";
}

std::vector<int> parse_list(const std::string& value) {
    std::vector<int> out;
    std::stringstream list(value);
    for (std::string item; std::getline(list, item, ',');) out.push_back(std::stoi(item));
    return out;
}

Options parse_arguments(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (flag == "--save" || flag == "--sweep" || flag == "--json" || flag == "--table") {
            if (flag == "--save")
                options.output = std::string(ATTENTION_SOURCE_DIR) + "/web/assets/copying-head.json";
            options.sweep = options.sweep || flag == "--sweep";
            options.json = options.json || flag == "--json";
            options.table = options.table || flag == "--table";
            continue;
        }
        if (i + 1 >= argc) throw std::invalid_argument(usage() + "missing value after " + flag);
        const std::string value = argv[++i];
        if (flag == "--recipe")
            options.recipes.push_back(parse_recipe(value));
        else if (flag == "--seeds")
            options.seeds = parse_list(value);
        else if (flag == "--steps")
            options.steps = std::stoi(value);
        else if (flag == "--hold")
            options.hold = std::stoi(value);
        else if (flag == "--output")
            options.output = value;
        else if (flag == "--corpus")
            options.corpus = value;
        else if (flag == "--log")
            options.sweep_log = value;
        else if (flag == "--time")
            options.time_steps = std::stoi(value);
        else if (flag == "--rounds")
            options.time_rounds = std::stoi(value);
        else if (flag == "--losses")
            options.loss_steps = std::stoi(value);
        else
            throw std::invalid_argument(usage() + "unknown option " + flag);
    }
    if (options.recipes.empty()) options.recipes.push_back(parse_recipe(kChosenRecipe));
    if (options.recipes.size() > 1 && !options.sweep)
        throw std::invalid_argument("several recipes only with --sweep");
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

}  // namespace

namespace {

// The parameters as the page will read them: each value through float16 and back.
std::vector<float> as_saved(const std::vector<float>& parameters) {
    std::vector<float> saved;
    saved.reserve(parameters.size());
    for (float value : parameters) saved.push_back(from_float16(to_float16(value)));
    return saved;
}

// Phrases such as a reader might type twice on the first screen (each at most 48 characters, so
// that twice fits a context of 96).
const std::vector<std::string> kReaderPhrases = {
    "the cat sat on the mat. ", "I think, therefore I am. ", "my name is Ada and I like tea. ",
    "To be, or not to be: that is the question. ", "hello there, how are you today? "};

// The census of docs/learning.md: layer 2 on held-out passages, random strings and reader-like
// phrases shown twice, and on natural held-out windows.
struct Census {
    CopyMeasure text, random, phrases;
    NaturalCopying natural;
    int natural_windows = 64;
};

Census take_census(const LayeredConfig& config, const std::vector<float>& parameters,
                   const std::vector<int>& held_out, const Vocabulary& vocabulary) {
    Census out;
    out.text = measure_copying(config, parameters, held_out_passages(config, held_out));
    out.random = measure_copying(config, parameters, random_passages(config.vocabulary, 400, 20, 40, 4242));
    std::vector<std::vector<int>> phrases;
    for (const std::string& phrase : kReaderPhrases) phrases.push_back(vocabulary.encode(phrase));
    out.phrases = measure_copying(config, parameters, phrases);
    out.natural =
        natural_copying(config, parameters, spaced_windows(held_out, out.natural_windows, config.context));
    return out;
}

double natural_share(const Census& census) {
    return static_cast<double>(census.natural.into_copy) / static_cast<double>(census.natural.rows);
}

void print_census(const Census& census) {
    const CopyMeasure& text = census.text;
    const CopyMeasure& random = census.random;
    std::printf("census (the saved float16 model, layer 2):\n");
    std::printf(
        "  held-out passages shown twice (%ld rows): %.1f%% peak on the copy; loss 2nd / 1st copy %.3f / "
        "%.3f\n",
        text.rows, 100 * text.layers.back().induction_share, text.second_copy_loss, text.first_copy_loss);
    std::printf(
        "  random strings of 20-40 characters shown twice (%ld rows): %.1f%% peak on the copy; loss 2nd / "
        "1st copy %.3f / %.3f\n",
        random.rows, 100 * random.layers.back().induction_share, random.second_copy_loss,
        random.first_copy_loss);
    std::printf(
        "  natural held-out windows (%ld rows with an earlier occurrence): %.1f%% point into an earlier "
        "copy\n",
        census.natural.rows, 100 * natural_share(census));
    std::printf(
        "  %zu reader-like phrases typed twice (%ld rows): %.1f%% peak on the copy; loss 2nd / 1st copy "
        "%.3f / %.3f\n",
        kReaderPhrases.size(), census.phrases.rows, 100 * census.phrases.layers.back().induction_share,
        census.phrases.second_copy_loss, census.phrases.first_copy_loss);
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

nlohmann::json census_json(const Census& census) {
    nlohmann::json phrases = copy_json(census.phrases);
    phrases["phrases"] = kReaderPhrases;
    return {{"heldOutPassages", copy_json(census.text)},
            {"randomStrings", copy_json(census.random)},
            {"readerPhrases", phrases},
            {"naturalText",
             {{"windows", census.natural_windows},
              {"rows", census.natural.rows},
              {"share", round_to(natural_share(census), 4)}}}};
}

}  // namespace

namespace {

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
    Recipe recipe;
    std::uint64_t seed = 0;
    bool formed = false;
    long crossed_03 = -1, crossed_05 = -1;  // first recorded step with layer 2's score >= 0.3, 0.5, or −1
    long formed_at = -1;                    // first recorded step at which the head counted as formed
    std::vector<CurvePoint> curve;
    std::vector<float> parameters;
    double ms_per_step = 0;  // CPU time, median over the stretches between records
    long steps = 0;
    Census census;  // of the parameters as saved
};

// What a record says about the head: its crossings, whether it counts as formed (layer 2's score
// and, only then, its share on held-out passages), and whether it has held for `hold` steps.
class FormationWatch {
  public:
    FormationWatch(const LayeredConfig& config, const std::vector<int>& held_out, int hold)
        : config_(config), passages_(held_out_passages(config, held_out)), hold_(hold) {}

    bool formed_and_held(const CurvePoint& point, const std::vector<float>& parameters, SeedResult& result) {
        const double score = point.measure.probe.layers.back().induction;
        if (score >= 0.3 && result.crossed_03 < 0) result.crossed_03 = point.step;
        if (score >= 0.5 && result.crossed_05 < 0) result.crossed_05 = point.step;
        result.formed =
            score >= kFormedScore &&
            measure_copying(config_, parameters, passages_).layers.back().induction_share >= kFormedShare;
        if (result.formed && result.formed_at < 0) result.formed_at = point.step;
        formed_since_ = result.formed ? (formed_since_ < 0 ? point.step : formed_since_) : -1;
        return formed_since_ >= 0 && point.step - formed_since_ >= hold_;
    }

  private:
    LayeredConfig config_;
    std::vector<std::vector<int>> passages_;
    int hold_;
    long formed_since_ = -1;
};

double median(std::vector<double> values) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

SeedResult grow_seed(const Options& options, const Recipe& recipe, const Vocabulary& vocabulary,
                     const std::vector<int>& tokens, std::uint64_t seed) {
    GrowthRun run(vocabulary, tokens, growth_options(recipe, seed));
    SeedResult result;
    result.recipe = recipe;
    result.seed = seed;
    FormationWatch watch(run.config(), run.held_out_tokens(), options.hold);
    std::printf("%s, seed %llu: %zu parameters\n", recipe_label(recipe).c_str(),
                static_cast<unsigned long long>(seed), run.parameters().size());
    std::printf("   step  train    held-out   L1 ind  L1 prev   L2 ind  L2 prev   copy1  copy2  ms/step\n");
    std::vector<double> stretches;
    double loss_sum = 0, seconds = 0;
    for (long step = 0;; ++step) {
        if (step % options.record_every == 0) {
            CurvePoint point{step, step ? loss_sum / options.record_every : std::nan(""), run.measure()};
            if (step) stretches.push_back(1000 * seconds / options.record_every);
            result.curve.push_back(point);
            if (step % options.print_every == 0) print_point(point, step ? stretches.back() : 0.0);
            loss_sum = seconds = 0;
            if (watch.formed_and_held(point, run.parameters(), result) || step >= options.steps) break;
        }
        const double began = thread_seconds();
        loss_sum += run.step();
        seconds += thread_seconds() - began;
    }
    result.parameters = run.parameters();
    result.steps = result.curve.back().step;
    result.ms_per_step = median(stretches);
    result.census = take_census(run.config(), as_saved(result.parameters), run.held_out_tokens(), vocabulary);
    return result;
}

std::string when(long step) {
    return step < 0 ? std::string("never") : "step " + std::to_string(step);
}

void print_seed(const SeedResult& r) {
    std::printf(
        "seed %llu: %s in %ld steps (layer-2 induction >= 0.3: %s, >= 0.5: %s; formed: %s; %.1f ms/step of "
        "CPU)\n",
        static_cast<unsigned long long>(r.seed), r.formed ? "a copying head formed" : "no copying head",
        r.steps, when(r.crossed_03).c_str(), when(r.crossed_05).c_str(), when(r.formed_at).c_str(),
        r.ms_per_step);
    print_census(r.census);
    std::printf("\n");
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

nlohmann::json recipe_json(const Recipe& r) {
    return {{"batch", r.batch},
            {"repeatedWindows", r.repeated},
            {"randomWindows", r.random},
            {"snippetLengths", {r.shortest, r.longest}},
            {"learningRate", r.learning_rate},
            {"warmupSteps", r.warmup},
            {"laterStep", r.later_step},
            {"laterRandomWindows", r.later_random}};
}

// One seed's line of the sweep's log (build/grow-sweep.jsonl), from which docs/learning.md's table
// is written.
nlohmann::json seed_json(const SeedResult& r) {
    return {{"recipe", recipe_label(r.recipe)},
            {"d", r.recipe.d},
            {"context", r.recipe.context},
            {"training", recipe_json(r.recipe)},
            {"seed", r.seed},
            {"formed", r.formed},
            {"steps", r.steps},
            {"crossed03", r.crossed_03},
            {"crossed05", r.crossed_05},
            {"formedAt", r.formed_at},
            {"msPerStep", round_to(r.ms_per_step, 2)},
            {"heldOutLoss", round_to(r.curve.back().measure.held_out_loss, 3)},
            {"probeSecondCopyLoss", round_to(r.curve.back().measure.probe.second_copy_loss, 3)},
            {"census", census_json(r.census)}};
}

nlohmann::json model_json(const LayeredConfig& config, const Vocabulary& vocabulary, const SeedResult& kept,
                          const std::vector<SeedResult>& tried) {
    nlohmann::json tensors = nlohmann::json::array();
    for (const TensorSlot& slot : parameter_layout(config).tensors)
        tensors.push_back({{"name", slot.name}, {"rows", slot.rows}, {"cols", slot.cols}});
    nlohmann::json seeds = nlohmann::json::array();
    for (const SeedResult& result : tried)
        seeds.push_back({{"seed", result.seed},
                         {"formed", result.formed},
                         {"steps", result.steps},
                         {"crossed03", result.crossed_03},
                         {"crossed05", result.crossed_05},
                         {"formedAt", result.formed_at}});
    nlohmann::json training = recipe_json(kept.recipe);
    training.update({{"seed", kept.seed},
                     {"steps", kept.steps},
                     {"msPerStep", round_to(kept.ms_per_step, 1)},
                     {"crossed03", kept.crossed_03},
                     {"crossed05", kept.crossed_05},
                     {"formedAt", kept.formed_at},
                     {"productPath", "reference"},
                     {"seedsTried", seeds}});
    return {{"model", "two layers of one head, pre-LayerNorm, learned positions (cpp/learning/layered/)"},
            {"config",
             {{"vocabulary", config.vocabulary},
              {"context", config.context},
              {"d", config.d},
              {"layers", config.layers},
              {"layerNorm", config.layer_norm},
              {"scale", "sqrt"}}},
            {"vocabulary", vocabulary.characters()},
            {"training", training},
            {"format", "every tensor of `tensors` in order, row-major, float16 little-endian, base64"},
            {"tensors", tensors},
            {"float16", float16_base64(kept.parameters)},
            {"curve", curve_json(kept.curve)},
            {"census", census_json(kept.census)}};
}

}  // namespace

namespace {

// Milliseconds per step of seed 0's run on one path (wall clock and this thread's CPU time), after
// 5 untimed steps.
std::pair<double, double> time_path(const Options& options, const Vocabulary& vocabulary,
                                    const std::vector<int>& tokens, LayeredPath path) {
    GrowthOptions growth = growth_options(options.recipes.front(), 0);
    growth.path = path;
    GrowthRun run(vocabulary, tokens, growth);
    for (int i = 0; i < 5; ++i) run.step();
    const auto began = Clock::now();
    const double cpu_began = thread_seconds();
    for (int i = 0; i < options.time_steps; ++i) run.step();
    return {1000 * std::chrono::duration<double>(Clock::now() - began).count() / options.time_steps,
            1000 * (thread_seconds() - cpu_began) / options.time_steps};
}

// Both paths, alternately, `time_rounds` times; as text, or as one JSON line for bench/grow-speed.mjs.
int time_only(const Options& options, const Vocabulary& vocabulary, const std::vector<int>& tokens) {
    nlohmann::json rounds = {{"reference", nlohmann::json::array()}, {"fast", nlohmann::json::array()}};
    for (int round = 0; round < options.time_rounds; ++round)
        for (const auto& [name, path] : {std::make_pair("reference", LayeredPath::reference),
                                         std::make_pair("fast", LayeredPath::fast)}) {
            const auto [wall, cpu] = time_path(options, vocabulary, tokens, path);
            rounds[name].push_back({{"wallMsPerStep", wall}, {"cpuMsPerStep", cpu}});
            if (!options.json)
                std::printf("%s, %s path: %d steps after 5 warm-up: %.2f ms/step wall, %.2f ms/step of CPU\n",
                            recipe_label(options.recipes.front()).c_str(), name, options.time_steps, wall,
                            cpu);
        }
    if (options.json)
        std::printf("%s\n", nlohmann::json({{"recipe", recipe_label(options.recipes.front())},
                                            {"steps", options.time_steps},
                                            {"rounds", rounds}})
                                .dump()
                                .c_str());
    return 0;
}

// The first options.loss_steps training losses of the first seed, each step taken in shares as the
// page's trainer takes it (growth.hpp), as one JSON line: what web/test/growth.test.mjs holds the
// wasm run to.
int losses_only(const Options& options, const Vocabulary& vocabulary, const std::vector<int>& tokens) {
    const auto seed = static_cast<std::uint64_t>(options.seeds.front());
    GrowthRun run(vocabulary, tokens, growth_options(options.recipes.front(), seed));
    nlohmann::json losses = nlohmann::json::array();
    for (int step = 0; step < options.loss_steps; ++step) losses.push_back(run.step_in_shares());
    std::printf("%s\n",
                nlohmann::json(
                    {{"recipe", recipe_label(options.recipes.front())}, {"seed", seed}, {"losses", losses}})
                    .dump()
                    .c_str());
    return 0;
}

// Every seed of every recipe; each seed's result is appended to the log as one JSON line.
int sweep(const Options& options, const Vocabulary& vocabulary, const std::vector<int>& tokens) {
    std::ofstream log(options.sweep_log, std::ios::app);
    if (!log) throw std::runtime_error("cannot write " + options.sweep_log);
    for (const Recipe& recipe : options.recipes) {
        int formed = 0;
        for (int seed : options.seeds) {
            const SeedResult result =
                grow_seed(options, recipe, vocabulary, tokens, static_cast<std::uint64_t>(seed));
            print_seed(result);
            log << seed_json(result).dump() << "\n" << std::flush;
            formed += result.formed ? 1 : 0;
        }
        std::printf("%s: formed on %d of %zu seeds\n\n", recipe_label(recipe).c_str(), formed,
                    options.seeds.size());
    }
    std::printf("appended to %s\n", options.sweep_log.c_str());
    return 0;
}

// A recipe's label without the items it shares with the sweep's starting point (Recipe{}).
std::string changes_of(const std::string& label) {
    std::stringstream starting(recipe_label(Recipe{})), items(label);
    std::vector<std::string> defaults;
    for (std::string item; std::getline(starting, item, ',');) defaults.push_back(item);
    std::string out;
    for (std::string item; std::getline(items, item, ',');)
        if (std::find(defaults.begin(), defaults.end(), item) == defaults.end())
            out += (out.empty() ? "" : ", ") + item;
    return out.empty() ? "the starting point" : out;
}

std::string step_text(long step) {
    return step < 0 ? std::string("–") : std::to_string(step);
}

std::string percent_text(double share) {
    char text[16];
    std::snprintf(text, sizeof text, "%.1f%%", 100 * share);
    return text;
}

// One seed's row: what docs/learning.md's table shows.
std::string table_row(const nlohmann::json& line) {
    const nlohmann::json& census = line.at("census");
    char losses[64];
    std::snprintf(losses, sizeof losses, "%.2f | %.3f | %.1f", line.at("probeSecondCopyLoss").get<double>(),
                  line.at("heldOutLoss").get<double>(), line.at("msPerStep").get<double>());
    return "| " + changes_of(line.at("recipe")) + " | " + std::to_string(line.at("seed").get<int>()) + " | " +
           (line.at("formed").get<bool>() ? "yes" : "no") + " | " + step_text(line.at("crossed03")) + " | " +
           step_text(line.at("formedAt")) + " | " + std::to_string(line.at("steps").get<long>()) + " | " +
           percent_text(census.at("heldOutPassages").at("layers").back().at("inductionShare")) + " | " +
           percent_text(census.at("randomStrings").at("layers").back().at("inductionShare")) + " | " +
           percent_text(census.at("naturalText").at("share")) + " | " + losses + " |";
}

// One recipe's summary row: seeds formed, the range of steps at which they formed, median ms/step.
std::string summary_row(const std::vector<nlohmann::json>& seeds) {
    long formed = 0, first = -1, last = -1;
    std::vector<double> ms;
    for (const nlohmann::json& seed : seeds) {
        ms.push_back(seed.at("msPerStep").get<double>());
        if (!seed.at("formed").get<bool>()) continue;
        const long at = seed.at("formedAt").get<long>();
        ++formed;
        first = first < 0 ? at : std::min(first, at);
        last = std::max(last, at);
    }
    char numbers[96];
    std::snprintf(numbers, sizeof numbers, "%ld of %zu | %s | %.1f", formed, seeds.size(),
                  formed == 0
                      ? "–"
                      : (first == last ? step_text(first) : step_text(first) + "–" + step_text(last)).c_str(),
                  median(ms));
    return "| " + changes_of(seeds.front().at("recipe")) + " | " + numbers + " |";
}

// The log's seeds grouped by recipe, in the order the recipes first appear, each by seed.
std::vector<std::vector<nlohmann::json>> logged_recipes(const std::string& path) {
    std::ifstream log(path);
    if (!log) throw std::runtime_error("cannot read " + path + "; run --sweep first");
    std::vector<std::vector<nlohmann::json>> recipes;
    for (std::string text; std::getline(log, text);) {
        if (text.empty()) continue;
        const nlohmann::json line = nlohmann::json::parse(text);
        auto group = std::find_if(recipes.begin(), recipes.end(), [&](const auto& seeds) {
            return seeds.front().at("recipe") == line.at("recipe");
        });
        if (group == recipes.end()) group = recipes.insert(recipes.end(), std::vector<nlohmann::json>{});
        group->push_back(line);
    }
    for (auto& seeds : recipes)
        std::sort(seeds.begin(), seeds.end(),
                  [](const auto& a, const auto& b) { return a.at("seed") < b.at("seed"); });
    return recipes;
}

int print_table(const Options& options) {
    const auto recipes = logged_recipes(options.sweep_log);
    std::printf(
        "| recipe (what differs from the starting point) | seeds formed | formed at (steps) | ms/step |\n");
    std::printf("| --- | --- | --- | --- |\n");
    for (const auto& seeds : recipes) std::printf("%s\n", summary_row(seeds).c_str());
    std::printf(
        "\n| recipe | seed | formed | layer-2 score ≥ 0.3 at | formed at | steps run | held-out passages "
        "on the copy | random strings | natural text | 2nd-copy loss | held-out loss | ms/step |\n");
    std::printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
    for (const auto& seeds : recipes)
        for (const nlohmann::json& seed : seeds) std::printf("%s\n", table_row(seed).c_str());
    return 0;
}

// The model's three likeliest next characters at every row of the second copy of a phrase typed
// twice, with their probabilities: what the first screen shows a reader.
void print_guesses(const LayeredConfig& config, const std::vector<float>& parameters,
                   const Vocabulary& vocabulary, const std::string& phrase) {
    std::vector<int> ids = vocabulary.encode(phrase + phrase);
    const int T = static_cast<int>(ids.size()), P = T / 2;
    Batch window{1, T, ids};
    window.tokens.push_back(0);  // a target is never read here; it only completes the window
    LayeredActivations acts;
    layered_forward(config, parameters, window, acts);
    std::printf("next-character guesses on the second copy of \"%s\" (typed twice):\n", phrase.c_str());
    for (int i = P; i + 1 < T; ++i) {
        std::printf("  after \"%s\": ", phrase.substr(0, static_cast<std::size_t>(i - P + 1)).c_str());
        for (const NextGuess& guess : likeliest(acts.probabilities.row(i), vocabulary, 3))
            std::printf("'%s' %.2f  ", guess.character.c_str(), guess.probability);
        std::printf(
            "(next: '%s')\n",
            vocabulary.characters()[static_cast<std::size_t>(ids[static_cast<std::size_t>(i + 1)])].c_str());
    }
}

int grow(const Options& options) {
    if (options.table) return print_table(options);
    const std::string text = read_text_file(options.corpus);
    const Vocabulary vocabulary(text);
    const std::vector<int> tokens = vocabulary.encode(text);
    if (options.time_steps > 0) return time_only(options, vocabulary, tokens);
    if (options.loss_steps > 0) return losses_only(options, vocabulary, tokens);
    if (options.sweep) return sweep(options, vocabulary, tokens);
    const Recipe& recipe = options.recipes.front();
    std::vector<SeedResult> tried;
    for (int seed : options.seeds) {
        tried.push_back(grow_seed(options, recipe, vocabulary, tokens, static_cast<std::uint64_t>(seed)));
        print_seed(tried.back());
        if (tried.back().formed) break;
    }
    if (!tried.back().formed) {
        std::printf("no seed of those tried grew a copying head; nothing saved\n");
        return 1;
    }
    const SeedResult& kept = tried.back();
    const LayeredConfig config = GrowthRun(vocabulary, tokens, growth_options(recipe, kept.seed)).config();
    std::ofstream out(options.output);
    if (!out) throw std::runtime_error("cannot write " + options.output);
    out << model_json(config, vocabulary, kept, tried).dump() << "\n";
    std::printf("wrote %s\n", options.output.c_str());
    print_guesses(config, as_saved(kept.parameters), vocabulary, kReaderPhrases.front());
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
