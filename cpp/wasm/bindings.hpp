// bindings.hpp: what the two Emscripten modules' bindings share (cpp/wasm/core_bindings.cpp, the page's
// core, and cpp/wasm/learning_bindings.cpp, the learning section's): checked numbers from
// JavaScript, typed arrays in and out, the names the page uses for scales and details, and
// errors returned as { error } instead of thrown across the boundary.
//
// Every function takes typed arrays (or plain arrays) and numbers, and returns a fresh plain
// object whose arrays are copies out of wasm memory: JS never holds a view into the heap,
// which would die when memory grows, and never owns a handle it must .delete(). A core
// exception comes back as { error: "message" }; web/src/core.js turns that into a thrown
// Error. Numbers a person types (d, seed, T, draws) arrive as doubles and are checked here,
// so that 2.5 or NaN gets a message instead of being truncated silently.
#pragma once

#include "attention/formula.hpp"
#include "attention/kernel/fused.hpp"
#include "attention/statistics.hpp"
#include "tutorial/map.hpp"

#include <emscripten/val.h>
#include <malloc.h>

#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace attention::js {

using emscripten::val;

inline constexpr double kMaxSafeInteger = 9007199254740991.0;  // 2^53 - 1: JS numbers are exact below it

inline double checked_integer(double value, const char* name, double low, double high) {
    if (!std::isfinite(value) || std::floor(value) != value)
        throw std::invalid_argument(std::string(name) + " must be a whole number");
    if (value < low || value > high) {
        char message[160];
        std::snprintf(message, sizeof message, "%s = %.17g is outside %.17g…%.17g", name, value, low, high);
        throw std::invalid_argument(message);
    }
    return value;
}

inline int checked_int(double value, const char* name, int low, int high) {
    return static_cast<int>(checked_integer(value, name, low, high));
}

// A typed array (or plain array) of rows × cols numbers as a Matrix. Not through emscripten's
// convertJSArrayToNumberVector, which zero-fills a vector here, in the bindings compiled for
// size (CMakeLists.txt), one store per number: 6% of a fused() call at T = 1024 (Node 20's
// profiler). Matrix's constructor zero-fills in attention/matrix.cpp, compiled for speed, and one
// typed-array copy then overwrites it.
inline Matrix matrix_from(const val& array, double rows, double cols, const char* name) {
    const int r = checked_int(rows, (std::string(name) + " rows").c_str(), 0, 1 << 30);
    const int c = checked_int(cols, (std::string(name) + " columns").c_str(), 0, 1 << 30);
    const auto count = array["length"].as<std::size_t>();
    if (count != static_cast<std::size_t>(r) * static_cast<std::size_t>(c))
        throw std::invalid_argument(std::string(name) + " has " + std::to_string(count) + " values; shape (" +
                                    std::to_string(r) + ", " + std::to_string(c) + ") needs " +
                                    std::to_string(r * c));
    Matrix m(r, c);
    val(emscripten::typed_memory_view(count, m.values.data())).call<void>("set", array);
    return m;
}

// A copy, so the caller's array survives any later growth of wasm memory.
template <typename T>
inline val copy_out(const std::vector<T>& values) {
    return val(emscripten::typed_memory_view(values.size(), values.data())).call<val>("slice");
}

inline val matrix_object(const Matrix& m) {
    return copy_out(m.values);
}

// The enum value that `value` names among `choices`, or an error listing them all.
template <typename Enum>
inline Enum parse_choice(const char* argument, const std::string& value,
                         std::initializer_list<std::pair<const char*, Enum>> choices) {
    std::string names;
    for (const auto& [name, choice] : choices) {
        if (value == name) return choice;
        names += (names.empty() ? "" : ", ") + std::string(name);
    }
    throw std::invalid_argument(std::string(argument) + " \"" + value + "\" is not one of " + names);
}

// URL-style names: "sqrt" (1/√d), "d" (1/d), "none", or "custom" with a factor.
inline Scale parse_scale(const std::string& mode, double factor) {
    const ScaleMode parsed = parse_choice<ScaleMode>("scale", mode,
                                                     {{"sqrt", ScaleMode::inverse_sqrt_d},
                                                      {"d", ScaleMode::inverse_d},
                                                      {"none", ScaleMode::none},
                                                      {"custom", ScaleMode::custom}});
    return parsed == ScaleMode::custom ? Scale::custom(factor) : Scale{parsed, 1.0};
}

// One token per "chars" (character) or "words".
inline TokenMode parse_tokens(const std::string& tokens) {
    return parse_choice<TokenMode>("tokens", tokens,
                                   {{"chars", TokenMode::characters}, {"words", TokenMode::words}});
}

// How much of the working a map returns: "all", "first-rows" (kWorkingRows queries) or "weights".
inline MapDetail parse_detail(const std::string& detail) {
    return parse_choice<MapDetail>("detail", detail,
                                   {{"all", MapDetail::all},
                                    {"first-rows", MapDetail::first_rows},
                                    {"weights", MapDetail::weights_only}});
}

template <typename F>
inline val guarded(F&& compute) {
    try {
        return compute();
    } catch (const std::exception& error) {
        val result = val::object();
        result.set("error", std::string(error.what()));
        return result;
    }
}

// The weights, what their softmax divided by, and each row's shape.
inline void set_weights(val& result, const Intermediates& head, const RowStatistics& stats) {
    result.set("scale", head.scale);
    result.set("weights", matrix_object(head.weights));
    result.set("rowMax", copy_out(head.row_max));
    result.set("rowSum", copy_out(head.row_sum));
    result.set("peakWeight", copy_out(stats.peak_weight));
    result.set("entropy", copy_out(stats.entropy_nats));
    result.set("effectiveTokens", copy_out(stats.effective_tokens));
}

// The working that leads to the weights, and the output they make, for the rows that kept it
// (workingRows: all T, the first few, or none).
inline void set_working(val& result, const Intermediates& head) {
    result.set("workingRows", head.raw_scores.rows);
    if (head.raw_scores.rows == 0) return;
    result.set("rawScores", matrix_object(head.raw_scores));
    result.set("scaledScores", matrix_object(head.scaled_scores));
    result.set("maskedScores", matrix_object(head.masked_scores));
    result.set("output", matrix_object(head.output));
}

// What the page draws of a map: its tokens and width, q, k, v, the weights and their working
// (attentionMap and learnedHeadMap return the same fields; each adds its recipe's names).
inline val map_object(const std::vector<std::string>& tokens, int d, const Matrix& q, const Matrix& k,
                      const Matrix& v, const Intermediates& head, const RowStatistics& stats) {
    val result = val::object();
    val token_list = val::array();
    for (const std::string& token : tokens) token_list.call<void>("push", token);
    result.set("tokens", token_list);
    result.set("T", q.rows);
    result.set("d", d);
    result.set("q", matrix_object(q));
    result.set("k", matrix_object(k));
    result.set("v", matrix_object(v));
    set_weights(result, head, stats);
    set_working(result, head);
    return result;
}

// Bytes the core's allocator has handed out and not had back: a leak shows as growth here
// between two calls that should leave nothing behind (the wasm memory itself never shrinks).
inline double heap_in_use() {
    return static_cast<double>(mallinfo().uordblks);
}

}  // namespace attention::js
