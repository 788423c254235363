// bindings.hpp: what the two Emscripten modules' bindings share (cpp/wasm/core_bindings.cpp, the page's
// core, and cpp/wasm/learning_bindings.cpp, the learning section's): requests read by name, checked
// numbers from JavaScript, typed arrays in and out, the names the page uses for scales and
// details, and errors returned as { error } instead of thrown across the boundary.
//
// Every function takes one request object (or nothing) and reads its fields by name
// (web/src/core.js fills in the defaults; web/test/boundary.test.mjs holds every export to
// this), and returns a fresh plain object whose arrays are copies out of wasm memory: JS never
// holds a view into the heap, which would die when memory grows, and never owns a handle it
// must .delete(). A refusal comes back as
// { error: { message, field } }, field naming the request field at fault ("text", "scale", …;
// null when no one field is), so the page puts the message beside that field's control;
// web/src/core.js turns it into a thrown Error carrying .field. Numbers a person types (d, seed,
// T, draws) arrive as doubles and are checked here, so that 2.5 or NaN gets a message instead of
// being truncated silently.
#pragma once

#include "attention/formula.hpp"
#include "attention/kernel/fused.hpp"
#include "attention/statistics.hpp"
#include "trained/copying_head.hpp"
#include "tutorial/map.hpp"

#include <emscripten/val.h>
#include <malloc.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace attention::js {

using emscripten::val;

inline constexpr double kMaxSafeInteger = 9007199254740991.0;  // 2^53 - 1: JS numbers are exact below it

// A refusal that names the request field at fault.
struct FieldError : std::invalid_argument {
    std::string field;
    FieldError(std::string field_name, const std::string& message)
        : std::invalid_argument(message), field(std::move(field_name)) {}
};

// step(), whose refusal is blamed on `field` (a FieldError from inside keeps its own field).
template <typename F>
inline auto in_field(const std::string& field, F&& step) -> decltype(step()) {
    try {
        return step();
    } catch (const FieldError&) {
        throw;
    } catch (const std::invalid_argument& error) {
        throw FieldError(field, error.what());
    }
}

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
    if (count != Matrix::element_count(r, c))
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

// ---- Requests: fields read by name ------------------------------------------------------------

// A request must be a plain object; `function` names the call for the message.
inline void require_request(const val& request, const char* function) {
    if (request.typeOf().as<std::string>() != "object" || request.isNull() || request.isArray())
        throw std::invalid_argument(std::string(function) + " takes one request object { … }");
}

// object[key] if it has the JavaScript type `type`; else a FieldError blaming `field` that names
// the value by `path` ("d", "scale.mode").
inline val typed(const val& object, const char* key, const char* type, const std::string& field,
                 const std::string& path) {
    val value = object[key];
    const std::string actual = value.typeOf().as<std::string>();
    if (actual == type) return value;
    const std::string article = std::string("aeiou").find(type[0]) == std::string::npos ? "a " : "an ";
    if (actual == "undefined") throw FieldError(field, path + " is missing (" + article + type + ")");
    const std::string got = value.isNull() ? "null" : (actual == "object" ? "an " : "a ") + actual;
    throw FieldError(field, path + " must be " + article + type + ", not " + got);
}

inline bool has_field(const val& request, const char* name) {
    return !request[name].isUndefined();
}

inline std::string string_field(const val& request, const char* name) {
    return typed(request, name, "string", name, name).as<std::string>();
}

inline double number_field(const val& request, const char* name) {
    return typed(request, name, "number", name, name).as<double>();
}

inline bool bool_field(const val& request, const char* name) {
    return typed(request, name, "boolean", name, name).as<bool>();
}

inline int int_field(const val& request, const char* name, int low, int high) {
    const double value = number_field(request, name);
    return in_field(name, [&] { return checked_int(value, name, low, high); });
}

inline std::uint64_t seed_field(const val& request, const char* name) {
    const double value = number_field(request, name);
    return in_field(
        name, [&] { return static_cast<std::uint64_t>(checked_integer(value, name, 0, kMaxSafeInteger)); });
}

// An array or typed array of numbers.
inline val array_field(const val& request, const char* name) {
    val value = request[name];
    if (value.typeOf().as<std::string>() == "object" && !value.isNull() && value["length"].isNumber())
        return value;
    if (value.isUndefined()) throw FieldError(name, std::string(name) + " is missing (an array of numbers)");
    throw FieldError(name, std::string(name) + " must be an array of numbers");
}

// A (rows, cols) row-major matrix of the request.
inline Matrix matrix_field(const val& request, const char* name, double rows, double cols) {
    const val array = array_field(request, name);
    return in_field(name, [&] { return matrix_from(array, rows, cols, name); });
}

// One of `choices`, by its name.
template <typename Enum>
inline Enum choice_field(const val& request, const char* name,
                         std::initializer_list<std::pair<const char*, Enum>> choices) {
    const std::string value = string_field(request, name);
    return in_field(name, [&] { return parse_choice<Enum>(name, value, choices); });
}

// A scale: { mode: "sqrt" (1/√d) | "d" (1/d) | "none" | "custom", factor } (factor read only for
// "custom"), the one form a scale has in JavaScript (web/src/lib/scale.js), as Scale is here.
// Its range is checked where its width is known (scale_factor()).
inline Scale scale_field(const val& request, const char* name) {
    const val scale = request[name];
    if (scale.typeOf().as<std::string>() != "object" || scale.isNull() || scale.isArray())
        throw FieldError(name, std::string(name) +
                                   " must be an object { mode: 'sqrt' | 'd' | 'none' | 'custom', factor }");
    const std::string mode =
        typed(scale, "mode", "string", name, std::string(name) + ".mode").as<std::string>();
    const ScaleMode parsed = in_field(name, [&] {
        return parse_choice<ScaleMode>(name, mode,
                                       {{"sqrt", ScaleMode::inverse_sqrt_d},
                                        {"d", ScaleMode::inverse_d},
                                        {"none", ScaleMode::none},
                                        {"custom", ScaleMode::custom}});
    });
    if (parsed != ScaleMode::custom) return Scale{parsed, 1.0};
    if (!has_field(scale, "factor"))
        throw FieldError(
            name, std::string(name) + ".factor is missing: a custom scale needs a factor greater than 0");
    return Scale::custom(typed(scale, "factor", "number", name, std::string(name) + ".factor").as<double>());
}

// One token per "chars" (character) or "words".
inline TokenMode tokens_field(const val& request, const char* name) {
    return choice_field<TokenMode>(request, name,
                                   {{"chars", TokenMode::characters}, {"words", TokenMode::words}});
}

// How much of the working a map returns: "all", "first-rows" (kWorkingRows queries) or "weights".
inline MapDetail detail_field(const val& request, const char* name) {
    return choice_field<MapDetail>(request, name,
                                   {{"all", MapDetail::all},
                                    {"first-rows", MapDetail::first_rows},
                                    {"weights", MapDetail::weights_only}});
}

// The result of a refusal: { error: { message, field } }.
inline val error_object(const std::string& message, val field) {
    val error = val::object();
    error.set("message", message);
    error.set("field", field);
    val result = val::object();
    result.set("error", error);
    return result;
}

template <typename F>
inline val guarded(F&& compute) {
    try {
        return compute();
    } catch (const FieldError& error) {
        return error_object(error.what(), val(error.field));
    } catch (const std::exception& error) {
        return error_object(error.what(), val::null());
    }
}

// The weights, the factor their scores were scaled by, and each row's shape.
inline void set_weights(val& result, const Intermediates& head, const RowStatistics& stats) {
    result.set("scaleFactor", head.scale);
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
// (attentionMap, trainedHeadMap and copyingHeadMap return the same fields; each adds its recipe's names).
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

// A layered model's map of one layer (copyingHeadMap for the saved head, growthMap for the growing
// one): map_object's fields, its recipe's names, layer, rowsWithEarlier, rowsIntoCopy, and next:
// the likeliest next characters, [{ character, probability }], likeliest first.
inline val copying_map_object(const CopyingHeadMap& map, int d) {
    val result = map_object(map.tokens, d, map.q, map.k, map.v, map.head, map.stats);
    result.set("init", std::string("trained"));
    result.set("pos", std::string("learned"));
    result.set("layer", map.layer);
    result.set("rowsWithEarlier", static_cast<double>(map.rows_with_earlier));
    result.set("rowsIntoCopy", static_cast<double>(map.rows_into_copy));
    val next = val::array();
    for (const NextGuess& guess : map.next) {
        val item = val::object();
        item.set("character", guess.character);
        item.set("probability", guess.probability);
        next.call<void>("push", item);
    }
    result.set("next", next);
    return result;
}

// Bytes the core's allocator has handed out and not had back: a leak shows as growth here
// between two calls that should leave nothing behind (the wasm memory itself never shrinks).
inline double heap_in_use() {
    return static_cast<double>(mallinfo().uordblks);
}

}  // namespace attention::js
