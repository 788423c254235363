// tokenize.cpp: UTF-8 decoding and the two ways of cutting text into tokens.
#include "tutorial/tokenize.hpp"

#include <stdexcept>
#include <utility>

namespace attention {

namespace {

// Splits UTF-8 text into code points (each kept as its own UTF-8 bytes). Rejects malformed
// input instead of guessing, so that a token on the page is always a real character.
std::vector<std::pair<std::string, char32_t>> code_points(const std::string& text) {
    std::vector<std::pair<std::string, char32_t>> result;
    std::size_t i = 0;
    while (i < text.size()) {
        const auto lead = static_cast<unsigned char>(text[i]);
        const std::size_t length = lead < 0x80           ? 1
                                   : (lead >> 5) == 0x6  ? 2
                                   : (lead >> 4) == 0xE  ? 3
                                   : (lead >> 3) == 0x1E ? 4
                                                         : 0;
        if (length == 0 || i + length > text.size())
            throw std::invalid_argument("text is not valid UTF-8 at byte " + std::to_string(i));
        char32_t point = length == 1 ? lead : static_cast<char32_t>(lead & (0xFF >> (length + 1)));
        for (std::size_t b = 1; b < length; ++b) {
            const auto continuation = static_cast<unsigned char>(text[i + b]);
            if ((continuation >> 6) != 0x2)
                throw std::invalid_argument("text is not valid UTF-8 at byte " + std::to_string(i + b));
            point = (point << 6) | (continuation & 0x3F);
        }
        // Overlong forms, UTF-16 surrogates and points past U+10FFFF are not characters.
        constexpr char32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
        if (point < kSmallest[length] || (point >= 0xD800 && point <= 0xDFFF) || point > 0x10FFFF)
            throw std::invalid_argument("text is not valid UTF-8 at byte " + std::to_string(i));
        result.emplace_back(text.substr(i, length), point);
        i += length;
    }
    return result;
}

// Unicode's White_Space property, all of it.
bool is_space(char32_t c) {
    return c == U' ' || (c >= U'\t' && c <= U'\r') || c == 0x85 || c == 0xA0 || c == 0x1680 ||
           (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F ||
           c == 0x3000;
}

// Letters, digits and apostrophes build words; any non-ASCII character counts as a letter
// (so "naïve" and "東京" stay whole); every other ASCII symbol is a token of its own.
bool is_word_character(char32_t c) {
    if (c >= 0x80) return !is_space(c);
    return (c >= U'a' && c <= U'z') || (c >= U'A' && c <= U'Z') || (c >= U'0' && c <= U'9') || c == U'\'' ||
           c == U'_';
}

}  // namespace

std::vector<std::string> tokenize(const std::string& utf8_text, TokenMode mode) {
    std::vector<std::string> tokens;
    bool in_word = false;
    for (const auto& [bytes, point] : code_points(utf8_text)) {
        if (mode == TokenMode::characters) {
            tokens.push_back(bytes);
        } else if (is_word_character(point)) {
            if (in_word)
                tokens.back() += bytes;
            else
                tokens.push_back(bytes);
            in_word = true;
        } else {
            if (!is_space(point)) tokens.push_back(bytes);
            in_word = false;
        }
    }
    return tokens;
}

}  // namespace attention
