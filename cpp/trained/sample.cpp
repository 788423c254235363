// sample.cpp: seeded sampling from the character model (sample.hpp).
#include "trained/sample.hpp"

#include <algorithm>
#include <random>
#include <stdexcept>
#include <string>

namespace attention {

int pick_token(const float* probabilities, int count, double uniform) {
    if (count < 1) throw std::invalid_argument("pick_token needs at least one probability");
    double running = 0;
    int last_possible = -1;
    for (int i = 0; i < count; ++i) {
        if (probabilities[i] < 0) throw std::invalid_argument("a probability below 0");
        if (probabilities[i] == 0) continue;
        last_possible = i;
        running += static_cast<double>(probabilities[i]);
        if (uniform < running) return i;
    }
    if (last_possible < 0) throw std::invalid_argument("every probability is 0");
    return last_possible;
}

std::vector<int> sample_tokens(const ModelConfig& config, const Parameters& parameters,
                               const std::vector<int>& prompt, int length, std::uint64_t seed) {
    if (prompt.empty())
        throw std::invalid_argument("the prompt is empty; sampling needs one token to follow");
    if (length < 0) throw std::invalid_argument("length = " + std::to_string(length) + " is below 0");
    std::mt19937 engine(static_cast<std::mt19937::result_type>(seed));
    std::vector<int> text = prompt;
    std::vector<int> written;
    written.reserve(static_cast<std::size_t>(length));
    for (int n = 0; n < length; ++n) {
        // One window of the last ≤ context tokens; its target row is unused (0), and the last
        // row of the softmax forward() keeps is the next character's distribution.
        const int T =
            static_cast<int>(std::min<std::size_t>(text.size(), static_cast<std::size_t>(config.context)));
        Batch window{1, T, std::vector<int>(text.end() - T, text.end())};
        window.tokens.push_back(0);
        Activations kept;
        forward(config, parameters, window, &kept);
        const float* last =
            &kept.probabilities
                 .values[static_cast<std::size_t>(T - 1) * static_cast<std::size_t>(config.vocabulary)];
        const double uniform = static_cast<double>(engine() >> 8) * 0x1p-24;
        const int next = pick_token(last, config.vocabulary, uniform);
        text.push_back(next);
        written.push_back(next);
    }
    return written;
}

}  // namespace attention
