// Tests of the tokenizer (cpp/tutorial/tokenize.cpp): characters as Python's list(text) splits
// them, words, and text that is not valid UTF-8.
#include "catch.hpp"
#include "test_support.hpp"

#include "tutorial/tokenize.hpp"

#include <string>
#include <vector>

using namespace attention;
using test_support::contains;
using test_support::invalid_argument_message;

TEST_CASE("text splits into characters like Python's list(text), or into words", "[scenarios][tokens]") {
    using Tokens = std::vector<std::string>;
    const auto [text, mode, expected] = GENERATE(table<std::string, TokenMode, Tokens>({
        {"To be, or not", TokenMode::words, Tokens{"To", "be", ",", "or", "not"}},
        {"naïve 東京🙂", TokenMode::characters,
         Tokens{"n", "a", "ï", "v", "e", " ", "東", "京", "🙂"}},
        {"naïve 東京, don't", TokenMode::words, Tokens{"naïve", "東京", ",", "don't"}},
        {"  \t ", TokenMode::words, Tokens{}},
        {"Bonjour\u202F!\u205Fok\u1680x", TokenMode::words, Tokens{"Bonjour", "!", "ok", "x"}},
    }));
    CAPTURE(text, mode == TokenMode::words);
    REQUIRE(tokenize(text, mode) == expected);
}

TEST_CASE("the tutorial's text is 13 character tokens", "[scenarios][tokens]") {
    REQUIRE(tokenize("To be, or not", TokenMode::characters).size() == 13);
}

TEST_CASE("text that is not valid UTF-8 is refused at the byte where it breaks",
          "[scenarios][tokens][errors]") {
    const auto [what, text, expected] = GENERATE(table<const char*, std::string, const char*>({
        {"a truncated sequence", "ab\xC3", "not valid UTF-8 at byte 2"},
        {"a stray byte", "\xFFx", "not valid UTF-8 at byte 0"},
        {"an overlong '/'", "a\xC0\xAF", "not valid UTF-8 at byte 1"},
        {"a UTF-16 surrogate", "\xED\xA0\x80", "not valid UTF-8 at byte 0"},
        {"a code point past U+10FFFF", "\xF4\x90\x80\x80", "not valid UTF-8 at byte 0"},
    }));
    const TokenMode mode = GENERATE(TokenMode::characters, TokenMode::words);
    const std::string message = invalid_argument_message([&bad = text, mode] { tokenize(bad, mode); });
    CAPTURE(what, mode == TokenMode::words, message);
    REQUIRE(contains(message, expected));
}
