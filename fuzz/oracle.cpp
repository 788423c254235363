// oracle.cpp: failing loudly, the printout of what a run observed, and our own verdicts on
// inputs (oracle.hpp says what each one is).
#include "oracle.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace fuzz {

namespace {

[[noreturn]] void report_and_abort(const char* format, va_list arguments) {
    std::fprintf(stderr, "\n==fuzz_attention== INVARIANT BROKEN: ");
    std::vfprintf(stderr, format, arguments);
    std::fprintf(stderr, "\n");
    std::abort();
}

}  // namespace

void fail(const char* format, ...) {
    va_list arguments;
    va_start(arguments, format);
    report_and_abort(format, arguments);
}

void require(bool condition, const char* format, ...) {
    if (condition) return;
    va_list arguments;
    va_start(arguments, format);
    report_and_abort(format, arguments);
}

void print_observed() {
    std::fprintf(stderr,
                 "fuzz_attention: %ld valid heads, %ld rejected; max |fused-formula|/max|v| = %.3g (%.3g of "
                 "the tolerance); "
                 "max |formula-f64| = %.3g of the tolerance\n",
                 observed.valid_heads, observed.invalid_heads, observed.fused_vs_formula,
                 observed.fused_vs_formula_tol, observed.formula_vs_f64_tol);
}

bool all_finite(const Matrix& m) {
    return std::all_of(m.values.begin(), m.values.end(), [](float x) { return std::isfinite(x); });
}

double max_abs(const Matrix& m) {
    double largest = 0;
    for (float x : m.values) largest = std::max(largest, std::fabs(static_cast<double>(x)));
    return largest;
}

std::optional<double> documented_scale(Scale scale, int d) {
    if (d < 1) return std::nullopt;
    switch (scale.mode) {
        case ScaleMode::inverse_sqrt_d:
            return 1.0 / std::sqrt(static_cast<double>(d));
        case ScaleMode::inverse_d:
            return 1.0 / d;
        case ScaleMode::none:
            return 1.0;
        case ScaleMode::custom:
            if (scale.factor >= attention::kMinScaleFactor && scale.factor <= attention::kMaxScaleFactor)
                return scale.factor;
            return std::nullopt;
    }
    return std::nullopt;  // a value outside the enum
}

std::string head_problem(const Matrix& q, const Matrix& k, const Matrix& v, Scale scale) {
    if (q.rows < 1) return "T < 1";
    if (q.cols < 1) return "d < 1";
    if (v.cols < 1) return "d_v < 1";
    if (k.rows != q.rows || k.cols != q.cols) return "k is not (T, d)";
    if (v.rows != q.rows) return "v does not have T rows";
    if (q.cols > attention::kMaxWidth || v.cols > attention::kMaxWidth) return "width above kMaxWidth";
    if (!all_finite(q) || !all_finite(k) || !all_finite(v)) return "non-finite value in q, k or v";
    const std::optional<double> factor = documented_scale(scale, q.cols);
    if (!factor) return "bad scale";
    // checks.cpp: Q·Kᵀ must not be able to overflow: d·max|q|·max|k|·max(1, scale) <= FLT_MAX/4.
    const double bound = q.cols * max_abs(q) * max_abs(k) * std::max(1.0, *factor);
    if (!(bound <= static_cast<double>(FLT_MAX) / 4)) return "d*max|q|*max|k|*scale above FLT_MAX/4";
    return "";
}

std::string formula_problem(const Matrix& q, const Matrix& k, const Matrix& v, Scale scale) {
    std::string problem = head_problem(q, k, v, scale);
    if (problem.empty() && q.rows > attention::kMaxFormulaT) problem = "T above kMaxFormulaT";
    return problem;
}

std::optional<std::vector<std::pair<std::string, char32_t>>> strict_utf8(const std::string& text) {
    std::vector<std::pair<std::string, char32_t>> points;
    std::size_t i = 0;
    while (i < text.size()) {
        const auto b0 = static_cast<unsigned char>(text[i]);
        // Sequence length, bits of the lead byte, and the allowed range of the second byte.
        std::size_t length = 0;
        char32_t point = 0;
        unsigned char low = 0x80, high = 0xBF;
        if (b0 < 0x80) {
            length = 1;
            point = b0;
        } else if (b0 >= 0xC2 && b0 <= 0xDF) {
            length = 2;
            point = b0 & 0x1Fu;
        } else if (b0 >= 0xE0 && b0 <= 0xEF) {
            length = 3;
            point = b0 & 0x0Fu;
            if (b0 == 0xE0) low = 0xA0;   // overlong below U+0800
            if (b0 == 0xED) high = 0x9F;  // surrogates U+D800…U+DFFF
        } else if (b0 >= 0xF0 && b0 <= 0xF4) {
            length = 4;
            point = b0 & 0x07u;
            if (b0 == 0xF0) low = 0x90;   // overlong below U+10000
            if (b0 == 0xF4) high = 0x8F;  // past U+10FFFF
        } else {
            return std::nullopt;
        }
        if (i + length > text.size()) return std::nullopt;
        for (std::size_t n = 1; n < length; ++n) {
            const auto b = static_cast<unsigned char>(text[i + n]);
            if (b < (n == 1 ? low : 0x80) || b > (n == 1 ? high : 0xBF)) return std::nullopt;
            point = (point << 6) | (b & 0x3F);
        }
        points.emplace_back(text.substr(i, length), point);
        i += length;
    }
    return points;
}

}  // namespace fuzz
