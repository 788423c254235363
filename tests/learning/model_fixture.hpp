// The model fixture (tests/fixtures/model_gradients.json, written by
// make_learning_fixtures.py from PyTorch autograd) read into the core's types, shared by the
// model's and the optimizer's tests, and the worst difference between two parameter sets.
#pragma once

#include "catch.hpp"
#include "test_support.hpp"

#include "learning/corpus.hpp"
#include "learning/model.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace model_fixture_reader {

using namespace attention;

inline const nlohmann::json& model_fixture() {
    static const nlohmann::json document = [] {
        std::ifstream file(std::string(FIXTURE_DIR) + "/model_gradients.json");
        REQUIRE(file.good());
        return nlohmann::json::parse(file);
    }();
    return document;
}

inline Scale scale_of(const std::string& mode, double factor) {
    if (mode == "sqrt") return Scale::inverse_sqrt_d();
    if (mode == "d") return Scale::inverse_d();
    if (mode == "none") return Scale::none();
    return Scale::custom(factor);
}

inline ModelConfig config_of(const nlohmann::json& c) {
    return {c.at("vocabulary").get<int>(), c.at("context").get<int>(), c.at("d").get<int>(),
            scale_of(c.at("scale"), c.at("factor"))};
}

// The fixture's matrices, in Parameters order, with the shapes the config gives.
inline Parameters parameters_of(const ModelConfig& config, const nlohmann::json& named) {
    Parameters p = zero_parameters(config);
    for (int n = 0; n < Parameters::kCount; ++n) {
        Matrix& m = *p.all()[static_cast<std::size_t>(n)];
        m = Matrix(m.rows, m.cols,
                   named.at(Parameters::names()[static_cast<std::size_t>(n)]).get<std::vector<float>>());
    }
    return p;
}

// Window `step` of the fixture's (steps, batch, context + 1) tokens.
inline Batch batch_of(const nlohmann::json& c, int step) {
    Batch batch;
    batch.batch = c.at("batch");
    batch.context = c.at("context");
    const std::vector<int> all = c.at("tokens").get<std::vector<int>>();
    const std::size_t size =
        static_cast<std::size_t>(batch.batch) * static_cast<std::size_t>(batch.context + 1);
    batch.tokens.assign(all.begin() + static_cast<std::ptrdiff_t>(size * static_cast<std::size_t>(step)),
                        all.begin() + static_cast<std::ptrdiff_t>(size * static_cast<std::size_t>(step + 1)));
    return batch;
}

// max |mine − reference| / max |reference| over one matrix.
inline double relative_difference(const Matrix& mine, const Matrix& reference) {
    double largest = 1e-30;
    for (float x : reference.values) largest = std::max(largest, static_cast<double>(std::fabs(x)));
    return test_support::max_abs_difference(mine.values, reference.values) / largest;
}

// The worst relative_difference over the seven matrices, and which one it was.
inline std::pair<double, std::string> worst_difference(const Parameters& mine, const Parameters& reference) {
    std::pair<double, std::string> worst{0.0, ""};
    for (int n = 0; n < Parameters::kCount; ++n) {
        const double difference = relative_difference(*mine.all()[static_cast<std::size_t>(n)],
                                                      *reference.all()[static_cast<std::size_t>(n)]);
        if (difference >= worst.first) worst = {difference, Parameters::names()[static_cast<std::size_t>(n)]};
    }
    return worst;
}

}  // namespace model_fixture_reader
