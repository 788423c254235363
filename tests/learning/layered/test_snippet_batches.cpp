// Tests of the snippet sampler and the random passages: on a text whose every token is distinct
// (its position), so where each window came from can be read off its tokens.
#include "catch.hpp"
#include "test_support.hpp"

#include "learning/layered/snippet_batches.hpp"

#include <algorithm>
#include <numeric>
#include <vector>

using namespace attention;
using test_support::contains;
using test_support::invalid_argument_message;

namespace {

std::vector<int> positions(int size) {
    std::vector<int> tokens(static_cast<std::size_t>(size));
    std::iota(tokens.begin(), tokens.end(), 0);
    return tokens;
}

std::vector<int> window(const Batch& batch, int b) {
    const auto begin = batch.tokens.begin() + static_cast<std::ptrdiff_t>(b) * (batch.context + 1);
    return std::vector<int>(begin, begin + batch.context + 1);
}

// The length of the run of consecutive positions a window starts with.
int leading_run(const std::vector<int>& w) {
    int length = 1;
    while (length < static_cast<int>(w.size()) && w[static_cast<std::size_t>(length)] == w[0] + length)
        ++length;
    return length;
}

// The shortest period of a window's tokens, at most its length.
std::size_t period(const std::vector<int>& w) {
    std::size_t length = 1;
    while (length < w.size() &&
           !std::equal(w.begin() + static_cast<std::ptrdiff_t>(length), w.end(), w.begin()))
        ++length;
    return length;
}

}  // namespace

TEST_CASE("the first windows are slices of the text and the rest a snippet repeated", "[snippets]") {
    const int repeated = GENERATE(0, 3, 8);
    const SnippetOptions options{8, 40, repeated, 5, 12};
    SnippetSampler sampler(positions(500), options, 7);
    CAPTURE(repeated);
    for (int draw = 0; draw < 20; ++draw) {
        const Batch batch = sampler.next();
        REQUIRE(batch.batch == 8);
        REQUIRE(batch.context == 40);
        for (int b = 0; b < 8; ++b) {
            const std::vector<int> w = window(batch, b);
            const int run = leading_run(w);
            CAPTURE(draw, b, run);
            if (b < 8 - repeated) {
                REQUIRE(run == 41);
                continue;
            }
            REQUIRE(run >= 5);
            REQUIRE(run <= 12);
            for (std::size_t t = 0; t < w.size(); ++t) REQUIRE(w[t] == w[t % static_cast<std::size_t>(run)]);
        }
    }
}

TEST_CASE("the last repeated windows tile a random string of tokens below the vocabulary", "[snippets]") {
    // Text tokens are positions from 1,000 up, so a window of tokens below 10 cannot come from it.
    std::vector<int> text = positions(1500);
    text.erase(text.begin(), text.begin() + 1000);
    const SnippetOptions options{8, 40, 4, 5, 12, 2, 10};
    SnippetSampler sampler(text, options, 11);
    std::vector<int> counts(10, 0);
    for (int draw = 0; draw < 40; ++draw) {
        const Batch batch = sampler.next();
        for (int b = 0; b < 8; ++b) {
            const std::vector<int> w = window(batch, b);
            CAPTURE(draw, b);
            REQUIRE((*std::min_element(w.begin(), w.end()) >= 1000) == (b < 6));
            if (b < 6) continue;
            REQUIRE(*std::max_element(w.begin(), w.end()) < 10);
            REQUIRE(period(w) <= 12);
            for (std::size_t t = 0; t < period(w); ++t) ++counts[static_cast<std::size_t>(w[t])];
        }
    }
    // About 80 strings of 5–12 tokens: 680 draws over 10 tokens, each near 68; 30 is over four
    // standard deviations below.
    CAPTURE(counts);
    REQUIRE(*std::min_element(counts.begin(), counts.end()) > 30);
}

TEST_CASE("snippet lengths cover their whole range", "[snippets]") {
    SnippetSampler sampler(positions(300), SnippetOptions{4, 20, 4, 3, 6}, 1);
    std::vector<int> seen(7, 0);
    for (int draw = 0; draw < 50; ++draw) {
        const Batch batch = sampler.next();
        for (int b = 0; b < 4; ++b) ++seen[static_cast<std::size_t>(leading_run(window(batch, b)))];
    }
    CAPTURE(seen);
    REQUIRE(std::all_of(seen.begin() + 3, seen.end(), [](int count) { return count > 20; }));
    REQUIRE(seen[0] + seen[1] + seen[2] == 0);
}

TEST_CASE("a seed gives the same batches and another seed others", "[snippets]") {
    const SnippetOptions options{4, 16, 2, 4, 8};
    SnippetSampler a(positions(200), options, 3), b(positions(200), options, 3),
        c(positions(200), options, 4);
    const Batch first = a.next();
    REQUIRE(first.tokens == b.next().tokens);
    REQUIRE(first.tokens != c.next().tokens);
}

TEST_CASE("random passages have their lengths and tokens in range, every token drawn", "[snippets]") {
    const auto passages = random_passages(10, 200, 20, 40, 5);
    REQUIRE(passages.size() == 200);
    std::vector<int> counts(10, 0);
    for (const std::vector<int>& passage : passages) {
        REQUIRE(passage.size() >= 20);
        REQUIRE(passage.size() <= 40);
        for (int token : passage) ++counts[static_cast<std::size_t>(token)];
    }
    // About 6,000 draws over 10 tokens: each near 600; 450 is more than six standard deviations off.
    CAPTURE(counts);
    REQUIRE(*std::min_element(counts.begin(), counts.end()) > 450);
    REQUIRE(random_passages(10, 200, 20, 40, 5) == passages);
}

TEST_CASE("the snippet sampler refuses options it cannot meet with a message", "[snippets][errors]") {
    REQUIRE(contains(invalid_argument_message([] {
                         SnippetSampler(positions(100), SnippetOptions{4, 16, 5, 4, 8}, 0);
                     }),
                     "repeated = 5 is outside 0…4"));
    REQUIRE(contains(invalid_argument_message([] {
                         SnippetSampler(positions(100), SnippetOptions{4, 16, 2, 9, 8}, 0);
                     }),
                     "snippet lengths 9…8"));
    REQUIRE(contains(invalid_argument_message([] {
                         SnippetSampler(positions(10), SnippetOptions{4, 16, 2, 4, 8}, 0);
                     }),
                     "the text has 10 characters"));
    REQUIRE(contains(invalid_argument_message([] {
                         SnippetSampler(positions(100), SnippetOptions{4, 16, 2, 4, 8, 3, 10}, 0);
                     }),
                     "random = 3 is outside 0…2"));
    REQUIRE(contains(invalid_argument_message([] {
                         SnippetSampler(positions(100), SnippetOptions{4, 16, 2, 4, 8, 1, 1}, 0);
                     }),
                     "a vocabulary of at least 2 tokens, not 1"));
    REQUIRE(contains(invalid_argument_message([] { random_passages(10, 3, 5, 4, 0); }), "in order"));
}
