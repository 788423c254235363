// snippet_batches.cpp: see snippet_batches.hpp.
#include "learning/layered/snippet_batches.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace attention {

namespace {

// Uniform on [0, bound): draws at or above the largest multiple of bound are redrawn, so every
// value is equally likely (a plain % would favour the small ones).
std::uint32_t uniform_draw(std::mt19937& engine, std::uint32_t bound) {
    const std::uint64_t limit = (std::uint64_t{1} << 32) / bound * bound;
    for (;;) {
        const std::uint32_t draw = static_cast<std::uint32_t>(engine());
        if (draw < limit) return draw % bound;
    }
}

// Throws std::invalid_argument on options no sampler can meet on a text of text_size tokens.
void check_options(const SnippetOptions& o, std::size_t text_size) {
    if (o.batch < 1 || o.context < 1) throw std::invalid_argument("batch and context must be at least 1");
    if (o.repeated < 0 || o.repeated > o.batch)
        throw std::invalid_argument("repeated = " + std::to_string(o.repeated) + " is outside 0…" +
                                    std::to_string(o.batch) + " (the windows in a batch)");
    if (o.shortest < 1 || o.shortest > o.longest || o.longest > o.context + 1)
        throw std::invalid_argument("snippet lengths " + std::to_string(o.shortest) + "…" +
                                    std::to_string(o.longest) + " must lie within 1…" +
                                    std::to_string(o.context + 1) + " and in order");
    if (o.random < 0 || o.random > o.repeated)
        throw std::invalid_argument("random = " + std::to_string(o.random) + " is outside 0…" +
                                    std::to_string(o.repeated) + " (the repeated windows)");
    if (o.random > 0 && o.vocabulary < 2)
        throw std::invalid_argument("random strings need a vocabulary of at least 2 tokens, not " +
                                    std::to_string(o.vocabulary));
    if (text_size < static_cast<std::size_t>(o.context) + 1 || text_size > UINT32_MAX)
        throw std::invalid_argument("the text has " + std::to_string(text_size) +
                                    " characters; a context of " + std::to_string(o.context) +
                                    " needs at least " + std::to_string(o.context + 1));
}

}  // namespace

SnippetSampler::SnippetSampler(std::vector<int> tokens, SnippetOptions options, std::uint64_t seed)
    : tokens_(std::move(tokens)), options_(options), engine_(static_cast<std::mt19937::result_type>(seed)) {
    check_options(options_, tokens_.size());
}

void SnippetSampler::set_random(int random) {
    SnippetOptions changed = options_;
    changed.random = random;
    check_options(changed, tokens_.size());
    options_ = changed;
}

std::uint32_t SnippetSampler::uniform_below(std::uint32_t bound) {
    return uniform_draw(engine_, bound);
}

Batch SnippetSampler::next() {
    const SnippetOptions& o = options_;
    const std::size_t window = static_cast<std::size_t>(o.context) + 1;
    Batch out{o.batch, o.context, {}};
    out.tokens.reserve(static_cast<std::size_t>(o.batch) * window);
    for (int b = 0; b < o.batch - o.repeated; ++b) {
        const std::size_t start = uniform_below(static_cast<std::uint32_t>(tokens_.size() - window + 1));
        out.tokens.insert(out.tokens.end(), tokens_.begin() + static_cast<std::ptrdiff_t>(start),
                          tokens_.begin() + static_cast<std::ptrdiff_t>(start + window));
    }
    for (int b = 0; b < o.repeated; ++b) add_repeat(out, b >= o.repeated - o.random);
    return out;
}

// One window: a snippet of the text, or a random string, of a drawn length, tiled to fill it.
void SnippetSampler::add_repeat(Batch& out, bool random) {
    const SnippetOptions& o = options_;
    const auto length = static_cast<std::size_t>(o.shortest) +
                        uniform_below(static_cast<std::uint32_t>(o.longest - o.shortest + 1));
    std::vector<int> string(length);
    if (random) {
        for (int& token : string)
            token = static_cast<int>(uniform_below(static_cast<std::uint32_t>(o.vocabulary)));
    } else {
        const std::size_t start = uniform_below(static_cast<std::uint32_t>(tokens_.size() - length + 1));
        std::copy_n(tokens_.begin() + static_cast<std::ptrdiff_t>(start), length, string.begin());
    }
    for (std::size_t t = 0; t <= static_cast<std::size_t>(o.context); ++t)
        out.tokens.push_back(string[t % length]);
}

std::vector<std::vector<int>> random_passages(int vocabulary, int count, int shortest, int longest,
                                              std::uint64_t seed) {
    if (vocabulary < 1 || count < 1 || shortest < 1 || shortest > longest)
        throw std::invalid_argument(
            "vocabulary and count must be at least 1, lengths at least 1 and in order");
    std::mt19937 engine(static_cast<std::mt19937::result_type>(seed));
    const auto uniform_below = [&engine](std::uint32_t bound) { return uniform_draw(engine, bound); };
    std::vector<std::vector<int>> passages(static_cast<std::size_t>(count));
    for (std::vector<int>& passage : passages) {
        const std::uint32_t length = static_cast<std::uint32_t>(shortest) +
                                     uniform_below(static_cast<std::uint32_t>(longest - shortest + 1));
        for (std::uint32_t t = 0; t < length; ++t)
            passage.push_back(static_cast<int>(uniform_below(static_cast<std::uint32_t>(vocabulary))));
    }
    return passages;
}

}  // namespace attention
