// small_pieces.cpp: fuzz_small_pieces, the small entry points: both Matrix constructors,
// sinusoidal_positions, scale_factor and scale_name, on shapes and scales at and past their limits.
#include "oracle.hpp"
#include "targets/targets.hpp"
#include "tutorial/map.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace fuzz {

namespace {

constexpr std::size_t kMaxAllocation = std::size_t{1} << 16;  // elements we allocate per valid call

}  // namespace

void fuzz_small_pieces(FuzzInput& in) {
    const std::initializer_list<int> edges{-1,      INT_MIN,       INT_MAX, 1 << 13, (1 << 13) + 1,
                                           1 << 26, (1 << 26) + 1, 65536};
    const int rows = int_from_byte(in.byte(), 0, 70, edges), cols = int_from_byte(in.byte(), 0, 70, edges);
    const int extra = in.byte() % 5 - 2;
    const bool negative = rows < 0 || cols < 0;
    const std::size_t count = negative ? 0 : Matrix::element_count(rows, cols);
    const bool too_many = !negative && count > attention::kMaxInputElements;
    const std::string shape_problem = negative   ? "negative shape"
                                      : too_many ? "more than kMaxInputElements"
                                                 : "";

    if (!shape_problem.empty() || count <= kMaxAllocation) {
        Matrix zeros;
        if (returns_exactly_when_valid("Matrix(rows, cols)", shape_problem,
                                       [&] { zeros = Matrix(rows, cols); }))
            require(zeros.values == std::vector<float>(count, 0.0f), "Matrix(rows, cols) is not all zeros");
        // (INT_MAX, 0) is a valid shape, but walking its INT_MAX empty rows only costs time.
        Matrix pe;
        const bool cheap = count > 0 || rows <= 4096;
        if (cheap && returns_exactly_when_valid("sinusoidal_positions", shape_problem,
                                                [&] { pe = attention::sinusoidal_positions(rows, cols); }))
            for (int t = 0; t < rows; ++t)
                for (int c = 0; c < cols; ++c) {
                    const double angle = t / std::pow(10000.0, 2.0 * (c / 2) / cols);
                    const double expected = c % 2 == 0 ? std::sin(angle) : std::cos(angle);
                    require(std::fabs(pe.row(t)[c] - expected) <= 1e-6, "pe[%d][%d] = %g, expected %g", t, c,
                            static_cast<double>(pe.row(t)[c]), expected);
                }
    }
    if (count <= kMaxAllocation) {
        const auto given =
            static_cast<std::size_t>(std::max<long long>(0, static_cast<long long>(count) + extra));
        const std::string problem = !shape_problem.empty() ? shape_problem
                                    : given != count       ? "value count differs from rows·cols"
                                                           : "";
        Matrix filled;
        returns_exactly_when_valid("Matrix(rows, cols, values)", problem,
                                   [&] { filled = Matrix(rows, cols, std::vector<float>(given)); });
    }

    const Scale scale = scale_from(in);
    const int d = int_from_byte(in.byte(), -2, 70, {INT_MIN, INT_MAX, attention::kMaxWidth});
    const std::optional<double> expected = documented_scale(scale, d);
    double factor = 0;
    if (returns_exactly_when_valid("scale_factor", expected ? "" : "bad scale or d < 1",
                                   [&] { factor = attention::scale_factor(scale, d); }))
        require(std::fabs(factor - *expected) <= 4 * DBL_EPSILON * *expected,
                "scale_factor = %.17g, expected %.17g", factor, *expected);
    std::string name;
    returns_exactly_when_valid("scale_name", "", [&] { name = attention::scale_name(scale); });
    require(!name.empty(), "scale_name is empty");
}

}  // namespace fuzz
