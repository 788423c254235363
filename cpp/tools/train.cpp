// attention-train: does the √d help a head learn? Trains the one-head character model
// (cpp/learning/model.hpp) on Shakespeare at several widths, four ways from the same seeds for the
// same steps: without its head (h = x, the baseline), and with the scores scaled by 1/√d, by 1/d
// and not at all. Prints the mean ± sd over the seeds of each, and what changed.
//
// Two protocols. The corpus protocol (the default) trains on the whole corpus: first a small
// sweep picks the learning rate per width (the one with the lowest training loss over the last
// steps, averaged over the four ways, on the first seed); the table's runs use it. The page
// protocol (--protocol page) is section 6's: the same runs on the text the page ships (the start
// of the corpus, page_text) with its own vocabulary, measured on the page's 32 held-out windows,
// at the rates the corpus protocol chose (read from web/assets/learning-results.json unless both
// protocols run). For every run: held-out loss before and after, the gradient norms of Wq and Wk
// at the first step, the attention's mean entropy and peak weight. Everything goes under
// build/learning/ (the CSVs, the results, the 1/√d head at the page's width); --save-head and
// --save-results also write the page's copies in web/assets/. It is a command-line report:
// everything it measures comes from the core.
#include "learning/training.hpp"
#include "trained/float16.hpp"
#include "trained/trained_head.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#ifndef ATTENTION_DATA_DIR
#define ATTENTION_DATA_DIR "data"
#endif

namespace {

using namespace attention;

// Section 6's protocol (web/src/figures/training/model.js: DEFAULT_SETTINGS.steps, FIXED.batch,
// FIXED.context; the page trainer's 32 held-out windows, TrainingOptions' default; its text,
// page_text); learning-results.test.mjs checks that the saved results and the page agree, and
// training-protocol.test.mjs that the page's trainer gives the saved numbers.
constexpr int kPageSteps = 300;
constexpr int kPageBatch = 16;
constexpr int kPageContext = 64;
constexpr int kPageHeldOutWindows = 32;
constexpr std::size_t kPageCharacters = 60000;
constexpr int kTailSteps = 50;  // training batches the sweep averages, the run's last ones
const char* const kSavedResults = "web/assets/learning-results.json";

// The text section 6 trains on: the corpus up to the last blank line (a speaker's turn) that
// starts at or before character kPageCharacters, as scripts/build-web.mjs cuts it (the corpus is
// ASCII, so its byte offsets are the page's character offsets).
std::string page_text(const std::string& corpus) {
    const std::size_t cut = corpus.rfind("\n\n", kPageCharacters);
    if (cut == std::string::npos)
        throw std::invalid_argument("the corpus has no blank line in its first " +
                                    std::to_string(kPageCharacters) +
                                    " characters to cut the page's text at");
    return corpus.substr(0, cut + 1);
}

// The four ways the model is trained: the names are learning-results.json's (the last three are
// web/src/lib/scale.js's modes).
struct Way {
    std::string name;
    std::string label;
    bool head;
    Scale scale;
};

const std::vector<Way>& all_ways() {
    static const std::vector<Way> ways = {{"nohead", "no head", false, Scale::inverse_sqrt_d()},
                                          {"sqrt", "1/sqrt(d)", true, Scale::inverse_sqrt_d()},
                                          {"d", "1/d", true, Scale::inverse_d()},
                                          {"none", "none", true, Scale::none()}};
    return ways;
}

const Way& way_named(const std::string& name) {
    for (const Way& way : all_ways())
        if (way.name == name) return way;
    throw std::invalid_argument("configuration \"" + name + "\" is not one of nohead, sqrt, d, none");
}

struct Options {
    std::string corpus = std::string(ATTENTION_DATA_DIR) + "/tinyshakespeare.txt";
    std::string out = "build/learning";
    bool save_head = false;     // also web/assets/trained-head.json
    bool save_results = false;  // also web/assets/learning-results.json
    std::vector<int> widths = {16, 64, 256};
    std::vector<std::uint64_t> seeds = {0, 1, 2};
    std::vector<std::string> ways = {"nohead", "sqrt", "d", "none"};
    std::vector<std::string> protocols = {"corpus"};  // corpus, page or both
    std::vector<double> rates = {0.03, 0.01, 0.003};  // the sweep's candidates
    double learning_rate = 0;                         // > 0: this rate at every width, no sweep
    int saved_width = 64;
    int steps = kPageSteps;
    int batch = kPageBatch;
    int context = kPageContext;
    int held_out_windows = kWholeHeldOut;
    OptimizerKind optimizer = OptimizerKind::adam;
    int threads = 0;  // 0: one per core
};

template <typename T, typename Parse>
std::vector<T> parse_list(const std::string& text, Parse parse) {
    std::vector<T> items;
    std::stringstream list(text);
    for (std::string item; std::getline(list, item, ',');) items.push_back(parse(item));
    if (items.empty()) throw std::invalid_argument("an empty list: " + text);
    return items;
}

const char* kUsage =
    "usage: attention-train [--help] [--steps N] [--batch B] [--context T] [--widths 16,64,256] [--seeds "
    "0,1,2]\n"
    "                       [--configs nohead,sqrt,d,none] [--rates 0.03,0.01,0.003 | --lr RATE]\n"
    "                       [--optimizer adam|sgd] [--held-out-windows N] [--threads N] [--corpus PATH]\n"
    "                       [--protocol corpus|page|corpus,page] [--out DIR] [--saved-width D] "
    "[--save-head]\n"
    "                       [--save-results]\n";

std::string protocol_named(const std::string& name) {
    if (name != "corpus" && name != "page")
        throw std::invalid_argument("protocol \"" + name + "\" is not one of corpus, page");
    return name;
}

bool runs_protocol(const Options& options, const std::string& name) {
    return std::find(options.protocols.begin(), options.protocols.end(), name) != options.protocols.end();
}

void set_option(Options& options, const std::string& flag, const std::string& value) {
    const auto to_int = [](const std::string& s) { return std::stoi(s); };
    if (flag == "--steps")
        options.steps = std::stoi(value);
    else if (flag == "--batch")
        options.batch = std::stoi(value);
    else if (flag == "--context")
        options.context = std::stoi(value);
    else if (flag == "--widths")
        options.widths = parse_list<int>(value, to_int);
    else if (flag == "--seeds")
        options.seeds = parse_list<std::uint64_t>(value, [](const std::string& s) { return std::stoull(s); });
    else if (flag == "--configs")
        options.ways = parse_list<std::string>(value, [](const std::string& s) { return way_named(s).name; });
    else if (flag == "--rates")
        options.rates = parse_list<double>(value, [](const std::string& s) { return std::stod(s); });
    else if (flag == "--lr")
        options.learning_rate = std::stod(value) > 0 ? std::stod(value) : -1;
    else if (flag == "--optimizer")
        options.optimizer = parse_optimizer(value);
    else if (flag == "--held-out-windows")
        options.held_out_windows = std::stoi(value);
    else if (flag == "--threads")
        options.threads = std::stoi(value);
    else if (flag == "--corpus")
        options.corpus = value;
    else if (flag == "--protocol")
        options.protocols = parse_list<std::string>(value, protocol_named);
    else if (flag == "--out")
        options.out = value;
    else if (flag == "--saved-width")
        options.saved_width = std::stoi(value);
    else
        throw std::invalid_argument(std::string(kUsage) + "unknown argument: " + flag);
}

bool is_default_protocol(const Options& o) {
    return o.steps == kPageSteps && o.batch == kPageBatch && o.context == kPageContext &&
           o.held_out_windows == kWholeHeldOut && o.widths == std::vector<int>{16, 64, 256} &&
           o.ways.size() == all_ways().size() && o.seeds.size() >= 2 && o.optimizer == OptimizerKind::adam &&
           o.learning_rate == 0;
}

Options parse_arguments(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (flag == "--save-head")
            options.save_head = true;
        else if (flag == "--save-results")
            options.save_results = true;
        else if (i + 1 >= argc)
            throw std::invalid_argument(std::string(kUsage) + "missing value after " + flag);
        else
            try {
                set_option(options, flag, argv[++i]);
            } catch (const std::logic_error& error) {  // std::stoi's invalid_argument and out_of_range
                const std::string message = error.what();
                if (message.rfind("sto", 0) != 0) throw;  // already a message for a person
                throw std::invalid_argument(flag + " takes a number (or a list of numbers), not \"" +
                                            argv[i] + "\"");
            }
    }
    if (!(options.learning_rate >= 0)) throw std::invalid_argument("--lr must be a number greater than 0");
    if (options.steps < 1) throw std::invalid_argument("--steps must be at least 1");
    if (options.held_out_windows < 1) throw std::invalid_argument("--held-out-windows must be at least 1");
    if (options.save_head && !runs_protocol(options, "corpus"))
        throw std::invalid_argument("--save-head saves a head of the corpus protocol: add --protocol corpus");
    if (options.save_results && !is_default_protocol(options))
        throw std::invalid_argument(
            "--save-results records the documented protocols: run it with the default steps, batch, context, "
            "widths, configurations, held-out set and learning-rate sweep, and at least two seeds");
    return options;
}

// ---- Runs -----------------------------------------------------------------------------------

struct Job {
    int d = 0;
    Way way;
    std::uint64_t seed = 0;
    double learning_rate = 0;
    bool keep = false;  // keep the trained run (the head saved for the page)
};

struct Run {
    Job job;
    Evaluation start;  // before the first step, on the first 32 held-out windows
    Evaluation end;    // after the last step, on the held-out set (the whole tail by default)
    StepReport first_step;
    double training_tail_loss = 0;  // mean training-batch loss of the last kTailSteps steps
    std::vector<double> losses;     // the training-batch loss of every step
    double seconds = 0;
    int held_out_windows = 0;
    std::shared_ptr<TrainingRun> trained;  // only for a job with keep
};

struct Corpus {
    Vocabulary vocabulary;
    std::vector<int> tokens;
};

// A text as the runs read it: its own vocabulary (the page's text has fewer characters than the
// whole corpus) and its token ids.
Corpus encoded(const std::string& text) {
    Corpus corpus{Vocabulary(text), {}};
    corpus.tokens = corpus.vocabulary.encode(text);
    return corpus;
}

// The options of the page protocol's runs: the page's held-out windows, whatever --held-out-windows says.
Options page_options(Options options) {
    options.held_out_windows = kPageHeldOutWindows;
    return options;
}

TrainingOptions settings_for(const Options& options, const Job& job) {
    TrainingOptions settings;
    settings.context = options.context;
    settings.d = job.d;
    settings.scale = job.way.scale;
    settings.head = job.way.head;
    settings.optimizer.kind = options.optimizer;
    settings.optimizer.learning_rate = job.learning_rate;
    settings.batch = options.batch;
    settings.seed = job.seed;
    settings.evaluation_windows = options.held_out_windows;
    return settings;
}

Run run_job(const Job& job, const Corpus& corpus, const Options& options) {
    auto training =
        std::make_shared<TrainingRun>(corpus.vocabulary, corpus.tokens, settings_for(options, job));
    Run run;
    run.job = job;
    run.held_out_windows = training->held_out().batch;
    run.start = training->evaluate(kPageHeldOutWindows);  // the whole tail would add a sixth to a run
    const auto began = std::chrono::steady_clock::now();
    const int tail = std::min(kTailSteps, options.steps);
    for (int s = 0; s < options.steps; ++s) {
        const StepReport report = training->step();
        if (s == 0) run.first_step = report;
        run.losses.push_back(report.loss);
        if (s >= options.steps - tail) run.training_tail_loss += report.loss / tail;
    }
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    run.end = training->evaluate();
    if (job.keep) run.trained = training;
    return run;
}

// Every job, on `threads` threads (independent runs: each gives the same numbers on any thread).
std::vector<Run> run_all(const std::vector<Job>& jobs, const Corpus& corpus, const Options& options,
                         const char* phase) {
    std::vector<Run> runs(jobs.size());
    std::atomic<std::size_t> next{0}, done{0};
    std::mutex lock;
    std::exception_ptr failure;
    const auto work = [&] {
        for (std::size_t i = next++; i < jobs.size(); i = next++) {
            try {
                runs[i] = run_job(jobs[i], corpus, options);
            } catch (...) {
                const std::lock_guard<std::mutex> guard(lock);
                failure = std::current_exception();
                return;
            }
            const std::lock_guard<std::mutex> guard(lock);
            std::fprintf(stderr, "\r  %s: %zu of %zu runs", phase, ++done, jobs.size());
        }
    };
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t count = std::min<std::size_t>(
        jobs.size(), options.threads > 0 ? static_cast<std::size_t>(options.threads) : cores);
    std::vector<std::thread> threads;
    for (std::size_t t = 1; t < count; ++t) threads.emplace_back(work);
    work();
    for (std::thread& thread : threads) thread.join();
    std::fprintf(stderr, "\n");
    if (failure) std::rethrow_exception(failure);
    return runs;
}

}  // namespace

namespace {

// ---- The learning rate per width --------------------------------------------------------------

struct Plan {
    std::vector<Run> sweep;                     // empty with --lr
    std::vector<std::pair<int, double>> rates;  // the chosen rate per width
};

bool kept_for_page(const Options& options, int d, const Way& way) {
    return d == options.saved_width && way.name == "sqrt";
}

// Mean over the four ways of the training loss of the last steps, for one width and rate.
double sweep_score(const std::vector<Run>& sweep, int d, double rate) {
    double total = 0;
    int count = 0;
    for (const Run& run : sweep)
        if (run.job.d == d && run.job.learning_rate == rate) {
            total += run.training_tail_loss;
            ++count;
        }
    return total / count;
}

Plan plan_rates(const Options& options, const Corpus& corpus) {
    Plan plan;
    if (options.learning_rate > 0) {
        for (int d : options.widths) plan.rates.emplace_back(d, options.learning_rate);
        return plan;
    }
    std::vector<Job> jobs;
    for (int d : options.widths)
        for (double rate : options.rates)
            for (const std::string& name : options.ways)
                jobs.push_back({d, way_named(name), options.seeds.front(), rate,
                                kept_for_page(options, d, way_named(name))});
    plan.sweep = run_all(jobs, corpus, options, "learning-rate sweep");
    for (int d : options.widths) {
        double best = options.rates.front();
        for (double rate : options.rates)
            if (sweep_score(plan.sweep, d, rate) < sweep_score(plan.sweep, d, best)) best = rate;
        plan.rates.emplace_back(d, best);
    }
    return plan;
}

double rate_for(const Plan& plan, int d) {
    for (const auto& [width, rate] : plan.rates)
        if (width == d) return rate;
    throw std::logic_error("no learning rate for d = " + std::to_string(d));
}

// The table's runs in (width, way, seed) order: the sweep's runs at the chosen rate are reused
// for the first seed, the rest are trained now.
std::vector<Run> table_runs(const Options& options, const Corpus& corpus, Plan& plan) {
    std::vector<Job> jobs;
    std::vector<Run> table;
    for (int d : options.widths)
        for (const std::string& name : options.ways)
            for (std::uint64_t seed : options.seeds) {
                const Way& way = way_named(name);
                const double rate = rate_for(plan, d);
                const auto reused = std::find_if(plan.sweep.begin(), plan.sweep.end(), [&](const Run& r) {
                    return r.job.d == d && r.job.way.name == name && r.job.seed == seed &&
                           r.job.learning_rate == rate;
                });
                if (reused != plan.sweep.end()) {
                    table.push_back(*reused);
                    continue;
                }
                jobs.push_back(
                    {d, way, seed, rate, kept_for_page(options, d, way) && seed == options.seeds.front()});
                table.emplace_back();
                table.back().job = jobs.back();
            }
    std::vector<Run> trained = run_all(jobs, corpus, options, "table");
    std::size_t next = 0;
    for (Run& run : table)
        if (!run.held_out_windows) run = std::move(trained[next++]);
    for (Run& run : plan.sweep)
        if (run.job.learning_rate != rate_for(plan, run.job.d)) run.trained.reset();
    return table;
}

// Without the corpus protocol's sweep, the page protocol trains at the rates it chose, as saved in
// web/assets/learning-results.json (the page reads them there too), or at --lr.
Plan saved_rates(const Options& options) {
    Plan plan;
    if (options.learning_rate > 0) {
        for (int d : options.widths) plan.rates.emplace_back(d, options.learning_rate);
        return plan;
    }
    std::ifstream file(kSavedResults);
    const nlohmann::json saved = nlohmann::json::parse(file, nullptr, false);
    for (int d : options.widths) {
        const nlohmann::json::json_pointer where("/learningRates/" + std::to_string(d));
        const nlohmann::json rate =
            saved.is_object() ? saved.value(where, nlohmann::json()) : nlohmann::json();
        if (!rate.is_number())
            throw std::invalid_argument(
                std::string(kSavedResults) + " has no learning rate for d = " + std::to_string(d) +
                ": run the corpus protocol too (--protocol corpus,page), or pass --lr");
        plan.rates.emplace_back(d, rate.get<double>());
    }
    return plan;
}

// Section 6's runs: every width, way and seed on the page's text, at the plan's rates.
std::vector<Run> page_runs(const Options& options, const Corpus& page, const Plan& plan) {
    std::vector<Job> jobs;
    for (int d : options.widths)
        for (const std::string& name : options.ways)
            for (std::uint64_t seed : options.seeds)
                jobs.push_back({d, way_named(name), seed, rate_for(plan, d), false});
    return run_all(jobs, page, page_options(options), "section 6's protocol");
}

// ---- Mean ± sd over the seeds -------------------------------------------------------------------

struct Spread {
    double mean = 0, sd = 0;  // sd: the sample standard deviation (n − 1), 0 for one seed
};

Spread spread_of(const std::vector<double>& values) {
    Spread s;
    s.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
    if (values.size() < 2) return s;
    double squares = 0;
    for (double v : values) squares += (v - s.mean) * (v - s.mean);
    s.sd = std::sqrt(squares / static_cast<double>(values.size() - 1));
    return s;
}

// One number of each run of a (width, way) cell, in seed order.
template <typename Read>
std::vector<double> column(const std::vector<Run>& table, int d, const std::string& way, Read read) {
    std::vector<double> values;
    for (const Run& run : table)
        if (run.job.d == d && run.job.way.name == way) values.push_back(read(run));
    return values;
}

std::string plus_minus(const Spread& s, const char* format) {
    char text[64];
    std::snprintf(text, sizeof text, format, s.mean, s.sd);
    return text;
}

}  // namespace

namespace {

// ---- What it prints -----------------------------------------------------------------------------

void print_sweep(const Options& options, const Plan& plan) {
    if (plan.sweep.empty()) return;
    std::printf(
        "learning rate per width: mean training loss over the last %d steps, seed %llu (chosen: lowest "
        "mean)\n%5s  %-7s",
        std::min(kTailSteps, options.steps), static_cast<unsigned long long>(options.seeds.front()), "d",
        "rate");
    for (const std::string& name : options.ways) std::printf("  %9s", way_named(name).label.c_str());
    std::printf("  %9s\n", "mean");
    for (int d : options.widths)
        for (double rate : options.rates) {
            std::printf("%5d  %-7g", d, rate);
            for (const std::string& name : options.ways)
                for (const Run& run : plan.sweep)
                    if (run.job.d == d && run.job.learning_rate == rate && run.job.way.name == name)
                        std::printf("  %9.3f", run.training_tail_loss);
            std::printf("  %9.3f%s\n", sweep_score(plan.sweep, d, rate),
                        rate == rate_for(plan, d) ? "  chosen" : "");
        }
    std::printf("\n");
}

// title: which protocol, on which text.
void print_table_header(const Options& options, const std::vector<Run>& table, const char* title) {
    const int windows = table.front().held_out_windows;
    std::printf("%s\nheld-out set: %s, %d windows of %d characters = %d predictions\n", title,
                options.held_out_windows == kWholeHeldOut
                    ? "the whole held-out tail (the text's last 10%)"
                    : "the first windows of the held-out tail (the text's last 10%)",
                windows, options.context, windows * options.context);
    std::printf("seeds");
    for (std::uint64_t seed : options.seeds) std::printf(" %llu", static_cast<unsigned long long>(seed));
    std::printf(
        "; mean ± sd (sample standard deviation) over the seeds; loss in nats; start: before the first\n"
        "step, on the first %d held-out windows\n\n",
        kPageHeldOutWindows);
    std::printf("%5s  %-9s  %-6s  %-6s  %-15s  %-17s  %-13s  %-13s\n", "d", "config", "lr", "start",
                "loss end", "|dWq| step 1", "entropy end", "peak end");
}

void print_table(const Options& options, const std::vector<Run>& table, const char* title) {
    print_table_header(options, table, title);
    for (int d : options.widths)
        for (const std::string& name : options.ways) {
            const auto cell = [&](auto read) { return spread_of(column(table, d, name, read)); };
            const Way& way = way_named(name);
            std::printf("%5d  %-9s  %-6g  %6.3f  %-15s", d, way.label.c_str(),
                        column(table, d, name, [](const Run& r) { return r.job.learning_rate; }).front(),
                        cell([](const Run& r) { return r.start.loss; }).mean,
                        plus_minus(cell([](const Run& r) { return r.end.loss; }), "%.3f ± %.3f").c_str());
            if (!way.head) {
                std::printf("  %-17s  %-13s  %-13s\n", "-", "-", "-");
                continue;
            }
            std::printf(
                "  %-17s  %-13s  %-13s\n",
                plus_minus(cell([](const Run& r) { return r.first_step.query_gradient_norm; }), "%.3f ± %.3f")
                    .c_str(),
                plus_minus(cell([](const Run& r) { return r.end.attention.mean_entropy_nats; }),
                           "%.2f ± %.2f")
                    .c_str(),
                plus_minus(cell([](const Run& r) { return r.end.attention.mean_peak_weight; }), "%.2f ± %.2f")
                    .c_str());
        }
    double seconds = 0;
    for (const Run& run : table) seconds += run.seconds;
    std::printf(
        "\n%zu runs in the table; their training steps took %.0f s of wall-clock time, summed over the "
        "runs\n",
        table.size(), seconds);
}

}  // namespace

namespace {

// ---- The head saved for the page ----------------------------------------------------------------

// Where the head looks: its mean weight on the key `offset` characters back (0: the query's own
// character), for offsets 0 … kOffsets − 2, and on everything further back in the last entry,
// over the held-out windows' rows that have at least kOffsets − 1 characters behind them.
constexpr int kOffsets = 5;
std::vector<double> weight_by_offset(const TrainingRun& run) {
    const Batch& windows = run.held_out();
    std::vector<double> mean(kOffsets, 0.0);
    long rows = 0;
    for (int b = 0; b < windows.batch; ++b) {
        const auto first = windows.tokens.begin() + static_cast<std::ptrdiff_t>(b) * (windows.context + 1);
        const Matrix weights = attention_weights_for(run.config(), run.parameters(),
                                                     std::vector<int>(first, first + windows.context));
        for (int i = kOffsets - 1; i < weights.rows; ++i, ++rows)
            for (int j = 0; j <= i; ++j)
                mean[static_cast<std::size_t>(std::min(i - j, kOffsets - 1))] += weights.at(i, j);
    }
    for (double& m : mean) m /= static_cast<double>(rows);
    return mean;
}

// The parameters as the page reads them back: every weight rounded to float16.
Parameters as_saved(Parameters parameters) {
    for (Matrix* m : parameters.all())
        for (float& value : m->values) value = from_float16(to_float16(value));
    return parameters;
}

// Where each row of the saved head puts its largest weight (cpp/trained/trained_head.hpp), over the
// first kCensusWindows windows of the held-out tail, on the float16 weights the page applies.
constexpr int kCensusWindows = 100;
PeakCensus census_of(const TrainingRun& run) {
    Batch windows = run.held_out();
    windows.batch = std::min(windows.batch, kCensusWindows);
    windows.tokens.resize(static_cast<std::size_t>(windows.batch) *
                          static_cast<std::size_t>(windows.context + 1));
    return peak_census(run.config(), as_saved(run.parameters()), run.vocabulary(), windows);
}

double share(const PeakCensus& census, PeakTarget target) {
    return static_cast<double>(census.counts[static_cast<std::size_t>(target)]) /
           static_cast<double>(census.rows);
}

void print_saved_head(const std::vector<double>& mean, int d, const PeakCensus& census) {
    std::printf(
        "\nwhere the trained 1/sqrt(d) head at d = %d, first seed, looks (mean weight, held-out rows):\n"
        "  its own character %.3f, 1 back %.3f, 2 back %.3f, 3 back %.3f, further back %.3f\n",
        d, mean[0], mean[1], mean[2], mean[3], mean[4]);
    std::printf(
        "where its rows peak, float16 weights as saved (%ld held-out rows, row 0 of each window left "
        "out):\n ",
        census.rows);
    for (int t = 1; t < kPeakTargetKinds; ++t)
        std::printf(" %s %.1f%%", peak_target_name(static_cast<PeakTarget>(t)),
                    100 * share(census, static_cast<PeakTarget>(t)));
    std::printf("\n  mean weight on the previous character %.3f\n", census.mean_previous_weight);
}

nlohmann::json census_json(const PeakCensus& census) {
    nlohmann::json counts;
    for (int t = 1; t < kPeakTargetKinds; ++t)
        counts[peak_target_name(static_cast<PeakTarget>(t))] = census.counts[static_cast<std::size_t>(t)];
    return {{"windows", kCensusWindows},
            {"text", "the held-out tail of the corpus (its last 10%), windows laid end to end"},
            {"weights", "float16, as saved here"},
            {"rows", census.rows},
            {"counts", counts},
            {"meanPreviousWeight", census.mean_previous_weight}};
}

nlohmann::json head_json(const Run& run, const Options& options, const std::vector<double>& offsets,
                         const PeakCensus& census) {
    const TrainingRun& trained = *run.trained;
    nlohmann::json document;
    document["format"] =
        "one-head character model (cpp/learning/model.hpp); each matrix row-major float16, little-endian, "
        "base64";
    document["corpus"] = "data/tinyshakespeare.txt";
    document["d"] = trained.config().d;
    document["context"] = trained.config().context;
    document["scale"] = "sqrt";
    document["seed"] = run.job.seed;
    document["steps"] = options.steps;
    document["batch"] = options.batch;
    document["optimizer"] = optimizer_name(options.optimizer);
    document["learningRate"] = run.job.learning_rate;
    document["heldOutLoss"] = run.end.loss;
    document["heldOutWindows"] = run.held_out_windows;
    document["meanWeightByOffset"] = offsets;
    document["peakCensus"] = census_json(census);
    document["vocabulary"] = trained.vocabulary().characters();
    nlohmann::json matrices;
    const Parameters& parameters = trained.parameters();
    for (int n = 0; n < Parameters::kCount; ++n) {
        const Matrix& m = *parameters.all()[static_cast<std::size_t>(n)];
        matrices[Parameters::names()[static_cast<std::size_t>(n)]] = {{"shape", {m.rows, m.cols}},
                                                                      {"float16", float16_base64(m.values)}};
    }
    document["parameters"] = matrices;
    return document;
}

// indent: -1 for one line (the head's weights), 2 for a file people read (the results).
void write_json(const nlohmann::json& document, const std::string& path, int indent = -1) {
    std::ofstream file(path);
    if (!(file << document.dump(indent) << '\n')) throw std::invalid_argument("cannot write " + path);
}

// The saved head (printed, and written under out/ and, with --save-head, for the page) when the
// run has one: 1/√d at the saved width, first seed.
void save_head(const std::vector<Run>& table, const Options& options, std::vector<std::string>& written) {
    const auto found =
        std::find_if(table.begin(), table.end(), [](const Run& r) { return r.trained != nullptr; });
    if (found == table.end()) return;
    const std::vector<double> offsets = weight_by_offset(*found->trained);
    const PeakCensus census = census_of(*found->trained);
    print_saved_head(offsets, options.saved_width, census);
    const nlohmann::json document = head_json(*found, options, offsets, census);
    written.push_back(options.out + "/trained-head.json");
    if (options.save_head) written.push_back("web/assets/trained-head.json");
    for (std::size_t i = written.size() - (options.save_head ? 2 : 1); i < written.size(); ++i)
        write_json(document, written[i]);
}

}  // namespace

namespace {

// ---- Files ---------------------------------------------------------------------------------------

double rounded(double x) {
    return std::round(x * 1e6) / 1e6;
}

template <typename Read>
nlohmann::json per_seed(const std::vector<Run>& table, int d, const std::string& way, Read read) {
    nlohmann::json values = nlohmann::json::array();
    for (double v : column(table, d, way, read)) values.push_back(rounded(v));
    return values;
}

// The rows of one protocol: final held-out loss per seed, its mean and sd, and with `details`
// the table's other columns per seed.
template <typename Read>
nlohmann::json protocol_rows(const Options& options, const std::vector<Run>& table, Read loss, bool details) {
    nlohmann::json rows = nlohmann::json::array();
    for (int d : options.widths)
        for (const std::string& name : options.ways) {
            const Spread s = spread_of(column(table, d, name, loss));
            nlohmann::json row = {{"width", d},
                                  {"config", name},
                                  {"mean", rounded(s.mean)},
                                  {"sd", rounded(s.sd)},
                                  {"losses", per_seed(table, d, name, loss)}};
            if (details) {
                row["learningRate"] =
                    column(table, d, name, [](const Run& r) { return r.job.learning_rate; }).front();
                row["lossStart"] = per_seed(table, d, name, [](const Run& r) { return r.start.loss; });
            }
            if (details && way_named(name).head) {
                row["queryGradientStep1"] =
                    per_seed(table, d, name, [](const Run& r) { return r.first_step.query_gradient_norm; });
                row["entropyEnd"] =
                    per_seed(table, d, name, [](const Run& r) { return r.end.attention.mean_entropy_nats; });
                row["peakStart"] =
                    per_seed(table, d, name, [](const Run& r) { return r.start.attention.mean_peak_weight; });
                row["peakEnd"] =
                    per_seed(table, d, name, [](const Run& r) { return r.end.attention.mean_peak_weight; });
            }
            rows.push_back(row);
        }
    return rows;
}

nlohmann::json sweep_json(const Options& options, const Plan& plan) {
    nlohmann::json rows = nlohmann::json::array();
    for (const Run& run : plan.sweep)
        rows.push_back({{"width", run.job.d},
                        {"rate", run.job.learning_rate},
                        {"config", run.job.way.name},
                        {"trainingLoss", rounded(run.training_tail_loss)}});
    return {{"seed", options.seeds.front()},
            {"steps", options.steps},
            {"rates", options.rates},
            {"criterion", "the lowest mean, over the four configurations, of the training loss of the last " +
                              std::to_string(std::min(kTailSteps, options.steps)) + " steps"},
            {"rows", rows}};
}

// The corpus protocol's part of the results: everything but "page".
nlohmann::json corpus_json(const Options& options, const Plan& plan, const std::vector<Run>& table) {
    nlohmann::json rates;
    for (const auto& [d, rate] : plan.rates) rates[std::to_string(d)] = rate;
    const int windows = table.front().held_out_windows;
    const bool whole = options.held_out_windows == kWholeHeldOut;
    return {{"seeds", options.seeds},
            {"learningRates", rates},
            {"sweep", plan.sweep.empty() ? nlohmann::json() : sweep_json(options, plan)},
            {"heldOut",
             {{"predictions", windows * options.context},
              {"windows", windows},
              {"note", whole ? "the whole held-out tail" : "the first windows of the held-out tail"}}},
            {"table",
             {{"steps", options.steps},
              {"batch", options.batch},
              {"context", options.context},
              {"rows", protocol_rows(
                           options, table, [](const Run& r) { return r.end.loss; }, true)}}}};
}

// The page protocol's part: "page", section 6's runs on the page's text.
nlohmann::json page_json(const Options& options, const Corpus& page, const std::vector<Run>& runs) {
    const int windows = runs.front().held_out_windows;
    return {
        {"page",
         {{"text", "the start of data/tinyshakespeare.txt up to the last blank line at or before character " +
                       std::to_string(kPageCharacters) + ", as scripts/build-web.mjs ships it"},
          {"characters", page.tokens.size()},
          {"vocabulary", page.vocabulary.size()},
          {"seeds", options.seeds},
          {"steps", options.steps},
          {"batch", options.batch},
          {"context", options.context},
          {"heldOutWindows", windows},
          {"heldOutPredictions", windows * options.context},
          {"rows", protocol_rows(
                       options, runs, [](const Run& r) { return r.end.loss; }, true)}}}};
}

// A results file with `measured`'s keys replaced: one protocol's run keeps the other's numbers.
void merge_results(const nlohmann::json& measured, const std::string& path) {
    std::ifstream file(path);
    nlohmann::json document = file ? nlohmann::json::parse(file, nullptr, false) : nlohmann::json::object();
    if (!document.is_object())
        throw std::invalid_argument(path + " is not a JSON object: delete it or fix it");
    file.close();
    for (const auto& [key, value] : measured.items()) document[key] = value;
    write_json(document, path, 2);
}

void write_csv(const std::vector<Run>& runs, const Options& options, const std::string& path) {
    std::ofstream file(path);
    file.precision(9);
    file << "d,config,seed,learning_rate,steps,loss_start,loss_end,training_loss_last_steps,"
            "query_gradient_norm_step1,key_gradient_norm_step1,entropy_start,entropy_end,peak_weight_start,"
            "peak_weight_end,seconds\n";
    for (const Run& r : runs)
        file << r.job.d << ',' << r.job.way.name << ',' << r.job.seed << ',' << r.job.learning_rate << ','
             << options.steps << ',' << r.start.loss << ',' << r.end.loss << ',' << r.training_tail_loss
             << ',' << r.first_step.query_gradient_norm << ',' << r.first_step.key_gradient_norm << ','
             << r.start.attention.mean_entropy_nats << ',' << r.end.attention.mean_entropy_nats << ','
             << r.start.attention.mean_peak_weight << ',' << r.end.attention.mean_peak_weight << ','
             << r.seconds << '\n';
    if (!file) throw std::invalid_argument("cannot write " + path);
}

// One row per step of every run: what the page's trainer reports as trainingSteps' losses, which
// web/test/training-agreement.test.mjs holds it to.
void write_losses_csv(const std::vector<Run>& runs, const std::string& path) {
    std::ofstream file(path);
    file.precision(9);
    file << "d,config,seed,step,loss\n";
    for (const Run& r : runs)
        for (std::size_t s = 0; s < r.losses.size(); ++s)
            file << r.job.d << ',' << r.job.way.name << ',' << r.job.seed << ',' << s + 1 << ','
                 << r.losses[s] << '\n';
    if (!file) throw std::invalid_argument("cannot write " + path);
}

// One protocol's runs as CSVs: prefix "" for the corpus protocol, "page-" for the page's.
void write_run_files(const std::vector<Run>& runs, const Options& options, const std::string& prefix,
                     std::vector<std::string>& written) {
    written.push_back(options.out + "/" + prefix + "learning.csv");
    write_csv(runs, options, written.back());
    written.push_back(options.out + "/" + prefix + "training-losses.csv");
    write_losses_csv(runs, written.back());
}

// The CSVs of each protocol that ran, and the results of both merged into learning-results.json
// (under out/, and with --save-results the page's copy).
std::vector<std::string> write_files(const Options& options, const Plan& plan, const std::vector<Run>& table,
                                     const Corpus& page, const std::vector<Run>& page_table) {
    std::vector<std::string> written;
    nlohmann::json results = nlohmann::json::object();
    if (!table.empty()) {
        write_run_files(table, options, "", written);
        results.update(corpus_json(options, plan, table));
    }
    if (!plan.sweep.empty()) {
        written.push_back(options.out + "/sweep.csv");
        write_csv(plan.sweep, options, written.back());
    }
    if (!page_table.empty()) {
        write_run_files(page_table, page_options(options), "page-", written);
        results.update(page_json(options, page, page_table));
    }
    written.push_back(options.out + "/learning-results.json");
    merge_results(results, written.back());
    if (options.save_results) {
        written.push_back(kSavedResults);
        merge_results(results, written.back());
    }
    return written;
}

}  // namespace

int main(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        if (std::string(argv[i]) == "--help") return std::fputs(kUsage, stdout) < 0;
    try {
        const Options options = parse_arguments(argc, argv);
        const std::string text = read_text_file(options.corpus);
        Corpus corpus{Vocabulary(text), {}};
        corpus.tokens = corpus.vocabulary.encode(text);
        std::filesystem::create_directories(options.out);
        std::printf(
            "one-head character model on %s: %d steps of %d windows × %d characters, %s\n"
            "loss: held-out next-character cross-entropy (nats); entropy (nats) and peak weight: mean over\n"
            "every query row of the held-out windows\n\n",
            options.corpus.c_str(), options.steps, options.batch, options.context,
            optimizer_name(options.optimizer).c_str());
        const auto began = std::chrono::steady_clock::now();
        const bool corpus_protocol = runs_protocol(options, "corpus");
        const Corpus whole = encoded(text);
        Plan plan = corpus_protocol ? plan_rates(options, whole) : saved_rates(options);
        print_sweep(options, plan);
        std::vector<Run> table;
        if (corpus_protocol) {
            table = table_runs(options, whole, plan);
            print_table(options, table, "the corpus protocol: the whole text");
        }
        const Corpus page = encoded(page_text(text));
        std::vector<Run> page_table;
        if (runs_protocol(options, "page")) {
            page_table = page_runs(options, page, plan);
            std::printf("\n");
            print_table(page_options(options), page_table,
                        ("the page protocol (section 6): the first " + std::to_string(page.tokens.size()) +
                         " characters, " + std::to_string(page.vocabulary.size()) + " distinct")
                            .c_str());
        }
        std::vector<std::string> written = write_files(options, plan, table, page, page_table);
        save_head(table, options, written);
        std::printf("\n%.0f s in all; wrote",
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count());
        for (const std::string& path : written) std::printf(" %s", path.c_str());
        std::printf("\n");
        return 0;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "attention-train: %s\n", error.what());
        return 1;
    }
}
