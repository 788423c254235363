#include "learned_head.hpp"

#include <stdexcept>

namespace attention {

std::vector<int> learned_head_tokens(const ModelConfig& config, const Vocabulary& vocabulary,
                                     const std::string& text) {
    if (text.empty())
        throw std::invalid_argument("text is empty; the learned head needs at least 1 character");
    std::vector<int> tokens = vocabulary.encode(text);  // names an unknown character itself
    if (static_cast<int>(tokens.size()) > config.context)
        throw std::invalid_argument("text has " + std::to_string(tokens.size()) +
                                    " characters; the learned head's position table holds at most " +
                                    std::to_string(config.context));
    return tokens;
}

Matrix learned_head_weights(const ModelConfig& config, const Parameters& parameters,
                            const Vocabulary& vocabulary, const std::string& text) {
    return attention_weights_for(config, parameters, learned_head_tokens(config, vocabulary, text));
}

}  // namespace attention
