// Tests of LayerNorm's forward and hand-written backward: against PyTorch autograd in float32 and
// float64 (tests/fixtures/layer_norm.json), and against central finite differences in float64.
#include "catch.hpp"
#include "test_support.hpp"

#include "learning/layered/layer_norm.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace attention;

namespace {

const nlohmann::json& layer_norm_fixture() {
    static const nlohmann::json document = test_support::fixture("layer_norm.json");
    return document;
}

template <typename Real>
std::vector<Real> field(const nlohmann::json& c, const char* name) {
    return c.at(name).get<std::vector<Real>>();
}

// max |mine − reference| / max |reference|.
template <typename A, typename B>
double relative_difference(const A& mine, const B& reference) {
    double largest = 1e-300;
    for (auto x : reference) largest = std::max(largest, std::fabs(static_cast<double>(x)));
    return test_support::max_abs_difference(mine, reference) / largest;
}

template <typename Real>
struct LayerNormResult {
    std::vector<Real> y, dx, dgain, dbias;
};

template <typename Real, bool Fast = false>
LayerNormResult<Real> run(const std::vector<Real>& x, const std::vector<Real>& gain,
                          const std::vector<Real>& bias, const std::vector<Real>& dy, int rows, int d) {
    LayerNormResult<Real> out{std::vector<Real>(x.size()), std::vector<Real>(x.size(), Real(0)),
                              std::vector<Real>(gain.size(), Real(0)),
                              std::vector<Real>(gain.size(), Real(0))};
    std::vector<double> mean(static_cast<std::size_t>(rows)), rstd(static_cast<std::size_t>(rows));
    layer_norm_forward<Real, Fast>(out.y.data(), mean.data(), rstd.data(), x.data(), gain.data(), bias.data(),
                                   rows, d);
    layer_norm_backward<Real, Fast>(out.dx.data(), out.dgain.data(), out.dbias.data(), dy.data(), x.data(),
                                    mean.data(), rstd.data(), gain.data(), rows, d);
    return out;
}

// Σ dy ∘ LN(x), whose gradient with respect to x, gain and bias the backward computes.
double projected(const std::vector<double>& x, const std::vector<double>& gain,
                 const std::vector<double>& bias, const std::vector<double>& dy, int rows, int d) {
    std::vector<double> y(x.size()), mean(static_cast<std::size_t>(rows)),
        rstd(static_cast<std::size_t>(rows));
    layer_norm_forward(y.data(), mean.data(), rstd.data(), x.data(), gain.data(), bias.data(), rows, d);
    double sum = 0;
    for (std::size_t e = 0; e < y.size(); ++e) sum += y[e] * dy[e];
    return sum;
}

// Fourth-order central differences of projected() along every entry of one of its inputs
// (`which`): (8·(f(+h) − f(−h)) − (f(+2h) − f(−2h))) / 12h, whose error term is of order h⁴. The
// step is the power of two nearest 1e-3 of the entry's row's √(var + eps) (LN's own length
// scale), so that centre ± h and ± 2h are exact even where the centre is far from 0 (the −3000
// case), and rounding stays near 1e-10.
std::vector<double> finite_differences(std::vector<double> x, std::vector<double> gain,
                                       std::vector<double> bias, const std::vector<double>& dy, int rows,
                                       int d, int which) {
    std::vector<double>& varied = which == 0 ? x : which == 1 ? gain : bias;
    const auto step_for = [&](std::size_t e) {
        if (which != 0) return std::exp2(-10.0);
        const auto row = x.begin() + static_cast<std::ptrdiff_t>(e / static_cast<std::size_t>(d) *
                                                                 static_cast<std::size_t>(d));
        double mean = 0, squares = 0;
        for (auto v = row; v != row + d; ++v) mean += *v / d;
        for (auto v = row; v != row + d; ++v) squares += (*v - mean) * (*v - mean) / d;
        return std::exp2(std::round(std::log2(1e-3 * std::sqrt(squares + kLayerNormEpsilon))));
    };
    const auto at = [&](std::size_t e, double centre, double offset) {
        varied[e] = centre + offset;
        return projected(x, gain, bias, dy, rows, d);
    };
    std::vector<double> slopes(varied.size());
    for (std::size_t e = 0; e < varied.size(); ++e) {
        const double centre = varied[e], step = step_for(e);
        const double near = at(e, centre, step) - at(e, centre, -step);
        const double far = at(e, centre, 2 * step) - at(e, centre, -2 * step);
        varied[e] = centre;
        slopes[e] = (8 * near - far) / (12 * step);
    }
    return slopes;
}

}  // namespace

TEST_CASE("layer norm's float64 forward and backward match PyTorch's float64 autograd",
          "[layer_norm][torch]") {
    const std::size_t count = layer_norm_fixture().at("cases").size();
    const std::size_t n = GENERATE_COPY(range(std::size_t{0}, count));
    const nlohmann::json& c = layer_norm_fixture().at("cases")[n];
    const int rows = c.at("rows"), d = c.at("d");
    const double offset = c.at("offset"), stddev = c.at("stddev");
    CAPTURE(n, rows, d, offset, stddev);
    const auto mine = run<double>(field<double>(c, "x"), field<double>(c, "gain"), field<double>(c, "bias"),
                                  field<double>(c, "dy"), rows, d);
    const double y = relative_difference(mine.y, field<double>(c, "y64"));
    const double dx = relative_difference(mine.dx, field<double>(c, "dx64"));
    const double dgain = relative_difference(mine.dgain, field<double>(c, "dgain64"));
    const double dbias = relative_difference(mine.dbias, field<double>(c, "dbias64"));
    CAPTURE(y, dx, dgain, dbias);
    REQUIRE(std::max({y, dx, dgain, dbias}) < 1e-9);
}

TEST_CASE("layer norm's float32 backward matches PyTorch's float32 autograd to 1e-4", "[layer_norm][torch]") {
    const std::size_t count = layer_norm_fixture().at("cases").size();
    const std::size_t n = GENERATE_COPY(range(std::size_t{0}, count));
    const nlohmann::json& c = layer_norm_fixture().at("cases")[n];
    const int rows = c.at("rows"), d = c.at("d");
    const double offset = c.at("offset"), stddev = c.at("stddev");
    CAPTURE(n, rows, d, offset, stddev);
    const auto mine = run<float>(field<float>(c, "x"), field<float>(c, "gain"), field<float>(c, "bias"),
                                 field<float>(c, "dy"), rows, d);
    // Against float64 autograd: torch's own float32 loses digits to x − mean in the far-offset cases.
    const double y = relative_difference(mine.y, field<double>(c, "y64"));
    const double dx = relative_difference(mine.dx, field<double>(c, "dx64"));
    const double dgain = relative_difference(mine.dgain, field<double>(c, "dgain64"));
    const double dbias = relative_difference(mine.dbias, field<double>(c, "dbias64"));
    const double torch_dx = relative_difference(field<float>(c, "dx"), field<double>(c, "dx64"));
    CAPTURE(y, dx, dgain, dbias, torch_dx);
    REQUIRE(std::max({y, dx, dgain, dbias}) < 1e-4);
}

TEST_CASE("layer norm's fast path matches PyTorch's float64 autograd to 1e-4 on rows of the scale it meets",
          "[layer_norm][torch][fast]") {
    const std::size_t count = layer_norm_fixture().at("cases").size();
    const std::size_t n = GENERATE_COPY(range(std::size_t{0}, count));
    const nlohmann::json& c = layer_norm_fixture().at("cases")[n];
    const int rows = c.at("rows"), d = c.at("d");
    const double offset = c.at("offset"), stddev = c.at("stddev");
    // Float sums lose x − mean to cancellation on rows far from 0 against their spread: the
    // fast path is for a training run's residual stream, which stays near 0 (the −3000 and
    // 100 ± 10 cases are the reference's alone).
    if (std::fabs(offset) > 10 * stddev) return;
    CAPTURE(n, rows, d, offset, stddev);
    const auto mine = run<float, true>(field<float>(c, "x"), field<float>(c, "gain"), field<float>(c, "bias"),
                                       field<float>(c, "dy"), rows, d);
    const double y = relative_difference(mine.y, field<double>(c, "y64"));
    const double dx = relative_difference(mine.dx, field<double>(c, "dx64"));
    const double dgain = relative_difference(mine.dgain, field<double>(c, "dgain64"));
    const double dbias = relative_difference(mine.dbias, field<double>(c, "dbias64"));
    // Where float32 itself cannot reach 1e-4 (d = 2, whose dx is nearly all cancellation), the
    // bound is twice what PyTorch's own float32 autograd is off by.
    const double torch =
        std::max({relative_difference(field<float>(c, "y"), field<double>(c, "y64")),
                  relative_difference(field<float>(c, "dx"), field<double>(c, "dx64")),
                  relative_difference(field<float>(c, "dgain"), field<double>(c, "dgain64")),
                  relative_difference(field<float>(c, "dbias"), field<double>(c, "dbias64"))});
    CAPTURE(y, dx, dgain, dbias, torch);
    REQUIRE(std::max({y, dx, dgain, dbias}) < std::max(1e-4, 2 * torch));
}

TEST_CASE("layer norm's backward matches finite differences in float64 to 1e-8", "[layer_norm][finite]") {
    const std::size_t count = layer_norm_fixture().at("cases").size();
    const std::size_t n = GENERATE_COPY(range(std::size_t{0}, count));
    const int which = GENERATE(0, 1, 2);  // x, gain, bias
    const nlohmann::json& c = layer_norm_fixture().at("cases")[n];
    const int rows = c.at("rows"), d = c.at("d");
    const double stddev = c.at("stddev");
    const auto x = field<double>(c, "x"), gain = field<double>(c, "gain"), bias = field<double>(c, "bias"),
               dy = field<double>(c, "dy");
    CAPTURE(n, rows, d, stddev, which);
    const auto mine = run<double>(x, gain, bias, dy, rows, d);
    const std::vector<double>& analytic = which == 0 ? mine.dx : which == 1 ? mine.dgain : mine.dbias;
    const double difference =
        relative_difference(finite_differences(x, gain, bias, dy, rows, d, which), analytic);
    CAPTURE(difference);
    REQUIRE(difference < 1e-8);
}
