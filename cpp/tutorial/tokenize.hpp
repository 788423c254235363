// tokenize: text into the tokens the map shows, one per character or one per word.
//
// Strict UTF-8 in, each token kept as its own UTF-8 bytes. Malformed input (truncated or
// overlong sequences, surrogates, code points past U+10FFFF) is refused with the byte
// offset rather than guessed at, so a token on the page is always a real character. It is
// not a subword tokenizer: the tutorial's map cuts "To be, or not" into 13 characters.
#pragma once

#include <string>
#include <vector>

namespace attention {

enum class TokenMode {
    characters,  // one token per Unicode code point, like Python's list(text)
    words,       // runs of letters/digits/apostrophes; each other symbol alone; spaces dropped
};

// Throws std::invalid_argument naming the byte where the text stops being valid UTF-8.
std::vector<std::string> tokenize(const std::string& utf8_text, TokenMode mode);

}  // namespace attention
