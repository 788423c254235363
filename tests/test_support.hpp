// Small helpers shared by the test files: fixtures, random inputs, max differences, error messages.
#pragma once

#include "attention/formula.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace test_support {

// A file that tests/fixtures/make_fixtures.py wrote from PyTorch's numbers. A missing file
// throws, which fails the test that asked with the path in its message.
inline nlohmann::json fixture(const std::string& name) {
    const std::string path = std::string(FIXTURE_DIR) + "/" + name;
    std::ifstream file(path);
    if (!file)
        throw std::runtime_error("cannot open fixture " + path +
                                 " (tests/fixtures/make_fixtures.py writes it)");
    return nlohmann::json::parse(file);
}

// Standard-normal (rows, cols) matrix from std::mt19937, independent of the torch port.
inline attention::Matrix random_matrix(int rows, int cols, unsigned seed, float stddev = 1.0f) {
    std::mt19937 engine(seed);
    std::normal_distribution<float> normal(0.0f, stddev);
    attention::Matrix m(rows, cols);
    for (float& x : m.values) x = normal(engine);
    return m;
}

template <typename A, typename B>
double max_abs_difference(const A& a, const B& b) {
    double largest = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i)
        largest = std::max(largest, std::fabs(static_cast<double>(a[i]) - static_cast<double>(b[i])));
    return largest;
}

// The message of the std::invalid_argument that f throws, or "" when it throws none.
template <typename F>
std::string invalid_argument_message(F&& f) {
    try {
        f();
    } catch (const std::invalid_argument& error) {
        return error.what();
    }
    return "";
}

inline bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace test_support
