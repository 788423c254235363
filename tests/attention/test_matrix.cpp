// Tests of Matrix's constructors (cpp/attention/matrix.cpp): shapes past the core's limits are
// refused with a message naming the shape and the limit.
#include "catch.hpp"
#include "test_support.hpp"

#include "attention/matrix.hpp"

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
