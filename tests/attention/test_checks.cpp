// Tests of the input checks (cpp/attention/checks.cpp) through every entry point that runs
// them: bad shapes, sizes, scales and non-finite values are refused with a message naming the
// argument and the limit.
#include "catch.hpp"
#include "test_support.hpp"

#include "attention/formula.hpp"
#include "attention/kernel/fused.hpp"
#include "attention/reference.hpp"

#include <cmath>
#include <limits>
#include <string>

using namespace attention;
using test_support::contains;
using test_support::invalid_argument_message;
using test_support::random_matrix;

namespace {

// Inputs for the error table: built inside each call, so that the table's rows (which
// GENERATE keeps across the test's runs) hold no references to a run's locals.
Matrix q_ok() {
    return random_matrix(4, 3, 31);
}
Matrix k_ok() {
    return random_matrix(4, 3, 32);
}
Matrix v_ok() {
    return random_matrix(4, 2, 33);
}
Matrix with_entry(Matrix m, int i, int j, float value) {
    m.row(i)[j] = value;
    return m;
}
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInfinity = std::numeric_limits<float>::infinity();

}  // namespace

TEST_CASE("bad input is rejected with a message naming the argument and the limit", "[errors]") {
    using Call = void (*)();
    const auto [what, call, expected] = GENERATE(table<const char*, Call, const char*>({
        {"k of another width", [] { formula(q_ok(), random_matrix(4, 2, 1), v_ok(), Scale::none(), false); },
         "keys and queries must both be (T, d)"},
        {"v of another length", [] { fused(q_ok(), k_ok(), random_matrix(3, 2, 1), Scale::none(), false); },
         "every token needs one value row"},
        {"T = 0", [] { formula(Matrix(0, 3), Matrix(0, 3), Matrix(0, 2), Scale::none(), false); },
         "at least 1 token"},
        {"d = 0", [] { fused(Matrix(4, 0), Matrix(4, 0), v_ok(), Scale::none(), false); },
         "head width d must be at least 1"},
        {"d_v = 0", [] { formula(q_ok(), k_ok(), Matrix(4, 0), Scale::none(), false); },
         "value width must be at least 1"},
        {"zero scale", [] { formula(q_ok(), k_ok(), v_ok(), Scale::custom(0.0), false); }, "greater than 0"},
        {"negative scale", [] { fused(q_ok(), k_ok(), v_ok(), Scale::custom(-1.0), false); },
         "greater than 0"},
        {"NaN scale", [] { formula(q_ok(), k_ok(), v_ok(), Scale::custom(std::nan("")), false); },
         "finite number"},
        {"infinite scale", [] { reference_f64(q_ok(), k_ok(), v_ok(), Scale::custom(HUGE_VAL), false); },
         "finite number"},
        {"a scale past float32's range", [] { formula(q_ok(), k_ok(), v_ok(), Scale::custom(1e39), false); },
         "scale factor 1e+39 must be a finite number greater than 0, from 1e-30 to 1e30"},
        {"a scale that rounds to 0 in float32",
         [] { fused(q_ok(), k_ok(), v_ok(), Scale::custom(1e-46), false); }, "from 1e-30 to 1e30"},
        {"NaN in q", [] { formula(with_entry(q_ok(), 1, 2, kNaN), k_ok(), v_ok(), Scale::none(), false); },
         "q[1][2] is NaN"},
        {"inf in k",
         [] { fused(q_ok(), with_entry(k_ok(), 3, 0, -kInfinity), v_ok(), Scale::none(), false); },
         "k[3][0] is infinite"},
        {"NaN in v",
         [] { reference_f64(q_ok(), k_ok(), with_entry(v_ok(), 0, 1, kNaN), Scale::none(), false); },
         "v[0][1] is NaN"},
        {"NaN in k, weights only",
         [] { attention_weights(q_ok(), with_entry(k_ok(), 2, 1, kNaN), Scale::none(), false); },
         "k[2][1] is NaN"},
        {"scores that would overflow",
         [] {
             formula(Matrix(2, 1, {1e20f, 1}), Matrix(2, 1, {1e20f, 1}), Matrix(2, 1), Scale::none(), false);
         },
         "would overflow float32"},
        {"T over the formula's budget",
         [] { formula(Matrix(4097, 1), Matrix(4097, 1), Matrix(4097, 1), Scale::none(), false); },
         "the limit is T = 4096"},
        {"T over the budget, weights only",
         [] { attention_weights(Matrix(4097, 1), Matrix(4097, 1), Scale::none(), false); },
         "the limit is T = 4096"},
        {"key tile of 0", [] { fused(q_ok(), k_ok(), v_ok(), Scale::none(), false, 0); },
         "key_tile = 0 must be at least 1"},
        {"a cell's score at width 0", [] { score_of(q_ok().row(0), k_ok().row(0), 0, 1.0); },
         "from 1 to 4096"},
        {"NaN in a cell's query row",
         [] { score_of(with_entry(q_ok(), 0, 1, kNaN).row(0), k_ok().row(0), q_ok().cols, 1.0); },
         "q row[0][1] is NaN"},
    }));
    const std::string message = invalid_argument_message(call);
    CAPTURE(what, message);
    REQUIRE(contains(message, expected));
}
