// Tests of Matrix's constructors (cpp/attention/matrix.cpp): shapes past the core's limits are
// refused with a message naming the shape and the limit; and of its row-major offsets, worked
// out by hand, including past INT_MAX.
#include "catch.hpp"
#include "test_support.hpp"

#include "attention/matrix.hpp"

#include <cstddef>
#include <string>

using namespace attention;
using test_support::contains;
using test_support::invalid_argument_message;

TEST_CASE("a bad matrix shape is rejected with a message naming the limit", "[matrix][errors]") {
    using Call = void (*)();
    const auto [what, call, expected] = GENERATE(table<const char*, Call, const char*>({
        {"too few values for a shape",
         [] {
             Matrix(2, 2, {1, 2, 3});
         },
         "needs 4 values, got 3"},
        {"negative shape", [] { Matrix(-1, 2); }, "is negative"},
        {"a matrix over the element limit", [] { Matrix(1 << 14, 1 << 13); }, "the limit is 67108864"},
    }));
    const std::string message = invalid_argument_message(call);
    CAPTURE(what, message);
    REQUIRE(contains(message, expected));
}

TEST_CASE("an entry's offset is row-major, and passes INT_MAX without overflow", "[matrix]") {
    const auto [row, col, cols, offset] = GENERATE(table<int, int, int, std::size_t>({
        {0, 0, 3, 0},
        {0, 2, 3, 2},
        {1, 0, 3, 3},
        {2, 1, 3, 7},
        {65536, 3, 65536, (std::size_t{1} << 32) + 3},
    }));
    CAPTURE(row, col, cols);
    REQUIRE(Matrix::index(row, col, cols) == offset);
}

TEST_CASE("a shape's size is rows times columns, past INT_MAX too, and row(i)[j] is entry (i, j)",
          "[matrix]") {
    REQUIRE(Matrix::element_count(2, 3) == 6);
    REQUIRE(Matrix::element_count(0, 4096) == 0);
    REQUIRE(Matrix::element_count(65536, 65536) == std::size_t{1} << 32);
    const Matrix m(2, 3, {1, 2, 3, 4, 5, 6});
    REQUIRE(m.row(1)[0] == 4.0f);
    REQUIRE(m.at(1, 2) == 6.0f);
}
