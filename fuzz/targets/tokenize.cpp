// tokenize.cpp: fuzz_tokenize, tokenize() on arbitrary bytes (invalid UTF-8 included), held to
// strict UTF-8 (oracle.hpp) and to what each token mode promises.
#include "tutorial/tokenize.hpp"
#include "oracle.hpp"
#include "targets/targets.hpp"

#include <string>
#include <utility>
#include <vector>

namespace fuzz {

namespace {

// Unicode's White_Space property.
bool is_white_space(char32_t c) {
    return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
           (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F ||
           c == 0x3000;
}

bool is_ascii_word_character(char32_t c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '\'' ||
           c == '_';
}

// The promises of tokenize() on valid text: characters mode is list(text); words mode is
// the text in order minus its white space (Unicode's White_Space: U+202F in French, U+3000 in
// Japanese are spaces too), cut so that no token mixes word characters with ASCII symbols.
void check_tokens(const std::vector<std::string>& tokens,
                  const std::vector<std::pair<std::string, char32_t>>& points, attention::TokenMode mode) {
    if (mode == attention::TokenMode::characters) {
        require(tokens.size() == points.size(), "characters mode gave %zu tokens for %zu code points",
                tokens.size(), points.size());
        for (std::size_t t = 0; t < tokens.size(); ++t)
            require(tokens[t] == points[t].first, "character token %zu is not code point %zu", t, t);
        return;
    }
    std::string joined, without_spaces;
    for (const std::string& token : tokens) {
        const auto token_points = strict_utf8(token);
        require(!token.empty() && token_points.has_value(),
                "words mode produced an empty or malformed token");
        if (token_points->size() > 1)
            for (const auto& [bytes, point] : *token_points)
                require(point >= 0x80 ? !is_white_space(point) : is_ascii_word_character(point),
                        "word token \"%s\" contains U+%04X, which is not a word character", token.c_str(),
                        static_cast<unsigned>(point));
        joined += token;
    }
    for (const auto& [bytes, point] : points)
        if (!is_white_space(point)) without_spaces += bytes;
    require(joined == without_spaces,
            "words mode tokens \"%s\" are not the text minus its white space \"%s\"", joined.c_str(),
            without_spaces.c_str());
}

}  // namespace

void fuzz_tokenize(FuzzInput& in) {
    const auto mode = in.byte() % 2 ? attention::TokenMode::words : attention::TokenMode::characters;
    const std::string text = in.rest();
    const auto points = strict_utf8(text);
    std::vector<std::string> tokens;
    if (returns_exactly_when_valid("tokenize", points ? "" : "text is not valid UTF-8",
                                   [&] { tokens = attention::tokenize(text, mode); }))
        check_tokens(tokens, *points, mode);
}

}  // namespace fuzz
