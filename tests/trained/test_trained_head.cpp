// Tests of the trained head (cpp/trained/trained_head.cpp) and of the head `npm run train` saved
// (web/assets/trained-head.json): its float16 weights decode to the held-out loss it was saved
// with, its maps equal a float64 computation from the JSON, its refusals, where each row peaks
// and the saved peak census.
#include "catch.hpp"
#include "float16_decoding.hpp"
#include "test_support.hpp"

#include "learning/training.hpp"
#include "trained/trained_head.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

using namespace attention;
using float16_decoding::from_base64;
using float16_decoding::half_to_float;
using test_support::invalid_argument_message;

namespace {

std::string read_file(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    REQUIRE(file.good());
    return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("the saved trained head decodes to the held-out loss it was saved with",
          "[training][trained-head]") {
    const nlohmann::json saved = nlohmann::json::parse(read_file(TRAINED_HEAD_PATH));
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

// The saved head, decoded here from its JSON (independent of trained_head.cpp).
struct SavedHead {
    ModelConfig config;
    Parameters parameters;
    Vocabulary vocabulary{std::vector<std::string>{"a", "b"}};
};

SavedHead decode_saved_head() {
    const nlohmann::json saved = nlohmann::json::parse(read_file(TRAINED_HEAD_PATH));
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
    const std::size_t T = tokens.size(), d = static_cast<std::size_t>(head.config.d);
    std::vector<std::vector<double>> q(T, std::vector<double>(d)), k = q, w(T, std::vector<double>(T, 0.0));
    for (std::size_t i = 0; i < T; ++i) {
        const float* embedding = p.embedding.row(tokens[i]);
        const float* position = p.position.row(static_cast<int>(i));
        for (std::size_t r = 0; r < d; ++r) {
            const double x = double(embedding[r]) + double(position[r]);
            const float* query = p.query.row(static_cast<int>(r));
            const float* key = p.key.row(static_cast<int>(r));
            for (std::size_t c = 0; c < d; ++c) {
                q[i][c] += x * query[c];
                k[i][c] += x * key[c];
            }
        }
    }
    for (std::size_t i = 0; i < T; ++i) {
        double top = -1e300, sum = 0;
        for (std::size_t j = 0; j <= i; ++j) {
            double s = 0;
            for (std::size_t c = 0; c < d; ++c) s += q[i][c] * k[j][c];
            w[i][j] = s / std::sqrt(double(d));
            top = std::max(top, w[i][j]);
        }
        for (std::size_t j = 0; j <= i; ++j) sum += (w[i][j] = std::exp(w[i][j] - top));
        for (std::size_t j = 0; j <= i; ++j) w[i][j] /= sum;
    }
    return w;
}

}  // namespace

TEST_CASE("the trained head's map weights equal a float64 computation from the saved JSON",
          "[trained-head]") {
    const SavedHead head = decode_saved_head();
    const std::string text =
        GENERATE(as<std::string>{}, "To be, or not to be", "a", "KING RICHARD III:\nNow is");
    CAPTURE(text);
    const Matrix weights = trained_head_weights(head.config, head.parameters, head.vocabulary, text);
    const std::vector<std::vector<double>> expected = float64_weights(head, head.vocabulary.encode(text));
    const std::size_t T = expected.size();
    REQUIRE(weights.rows == static_cast<int>(T));
    REQUIRE(weights.values.size() == T * T);
    for (std::size_t i = 0; i < T; ++i)
        for (std::size_t j = 0; j < T; ++j) {
            CAPTURE(i, j);
            REQUIRE_THAT(weights.values[i * T + j], Catch::Matchers::WithinAbs(expected[i][j], 1e-5));
        }
}

TEST_CASE("the trained head refuses characters it never saw and text longer than its context",
          "[trained-head][errors]") {
    const SavedHead head = decode_saved_head();
    REQUIRE(
        invalid_argument_message([&] { trained_head_tokens(head.config, head.vocabulary, "caf\xc3\xa9"); }) ==
        "character \"\xc3\xa9\" at position 4 is not one of the 65 the trained head was trained on");
    REQUIRE(invalid_argument_message([&] {
                trained_head_tokens(head.config, head.vocabulary, std::string(65, 'a'));
            }) == "text has 65 characters; the trained head reads at most 64");
    REQUIRE(invalid_argument_message([&] { trained_head_tokens(head.config, head.vocabulary, ""); }) ==
            "text is empty; the trained head needs at least 1 character");
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
          "[trained-head][peaks]") {
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

TEST_CASE("a tie for the largest weight goes to its first column", "[trained-head][peaks]") {
    Matrix weights(3, 3);
    weights.row(2)[0] = weights.row(2)[1] = 0.5f;  // row 2: 2 back and 1 back tie
    REQUIRE(peak_target_name(peak_targets(characters_of("abc"), weights)[2]) == std::string("two back"));
}

TEST_CASE("the trained head's map carries the float64 weights, its characters and each row's peak",
          "[trained-head]") {
    const SavedHead head = decode_saved_head();
    const std::string text =
        GENERATE(as<std::string>{}, "To be, or not to be", "x", "First Citizen:\nBefore");
    const MapDetail detail = GENERATE(MapDetail::all, MapDetail::weights_only);
    CAPTURE(text, detail == MapDetail::all);
    const TrainedHeadMap map = trained_head_map(head.config, head.parameters, head.vocabulary, text, detail);
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
// of trained_head.cpp, from the same definition (first fitting name, first column on a tie).
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
          "[trained-head][peaks]") {
    const SavedHead head = decode_saved_head();
    const nlohmann::json census = nlohmann::json::parse(read_file(TRAINED_HEAD_PATH)).at("peakCensus");
    const std::string corpus = read_file(std::string(DATA_DIR) + "/tinyshakespeare.txt");  // ASCII
    const int T = head.config.context, windows = census.at("windows");
    const std::size_t tail = corpus.size() / 10 * 9;  // the held-out tail: the last 10%
    std::map<std::string, int> counts;
    double previous_weight = 0;
    int rows = 0;
    const auto length = static_cast<std::size_t>(T);
    for (int b = 0; b < windows; ++b) {  // windows of T + 1 laid end to end, the first T read
        const std::string text = corpus.substr(tail + static_cast<std::size_t>(b) * (length + 1), length);
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
