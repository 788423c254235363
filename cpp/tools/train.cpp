// attention-train: does the √d help a head learn? Trains the one-head character model
// (cpp/learning/model.hpp) on Shakespeare at several widths with the scores scaled by 1/√d, not scaled,
// and by 1/d, from the same seed for the same steps, and prints what changed.
//
// For every run: held-out loss before and after, the gradient norms of Wq and Wk at the first
// step, the attention's mean entropy and peak weight before and after, and the time. Writes
// the table as CSV and saves the 1/√d model at the page's width (float16, base64 in JSON)
// for the page's map. It is a command-line report: everything it measures comes from the core.
#include "learning/training.hpp"
#include "trained/float16.hpp"
#include "trained/learned_head.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#ifndef ATTENTION_DATA_DIR
#define ATTENTION_DATA_DIR "data"
#endif

namespace {

using namespace attention;

struct Options {
    std::string corpus = std::string(ATTENTION_DATA_DIR) + "/tinyshakespeare.txt";
    std::string csv = "learning.csv";
    std::string weights = "";  // empty: do not save
    std::vector<int> widths = {16, 64, 256};
    int saved_width = 64;
    int steps = 300;
    int batch = 16;
    int context = 64;
    double learning_rate = 1e-2;
    OptimizerKind optimizer = OptimizerKind::adam;
    std::uint64_t seed = 0;
};

std::vector<int> parse_widths(const std::string& text) {
    std::vector<int> widths;
    std::stringstream list(text);
    for (std::string item; std::getline(list, item, ',');) widths.push_back(std::stoi(item));
    return widths;
}

const char* kUsage =
    "usage: attention-train [--steps N] [--batch B] [--context T] [--widths 16,64,256] [--lr RATE]\n"
    "                       [--optimizer adam|sgd] [--seed S] [--corpus PATH] [--csv PATH]\n"
    "                       [--weights PATH] [--saved-width D]\n";

Options parse_arguments(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (i + 1 >= argc) throw std::invalid_argument(std::string(kUsage) + "missing value after " + flag);
        const std::string value = argv[++i];
        if (flag == "--steps")
            options.steps = std::stoi(value);
        else if (flag == "--batch")
            options.batch = std::stoi(value);
        else if (flag == "--context")
            options.context = std::stoi(value);
        else if (flag == "--widths")
            options.widths = parse_widths(value);
        else if (flag == "--lr")
            options.learning_rate = std::stod(value);
        else if (flag == "--optimizer")
            options.optimizer = value == "sgd" ? OptimizerKind::sgd : OptimizerKind::adam;
        else if (flag == "--seed")
            options.seed = std::stoull(value);
        else if (flag == "--corpus")
            options.corpus = value;
        else if (flag == "--csv")
            options.csv = value;
        else if (flag == "--weights")
            options.weights = value;
        else if (flag == "--saved-width")
            options.saved_width = std::stoi(value);
        else
            throw std::invalid_argument(std::string(kUsage) + "unknown argument: " + flag);
    }
    if (options.steps < 1) throw std::invalid_argument("--steps must be at least 1");
    return options;
}

std::string read_text(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) throw std::invalid_argument("cannot open the corpus " + path);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

struct Row {
    int d = 0;
    std::string scale;
    Evaluation start, end;
    StepReport first_step;
    double seconds = 0;
};

TrainingOptions settings_for(const Options& options, int d, Scale scale) {
    TrainingOptions settings;
    settings.context = options.context;
    settings.d = d;
    settings.scale = scale;
    settings.optimizer.kind = options.optimizer;
    settings.optimizer.learning_rate = options.learning_rate;
    settings.batch = options.batch;
    settings.seed = options.seed;
    return settings;
}

Row measure(TrainingRun& run, int steps, Scale scale) {
    Row row;
    row.d = run.config().d;
    row.scale = scale_name(scale);
    row.start = run.evaluate();
    const auto began = std::chrono::steady_clock::now();
    row.first_step = run.step();
    for (int s = 1; s < steps; ++s) run.step();
    row.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    row.end = run.evaluate();
    return row;
}

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

void print_offsets(const std::vector<double>& mean, int d) {
    std::printf(
        "\nwhere the trained 1/sqrt(d) head at d = %d looks (mean weight, held-out rows):\n"
        "  its own character %.3f, 1 back %.3f, 2 back %.3f, 3 back %.3f, further back %.3f\n",
        d, mean[0], mean[1], mean[2], mean[3], mean[4]);
}

// The parameters as the page reads them back: every weight rounded to float16.
Parameters as_saved(Parameters parameters) {
    for (Matrix* m : parameters.all())
        for (float& value : m->values) value = from_float16(to_float16(value));
    return parameters;
}

// Where each row of the saved head puts its largest weight (cpp/trained/learned_head.hpp), over more
// held-out text than the table's 32 windows: the first kCensusWindows windows of the same tail.
// Measured on the float16 weights the page applies, not the float32 ones it trained.
constexpr int kCensusWindows = 100;
PeakCensus census_of(const TrainingRun& run, const Vocabulary& vocabulary, const std::vector<int>& tokens,
                     TrainingOptions settings) {
    settings.evaluation_windows = kCensusWindows;
    const TrainingRun untrained(vocabulary, tokens, settings);  // only for its held-out windows
    return peak_census(run.config(), as_saved(run.parameters()), vocabulary, untrained.held_out());
}

double share(const PeakCensus& census, PeakTarget target) {
    return static_cast<double>(census.counts[static_cast<std::size_t>(target)]) /
           static_cast<double>(census.rows);
}

void print_census(const PeakCensus& census) {
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

void save_weights(const TrainingRun& run, const Options& options, const Row& row,
                  const std::vector<double>& offsets, const PeakCensus& census, const std::string& path) {
    nlohmann::json document;
    document["format"] =
        "one-head character model (cpp/learning/model.hpp); each matrix row-major float16, little-endian, "
        "base64";
    document["corpus"] = "data/tinyshakespeare.txt";
    document["d"] = run.config().d;
    document["context"] = run.config().context;
    document["scale"] = "sqrt";
    document["seed"] = options.seed;
    document["steps"] = options.steps;
    document["batch"] = options.batch;
    document["optimizer"] = optimizer_name(options.optimizer);
    document["learningRate"] = options.learning_rate;
    document["heldOutLoss"] = row.end.loss;
    document["meanWeightByOffset"] = offsets;
    document["peakCensus"] = census_json(census);
    document["vocabulary"] = run.vocabulary().characters();
    nlohmann::json matrices;
    const Parameters& parameters = run.parameters();
    for (int n = 0; n < Parameters::kCount; ++n) {
        const Matrix& m = *parameters.all()[static_cast<std::size_t>(n)];
        matrices[Parameters::names()[static_cast<std::size_t>(n)]] = {{"shape", {m.rows, m.cols}},
                                                                      {"float16", float16_base64(m.values)}};
    }
    document["parameters"] = matrices;
    std::ofstream file(path);
    if (!(file << document.dump() << '\n')) throw std::invalid_argument("cannot write " + path);
}

void print_header() {
    std::printf("%5s  %-9s  %-15s  %-19s  %-15s  %-13s  %7s\n", "d", "scale", "loss start→end",
                "|dWq|, |dWk| step 1", "entropy start→end", "peak start→end", "time");
}

void print_row(const Row& row) {
    std::printf("%5d  %-9s  %6.3f → %6.3f  %8.2e, %8.2e  %6.3f → %6.3f    %5.3f → %5.3f  %6.2f s\n", row.d,
                row.scale.c_str(), row.start.loss, row.end.loss, row.first_step.query_gradient_norm,
                row.first_step.key_gradient_norm, row.start.attention.mean_entropy_nats,
                row.end.attention.mean_entropy_nats, row.start.attention.mean_peak_weight,
                row.end.attention.mean_peak_weight, row.seconds);
    std::fflush(stdout);
}

void write_csv(const std::vector<Row>& rows, const std::string& path) {
    std::ofstream file(path);
    file << "d,scale,loss_start,loss_end,query_gradient_norm_step1,key_gradient_norm_step1,"
            "entropy_start,entropy_end,peak_weight_start,peak_weight_end,seconds\n";
    for (const Row& row : rows)
        file << row.d << ',' << row.scale << ',' << row.start.loss << ',' << row.end.loss << ','
             << row.first_step.query_gradient_norm << ',' << row.first_step.key_gradient_norm << ','
             << row.start.attention.mean_entropy_nats << ',' << row.end.attention.mean_entropy_nats << ','
             << row.start.attention.mean_peak_weight << ',' << row.end.attention.mean_peak_weight << ','
             << row.seconds << '\n';
    if (!file) throw std::invalid_argument("cannot write " + path);
}

}  // namespace

int main(int argc, char** argv) {
    try {
        const Options options = parse_arguments(argc, argv);
        const std::string text = read_text(options.corpus);
        const Vocabulary vocabulary(text);
        const std::vector<int> tokens = vocabulary.encode(text);
        std::printf(
            "one-head character model on %s: %d steps of %d windows × %d characters, %s lr %g, seed %llu\n"
            "loss: held-out next-character cross-entropy (nats); entropy (nats) and peak weight: mean over\n"
            "every query row of the held-out windows\n\n",
            options.corpus.c_str(), options.steps, options.batch, options.context,
            optimizer_name(options.optimizer).c_str(), options.learning_rate,
            static_cast<unsigned long long>(options.seed));
        print_header();
        std::vector<Row> rows;
        std::vector<double> offsets;  // of the saved model
        PeakCensus census;
        for (int d : options.widths)
            for (Scale scale : {Scale::inverse_sqrt_d(), Scale::none(), Scale::inverse_d()}) {
                TrainingRun run(vocabulary, tokens, settings_for(options, d, scale));
                rows.push_back(measure(run, options.steps, scale));
                print_row(rows.back());
                if (d == options.saved_width && scale.mode == ScaleMode::inverse_sqrt_d) {
                    offsets = weight_by_offset(run);
                    census = census_of(run, vocabulary, tokens, settings_for(options, d, scale));
                    if (!options.weights.empty())
                        save_weights(run, options, rows.back(), offsets, census, options.weights);
                }
            }
        if (!offsets.empty()) {
            print_offsets(offsets, options.saved_width);
            print_census(census);
        }
        write_csv(rows, options.csv);
        std::printf("\nwrote %s%s%s\n", options.csv.c_str(), options.weights.empty() ? "" : " and ",
                    options.weights.c_str());
        return 0;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "attention-train: %s\n", error.what());
        return 1;
    }
}
