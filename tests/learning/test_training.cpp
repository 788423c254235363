// Tests of the training loop (training.hpp) and of the float16 form the trained model is
// saved in (float16.hpp).
#include "catch.hpp"
#include "test_support.hpp"

#include "learning/training.hpp"
#include "trained/float16.hpp"
#include "trained/learned_head.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>

using namespace attention;
using test_support::contains;
using test_support::invalid_argument_message;

namespace {

// A text with an obvious next character most of the time, long enough to hold some out.
std::string rhyme() {
    std::string text;
    for (int i = 0; i < 40; ++i) text += "the cat sat on the mat. ";
    return text;
}

TrainingOptions small_options(Scale scale) {
    TrainingOptions options;
    options.context = 16;
    options.d = 16;
    options.scale = scale;
    options.batch = 8;
    options.seed = 5;
    options.optimizer.learning_rate = 0.02;
    options.evaluation_windows = 8;
    return options;
}

}  // namespace

TEST_CASE("float16 conversion matches hand-worked binary16 bit patterns", "[float16][hand]") {
    auto [value, bits] = GENERATE(table<float, std::uint16_t>({
        {0.0f, 0x0000},
        {-0.0f, 0x8000},
        {1.0f, 0x3c00},
        {-2.0f, 0xc000},
        {65504.0f, 0x7bff},                          // the largest float16
        {0.5f + 0.25f + 0.125f, 0x3b00},             // 0.875
        {1.0f / 3.0f, 0x3555},                       // 0.333251953125, the nearest
        {0.1f, 0x2e66},                              // 0.0999755859375
        {std::ldexp(1.0f, -14), 0x0400},             // the smallest normal
        {std::ldexp(1.0f, -24), 0x0001},             // the smallest subnormal
        {std::ldexp(1.0f, -25), 0x0000},             // half of it: a tie, to even (0)
        {std::ldexp(3.0f, -25), 0x0002},             // 1.5 steps: a tie, to even (2)
        {1.0f + std::ldexp(1.0f, -11), 0x3c00},      // a tie between 1 and its successor: to even
        {1.0f + 3 * std::ldexp(1.0f, -11), 0x3c02},  // a tie between 0x3c01 and 0x3c02: to even
        {2047.5f, 0x6800},                           // rounds up across a power of two: 2048
    }));
    CAPTURE(value, bits);
    REQUIRE(to_float16(value) == bits);
}

TEST_CASE("float16 conversion refuses what float16 cannot hold", "[float16][errors]") {
    const float value = GENERATE(65520.0f, -1e6f, std::numeric_limits<float>::infinity(),
                                 std::numeric_limits<float>::quiet_NaN());
    CAPTURE(value);
    REQUIRE(contains(invalid_argument_message([&] { to_float16(value); }), "does not fit in float16"));
}

TEST_CASE("base64 follows RFC 4648's test vectors", "[float16]") {
    auto [text, encoded] = GENERATE(table<std::string, std::string>({
        {"", ""},
        {"f", "Zg=="},
        {"fo", "Zm8="},
        {"foo", "Zm9v"},
        {"foob", "Zm9vYg=="},
        {"fooba", "Zm9vYmE="},
        {"foobar", "Zm9vYmFy"},
    }));
    CAPTURE(text);
    REQUIRE(base64(std::vector<unsigned char>(text.begin(), text.end())) == encoded);
    // 1.0 and -2.0 as little-endian float16: 00 3c 00 c0.
    REQUIRE(float16_base64({1.0f, -2.0f}) == base64({0x00, 0x3c, 0x00, 0xc0}));
}

TEST_CASE("a training run lowers the held-out loss and repeats bit for bit", "[training]") {
    const auto run = [](Scale scale) {
        TrainingRun training(rhyme(), small_options(scale));
        const Evaluation before = training.evaluate();
        StepReport last;
        for (int step = 0; step < 60; ++step) last = training.step();
        return std::make_tuple(before.loss, training.evaluate().loss, last.loss, last.step);
    };
    const auto [before, after, last_batch_loss, steps] = run(Scale::inverse_sqrt_d());
    CAPTURE(before, after, last_batch_loss);
    REQUIRE(steps == 60);
    REQUIRE(before > 2.0);  // about ln 11 for the 11 characters, untrained
    REQUIRE(after < 1.0);
    REQUIRE(run(Scale::inverse_sqrt_d()) == std::make_tuple(before, after, last_batch_loss, steps));
}

TEST_CASE("a training run's first step is the model's gradient on the sampler's first batch", "[training]") {
    TrainingRun training(rhyme(), small_options(Scale::none()));
    const StepReport first = training.step();
    // Redo it by hand: the first 90% of the text is sampled, from the run's seed, and the
    // parameters start from initial_parameters with that seed.
    std::vector<int> tokens = training.vocabulary().encode(rhyme());
    tokens.resize(tokens.size() / 10 * 9);
    BatchSampler sampler(tokens, 8, 16, 5);
    const ModelConfig& config = training.config();
    Parameters gradients = zero_parameters(config);
    const Evaluation expected = evaluate(config, initial_parameters(config, 5), sampler.next(), &gradients);
    REQUIRE(first.step == 1);
    REQUIRE(first.loss == expected.loss);
    REQUIRE(first.query_gradient_norm == frobenius_norm(gradients.query));
    REQUIRE(first.key_gradient_norm == frobenius_norm(gradients.key));
    REQUIRE(first.query_gradient_norm > 0);
}

TEST_CASE("the held-out loss over many windows is their mean, 32 windows at a time", "[training][held-out]") {
    std::string text;
    for (int i = 0; i < 500; ++i)
        text += i % 7 == 0 ? "a rose by any other name. " : "the cat sat on the mat. ";
    TrainingOptions options = small_options(Scale::inverse_sqrt_d());
    options.evaluation_windows = kWholeHeldOut;
    TrainingRun training(text, options);
    for (int step = 0; step < 5; ++step) training.step();
    const Batch& all = training.held_out();
    REQUIRE(all.batch ==
            static_cast<int>(text.size() - text.size() / 10 * 9) / 17);  // every window of the tail
    REQUIRE(all.batch > 64);
    // All of it as one batch: the same mean, up to the order of the sums.
    const Evaluation whole = evaluate(training.config(), training.parameters(), all);
    const Evaluation chunked = training.evaluate();
    REQUIRE_THAT(chunked.loss, Catch::Matchers::WithinRel(whole.loss, 1e-12));
    REQUIRE_THAT(chunked.attention.mean_peak_weight,
                 Catch::Matchers::WithinRel(whole.attention.mean_peak_weight, 1e-12));
    // The first 32 windows: bit for bit what a run that keeps only 32 measures.
    options.evaluation_windows = 32;
    TrainingRun page(text, options);
    for (int step = 0; step < 5; ++step) page.step();
    REQUIRE(training.evaluate(32).loss == page.evaluate().loss);
    REQUIRE(training.evaluate(32).loss != chunked.loss);
}

TEST_CASE("a run without a head learns, and has no attention to summarise", "[training][no-head]") {
    TrainingOptions options = small_options(Scale::inverse_sqrt_d());
    options.head = false;
    TrainingRun training(rhyme(), options);
    const double before = training.evaluate().loss;
    StepReport last;
    for (int step = 0; step < 60; ++step) last = training.step();
    const Evaluation after = training.evaluate();
    CAPTURE(before, after.loss);
    REQUIRE(after.loss < before - 1.0);
    REQUIRE(last.query_gradient_norm == 0);
    REQUIRE(after.attention.mean_peak_weight == 0);
}

TEST_CASE("a training run rejects a text too short for one window", "[training][errors]") {
    REQUIRE(invalid_argument_message([] { TrainingRun("abcabc", small_options(Scale::none())); }) ==
            "the text has 6 characters; a context of 16 needs at least 17");
}

namespace {

std::vector<unsigned char> from_base64(const std::string& text) {
    const std::string digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::vector<unsigned char> bytes;
    std::uint32_t buffer = 0;
    int bits = 0;
    for (char c : text) {
        if (c == '=') break;
        buffer = (buffer << 6) | static_cast<std::uint32_t>(digits.find(c));
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            bytes.push_back(static_cast<unsigned char>((buffer >> bits) & 0xffu));
        }
    }
    return bytes;
}

// binary16 → float, from the format's definition (independent of float16.cpp).
float half_to_float(std::uint16_t half) {
    const int exponent = (half >> 10) & 31, mantissa = half & 1023;
    const float magnitude = exponent == 0 ? std::ldexp(static_cast<float>(mantissa), -24)
                                          : std::ldexp(static_cast<float>(1024 + mantissa), exponent - 25);
    return (half & 0x8000) ? -magnitude : magnitude;
}

std::string read_file(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    REQUIRE(file.good());
    return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("the saved learned head decodes to the held-out loss it was saved with",
          "[training][learned-head]") {
    const nlohmann::json saved = nlohmann::json::parse(read_file(LEARNED_HEAD_PATH));
    const std::string corpus = read_file(std::string(DATA_DIR) + "/tinyshakespeare.txt");
    TrainingOptions options;
    options.context = saved.at("context");
    options.d = saved.at("d");
    options.seed = saved.at("seed");
    options.evaluation_windows = saved.at("heldOutWindows");  // 1,716: the whole held-out tail
    const TrainingRun untrained(corpus, options);             // for the vocabulary and the held-out windows
    REQUIRE(untrained.held_out().batch == options.evaluation_windows);
    REQUIRE(saved.at("vocabulary").get<std::vector<std::string>>() == untrained.vocabulary().characters());

    Parameters decoded = zero_parameters(untrained.config());
    for (int n = 0; n < Parameters::kCount; ++n) {
        const nlohmann::json& entry =
            saved.at("parameters").at(Parameters::names()[static_cast<std::size_t>(n)]);
        Matrix& m = *decoded.all()[static_cast<std::size_t>(n)];
        REQUIRE(entry.at("shape") == std::vector<int>{m.rows, m.cols});
        const std::vector<unsigned char> bytes = from_base64(entry.at("float16"));
        REQUIRE(bytes.size() == m.values.size() * 2);
        for (std::size_t e = 0; e < m.values.size(); ++e)
            m.values[e] = half_to_float(static_cast<std::uint16_t>(bytes[2 * e] | (bytes[2 * e + 1] << 8)));
    }
    const double recorded = saved.at("heldOutLoss");
    const Evaluation evaluation = evaluate(untrained.config(), decoded, untrained.held_out());  // one batch
    CAPTURE(recorded, evaluation.loss);
    // float16 keeps about 3 significant digits of every weight: the loss moves far less than that.
    REQUIRE_THAT(evaluation.loss, Catch::Matchers::WithinAbs(recorded, 2e-3));
    REQUIRE(evaluation.loss < untrained.evaluate().loss - 2.0);  // it did learn
}

namespace {

// The saved head, decoded here from its JSON (independent of learned_head.cpp).
struct SavedHead {
    ModelConfig config;
    Parameters parameters;
    Vocabulary vocabulary{std::vector<std::string>{"a", "b"}};
};

SavedHead decode_saved_head() {
    const nlohmann::json saved = nlohmann::json::parse(read_file(LEARNED_HEAD_PATH));
    SavedHead head;
    head.vocabulary = Vocabulary(saved.at("vocabulary").get<std::vector<std::string>>());
    head.config.vocabulary = head.vocabulary.size();
    head.config.context = saved.at("context");
    head.config.d = saved.at("d");
    head.parameters = zero_parameters(head.config);
    for (int n = 0; n < Parameters::kCount; ++n) {
        const nlohmann::json& entry =
            saved.at("parameters").at(Parameters::names()[static_cast<std::size_t>(n)]);
        Matrix& m = *head.parameters.all()[static_cast<std::size_t>(n)];
        const std::vector<unsigned char> bytes = from_base64(entry.at("float16"));
        REQUIRE(bytes.size() == m.values.size() * 2);
        for (std::size_t e = 0; e < m.values.size(); ++e)
            m.values[e] = half_to_float(static_cast<std::uint16_t>(bytes[2 * e] | (bytes[2 * e + 1] << 8)));
    }
    return head;
}

// x = E[t] + P[i], q = x·Wq, k = x·Wk, causal softmax of q·kᵀ/√d, all in double.
std::vector<std::vector<double>> float64_weights(const SavedHead& head, const std::vector<int>& tokens) {
    const Parameters& p = head.parameters;
    const int T = static_cast<int>(tokens.size()), d = head.config.d;
    std::vector<std::vector<double>> q(T, std::vector<double>(d)), k = q, w(T, std::vector<double>(T, 0.0));
    for (int i = 0; i < T; ++i)
        for (int c = 0; c < d; ++c)
            for (int r = 0; r < d; ++r) {
                const double x = double(p.embedding.row(tokens[i])[r]) + double(p.position.row(i)[r]);
                q[i][c] += x * p.query.row(r)[c];
                k[i][c] += x * p.key.row(r)[c];
            }
    for (int i = 0; i < T; ++i) {
        double top = -1e300, sum = 0;
        for (int j = 0; j <= i; ++j) {
            double s = 0;
            for (int c = 0; c < d; ++c) s += q[i][c] * k[j][c];
            w[i][j] = s / std::sqrt(double(d));
            top = std::max(top, w[i][j]);
        }
        for (int j = 0; j <= i; ++j) sum += (w[i][j] = std::exp(w[i][j] - top));
        for (int j = 0; j <= i; ++j) w[i][j] /= sum;
    }
    return w;
}

}  // namespace

TEST_CASE("the learned head's map weights equal a float64 computation from the saved JSON",
          "[learned-head]") {
    const SavedHead head = decode_saved_head();
    const std::string text =
        GENERATE(as<std::string>{}, "To be, or not to be", "a", "KING RICHARD III:\nNow is");
    CAPTURE(text);
    const Matrix weights = learned_head_weights(head.config, head.parameters, head.vocabulary, text);
    const std::vector<std::vector<double>> expected = float64_weights(head, head.vocabulary.encode(text));
    REQUIRE(weights.rows == static_cast<int>(expected.size()));
    for (int i = 0; i < weights.rows; ++i)
        for (int j = 0; j < weights.cols; ++j) {
            CAPTURE(i, j);
            REQUIRE_THAT(weights.row(i)[j], Catch::Matchers::WithinAbs(expected[i][j], 1e-5));
        }
}

TEST_CASE("the learned head refuses characters it never saw and text longer than its context",
          "[learned-head][errors]") {
    const SavedHead head = decode_saved_head();
    REQUIRE(
        invalid_argument_message([&] { learned_head_tokens(head.config, head.vocabulary, "caf\xc3\xa9"); }) ==
        "character \"\xc3\xa9\" at position 3 is not one of the 65 the learned head was trained on");
    REQUIRE(invalid_argument_message([&] {
                learned_head_tokens(head.config, head.vocabulary, std::string(65, 'a'));
            }) == "text has 65 characters; the learned head's position table holds at most 64");
    REQUIRE(invalid_argument_message([&] { learned_head_tokens(head.config, head.vocabulary, ""); }) ==
            "text is empty; the learned head needs at least 1 character");
}

TEST_CASE("from_float16 reads every finite half as the format defines it", "[training][float16]") {
    int mismatches = 0, first_mismatch = -1;
    for (int half = 0; half < 0x10000; ++half) {
        if (((half >> 10) & 31) == 31) continue;  // infinities and NaNs are never saved
        if (from_float16(static_cast<std::uint16_t>(half)) !=
            half_to_float(static_cast<std::uint16_t>(half))) {
            if (first_mismatch < 0) first_mismatch = half;
            ++mismatches;
        }
    }
    CAPTURE(first_mismatch);
    REQUIRE(mismatches == 0);
}

namespace {

// One-hot rows: row i puts all its weight on column peak_of[i].
Matrix one_hot_rows(const std::vector<int>& peak_of) {
    const int T = static_cast<int>(peak_of.size());
    Matrix weights(T, T);
    for (int i = 0; i < T; ++i) weights.row(i)[peak_of[static_cast<std::size_t>(i)]] = 1.0f;
    return weights;
}

std::vector<std::string> characters_of(const std::string& ascii) {
    std::vector<std::string> characters;
    for (char c : ascii) characters.emplace_back(1, c);
    return characters;
}

}  // namespace

TEST_CASE("a row's peak is named from the query's point of view, first fitting name first",
          "[learned-head][peaks]") {
    // "ab cdef": positions 0 a, 1 b, 2 space, 3 c, 4 d, 5 e, 6 f; the word of d, e, f starts at 3.
    const auto [row, peak, name] = GENERATE(table<int, int, std::string>({
        {0, 0, "only key"},
        {1, 0, "previous"},
        {3, 2, "previous"},  // a space just before counts as the previous character
        {4, 2, "two back"},  // and two back as two back
        {2, 2, "itself"},
        {5, 2, "space"},
        {6, 2, "space"},
        {6, 3, "word start"},
        {6, 0, "elsewhere"},
        {5, 1, "elsewhere"},
    }));
    CAPTURE(row, peak);
    std::vector<int> peak_of = {0, 0, 0, 0, 0, 0, 0};
    peak_of[static_cast<std::size_t>(row)] = peak;
    const std::vector<PeakTarget> targets = peak_targets(characters_of("ab cdef"), one_hot_rows(peak_of));
    REQUIRE(peak_target_name(targets[static_cast<std::size_t>(row)]) == name);
}

TEST_CASE("a tie for the largest weight goes to its first column", "[learned-head][peaks]") {
    Matrix weights(3, 3);
    weights.row(2)[0] = weights.row(2)[1] = 0.5f;  // row 2: 2 back and 1 back tie
    REQUIRE(peak_target_name(peak_targets(characters_of("abc"), weights)[2]) == std::string("two back"));
}

TEST_CASE("the learned head's map carries the float64 weights, its characters and each row's peak",
          "[learned-head]") {
    const SavedHead head = decode_saved_head();
    const std::string text =
        GENERATE(as<std::string>{}, "To be, or not to be", "x", "First Citizen:\nBefore");
    const MapDetail detail = GENERATE(MapDetail::all, MapDetail::weights_only);
    CAPTURE(text, detail == MapDetail::all);
    const LearnedHeadMap map = learned_head_map(head.config, head.parameters, head.vocabulary, text, detail);
    const std::vector<std::vector<double>> expected = float64_weights(head, head.vocabulary.encode(text));
    REQUIRE(map.tokens == characters_of(text));
    REQUIRE(map.head.weights.rows == static_cast<int>(text.size()));
    REQUIRE(map.inputs.q.cols == head.config.d);
    REQUIRE_THAT(map.head.scale, Catch::Matchers::WithinRel(1 / std::sqrt(double(head.config.d)), 1e-12));
    REQUIRE(map.head.output.rows == (detail == MapDetail::all ? map.head.weights.rows : 0));
    double worst = 0;
    for (int i = 0; i < map.head.weights.rows; ++i)
        for (int j = 0; j < map.head.weights.cols; ++j)
            worst =
                std::max(worst, std::abs(map.head.weights.row(i)[j] -
                                         expected[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)]));
    CAPTURE(worst);
    REQUIRE(worst < 1e-5);
    REQUIRE(map.peaks == peak_targets(map.tokens, map.head.weights));
}

namespace {

// The name of where row i of a causal (T, T) weight table peaks, written out here independently
// of learned_head.cpp, from the same definition (first fitting name, first column on a tie).
std::string independent_peak_name(const std::string& text, const std::vector<double>& row, int i) {
    const int j = static_cast<int>(std::max_element(row.begin(), row.begin() + i + 1) - row.begin());
    const auto space = [&](int at) {
        return text[static_cast<std::size_t>(at)] == ' ' || text[static_cast<std::size_t>(at)] == '\n';
    };
    int word = i;
    while (word > 0 && !space(word - 1)) --word;
    if (j == i - 1) return "previous";
    if (j == i - 2) return "two back";
    if (j == i) return "itself";
    if (space(j)) return "space";
    if (j == word) return "word start";
    return "elsewhere";
}

}  // namespace

TEST_CASE("the saved peak census is what an independent float64 count of the held-out rows gives",
          "[learned-head][peaks]") {
    const SavedHead head = decode_saved_head();
    const nlohmann::json census = nlohmann::json::parse(read_file(LEARNED_HEAD_PATH)).at("peakCensus");
    const std::string corpus = read_file(std::string(DATA_DIR) + "/tinyshakespeare.txt");  // ASCII
    const int T = head.config.context, windows = census.at("windows");
    const std::size_t tail = corpus.size() / 10 * 9;  // the held-out tail: the last 10%
    std::map<std::string, int> counts;
    double previous_weight = 0;
    int rows = 0;
    for (int b = 0; b < windows; ++b) {  // windows of T + 1 laid end to end, the first T read
        const std::string text = corpus.substr(tail + static_cast<std::size_t>(b) * (T + 1), T);
        const std::vector<std::vector<double>> w = float64_weights(head, head.vocabulary.encode(text));
        for (int i = 1; i < T; ++i, ++rows) {
            ++counts[independent_peak_name(text, w[static_cast<std::size_t>(i)], i)];
            previous_weight += w[static_cast<std::size_t>(i)][static_cast<std::size_t>(i - 1)];
        }
    }
    REQUIRE(census.at("rows") == rows);
    const auto [name] = GENERATE(table<std::string>(
        {{"previous"}, {"two back"}, {"itself"}, {"space"}, {"word start"}, {"elsewhere"}}));
    const int saved = census.at("counts").at(name);
    CAPTURE(name, saved, counts[name]);
    // float32 against float64 may turn a near tie: a handful of the 6300 rows, no more.
    REQUIRE(std::abs(saved - counts[name]) <= 3);
    REQUIRE_THAT(double(census.at("meanPreviousWeight")),
                 Catch::Matchers::WithinAbs(previous_weight / rows, 1e-4));
}
