// map.cpp: fuzz_map, the map's recipe (map_inputs, attention_map, score_of): its draws in the
// documented order, q and k as x·W (rotated for rope), then the head's checks on what it made.
#include "tutorial/map.hpp"
#include "head_checks.hpp"
#include "targets/targets.hpp"
#include "tutorial/tokenize.hpp"
#include "tutorial/torch_random.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace fuzz {

namespace {

// Rope at position t on exact q and k rows (tutorial/map.hpp: pair (i, i + d/2), angle
// t·10000^(-2i/d)). The rows' own error bound carries through the turn (each output mixes two
// inputs), plus one rounding of each output and of the products.
void rotate_exactly(std::vector<double>& q, std::vector<double>& k, std::vector<double>& tolerance, int t) {
    const std::size_t half = q.size() / 2;
    for (std::size_t i = 0; i < half; ++i) {
        const double angle =
            t * std::pow(10000.0, -2.0 * static_cast<double>(i) / static_cast<double>(q.size()));
        const double cos_angle = std::cos(angle), sin_angle = std::sin(angle);
        for (std::vector<double>* row : {&q, &k}) {
            const double a = (*row)[i], b = (*row)[i + half];
            (*row)[i] = a * cos_angle - b * sin_angle;
            (*row)[i + half] = b * cos_angle + a * sin_angle;
        }
        const double carried = tolerance[i] + tolerance[i + half];
        const double rounding =
            4 * kUnit *
            (std::fabs(q[i]) + std::fabs(q[i + half]) + std::fabs(k[i]) + std::fabs(k[i + half]) + carried);
        tolerance[i] = tolerance[i + half] = carried + rounding;
    }
}

// Costs we are willing to pay per input for a valid recipe (multiply-adds in map_inputs).
constexpr double kMaxMapWork = 4e6;

struct MapCase {
    attention::MapRecipe recipe;
    Scale scale;
    bool causal = false;
    int key_tile = 1;
};

MapCase map_case_from(FuzzInput& in) {
    const std::uint8_t flags = in.byte();
    MapCase c;
    attention::MapRecipe& recipe = c.recipe;
    recipe.tokens = flags & 1 ? attention::TokenMode::words : attention::TokenMode::characters;
    recipe.vectors = flags & 2 ? attention::VectorMode::per_token : attention::VectorMode::per_position;
    recipe.positions = flags & 64  ? attention::Positions::rope
                       : flags & 4 ? attention::Positions::sinusoidal
                                   : attention::Positions::none;
    recipe.init = flags & 32 ? attention::Init::standard : attention::Init::tutorial;
    c.causal = flags & 8;
    recipe.d =
        int_from_byte(in.byte(), 1, 64,
                      {0, -1, attention::kMaxMapWidth, attention::kMaxMapWidth + 1, INT_MIN, INT_MAX, 1023});
    recipe.seed = seed_from(in);
    c.scale = scale_from(in);
    c.key_tile = key_tile_from(in.byte());
    const int repeats = flags & 16 ? 1 + in.byte() * 8 : 1;  // up to 2041 copies: past kMaxMapTokens
    const std::string piece = in.rest();
    for (int r = 0; r < repeats && recipe.text.size() < 8192; ++r) recipe.text += piece;
    return c;
}

// Our verdict on a recipe of T tokens: d in range, strictly valid UTF-8, 1 … kMaxMapTokens
// tokens; "" when the library must accept it.
std::string map_problem(const attention::MapRecipe& recipe, std::size_t T) {
    if (recipe.d < 1 || recipe.d > attention::kMaxMapWidth) return "d outside 1…kMaxMapWidth";
    if (recipe.positions == attention::Positions::rope && recipe.d % 2 != 0) return "rope with an odd d";
    if (!strict_utf8(recipe.text)) return "text is not valid UTF-8";
    if (T == 0) return "no tokens";
    if (T > static_cast<std::size_t>(attention::kMaxMapTokens)) return "more than kMaxMapTokens tokens";
    return "";
}

// map.hpp's documented draw of x: seed, then x (per position) or E (per distinct token), plus
// the sinusoidal table. The generator is left where Wq's draw starts.
std::vector<float> documented_x(const attention::MapRecipe& recipe, const std::vector<std::string>& tokens,
                                attention::TorchGenerator& generator) {
    const auto width = static_cast<std::size_t>(recipe.d);
    std::vector<float> x;
    if (recipe.vectors == attention::VectorMode::per_position) {
        x = generator.randn(tokens.size() * width);
    } else {
        std::vector<std::string> distinct;
        for (const std::string& token : tokens)
            if (std::find(distinct.begin(), distinct.end(), token) == distinct.end())
                distinct.push_back(token);
        const std::vector<float> embedding = generator.randn(distinct.size() * width);
        for (const std::string& token : tokens) {
            const auto id = static_cast<std::size_t>(std::find(distinct.begin(), distinct.end(), token) -
                                                     distinct.begin());
            x.insert(x.end(), embedding.begin() + static_cast<std::ptrdiff_t>(id * width),
                     embedding.begin() + static_cast<std::ptrdiff_t>((id + 1) * width));
        }
    }
    if (recipe.positions == attention::Positions::sinusoidal) {
        const Matrix pe = attention::sinusoidal_positions(static_cast<int>(tokens.size()), recipe.d);
        for (std::size_t e = 0; e < x.size(); ++e) x[e] += pe.values[e];
    }
    return x;
}

// q and k are x·Wq and x·Wk (rotated for rope) within the rounding of float32 sums, with Wq,
// Wk drawn next from the generator, each times 0.5 (tutorial) or 1/√d in float32 (standard).
void check_projections(const attention::MapInputs& inputs, const attention::MapRecipe& recipe,
                       attention::TorchGenerator& generator) {
    const auto width = static_cast<std::size_t>(recipe.d);
    const std::vector<float> w_query = generator.randn(width * width), w_key = generator.randn(width * width);
    const float multiplier = recipe.init == attention::Init::tutorial
                                 ? 0.5f
                                 : static_cast<float>(1.0 / std::sqrt(static_cast<double>(recipe.d)));
    std::vector<double> q_exact(width), k_exact(width), tolerance(width);
    for (int t = 0; t < inputs.x.rows; ++t) {
        for (int c = 0; c < recipe.d; ++c) {
            double q_sum = 0, k_sum = 0, magnitude = 0;
            for (int m = 0; m < recipe.d; ++m) {
                const double x_tm = inputs.x.row(t)[m];
                const std::size_t w = static_cast<std::size_t>(m) * width + static_cast<std::size_t>(c);
                q_sum += x_tm * static_cast<double>(w_query[w] * multiplier);
                k_sum += x_tm * static_cast<double>(w_key[w] * multiplier);
                magnitude += std::fabs(x_tm) * (std::fabs(w_query[w]) + std::fabs(w_key[w]));
            }
            const auto i = static_cast<std::size_t>(c);
            q_exact[i] = q_sum;
            k_exact[i] = k_sum;
            tolerance[i] = 2 * kUnit * (std::fabs(q_sum) + std::fabs(k_sum)) + gamma(recipe.d) * magnitude;
        }
        if (recipe.positions == attention::Positions::rope) rotate_exactly(q_exact, k_exact, tolerance, t);
        for (int c = 0; c < recipe.d; ++c) {
            const auto i = static_cast<std::size_t>(c);
            require(std::fabs(inputs.q.row(t)[c] - q_exact[i]) <= tolerance[i] &&
                        std::fabs(inputs.k.row(t)[c] - k_exact[i]) <= tolerance[i],
                    "map q or k [%d][%d] is not x·W (rotated for rope)", t, c);
        }
    }
}

// attention_map() is map_inputs, then the head at the detail asked, then row statistics; the
// three details agree where they overlap, and score_of reads any cell with the formula's bits.
void check_map_details(const MapCase& c, const attention::MapInputs& inputs) {
    const std::string head = formula_problem(inputs.q, inputs.k, inputs.v, c.scale);
    attention::AttentionMap all, light, first;
    if (!returns_exactly_when_valid("attention_map", head, [&] {
            all = attention::attention_map(c.recipe, c.scale, c.causal, attention::MapDetail::all);
            light = attention::attention_map(c.recipe, c.scale, c.causal, attention::MapDetail::weights_only);
            first = attention::attention_map(c.recipe, c.scale, c.causal, attention::MapDetail::first_rows);
        }))
        return;
    const int rows = inputs.q.rows;
    require(all.inputs.q.values == inputs.q.values && light.inputs.k.values == inputs.k.values,
            "attention_map's inputs are not map_inputs'");
    require(light.head.weights.values == all.head.weights.values &&
                light.stats.peak_weight == all.stats.peak_weight && light.head.output.values.empty() &&
                all.head.output.rows == rows,
            "attention_map's details disagree");
    // first_rows: every weight, and the formula's working cut to its first kWorkingRows rows.
    const int kept = std::min(rows, attention::kWorkingRows);
    const auto cut = [kept](const attention::Matrix& m) {
        return std::vector<float>(m.values.begin(),
                                  m.values.begin() + static_cast<std::ptrdiff_t>(kept) * m.cols);
    };
    require(first.head.weights.values == all.head.weights.values && first.head.row_sum == all.head.row_sum &&
                first.head.raw_scores.values == cut(all.head.raw_scores) &&
                first.head.masked_scores.values == cut(all.head.masked_scores) &&
                first.head.output.values == cut(all.head.output),
            "attention_map's first rows are not the formula's");
    const int last = rows - 1;
    const attention::Score corner =
        attention::score_of(inputs.q.row(last), inputs.k.row(0), c.recipe.d, all.head.scale);
    require(corner.raw == all.head.raw_scores.row(last)[0] &&
                corner.scaled == all.head.scaled_scores.row(last)[0],
            "score_of disagrees with the formula at row %d", last);
}

}  // namespace

void fuzz_map(FuzzInput& in) {
    const MapCase c = map_case_from(in);
    const attention::MapRecipe& recipe = c.recipe;
    // The token count comes from tokenize(), whose own promises fuzz_tokenize checks (and
    // judges whether it was right to refuse).
    std::size_t T = 0;
    try {
        T = attention::tokenize(recipe.text, recipe.tokens).size();
    } catch (const std::invalid_argument&) {
    }
    const std::string problem = map_problem(recipe, T);
    // Skip what would be slow to run if the library accepted it, valid or not: a text the
    // library wrongly accepts then shows up in fuzz_tokenize, not as a timeout here.
    const double d = recipe.d;
    const bool width_accepted = recipe.d >= 1 && recipe.d <= attention::kMaxMapWidth;
    if (width_accepted && T <= static_cast<std::size_t>(attention::kMaxMapTokens) &&
        static_cast<double>(T) * d * d + 2 * d * d > kMaxMapWork)
        return;

    attention::MapInputs inputs;
    if (!returns_exactly_when_valid("map_inputs", problem, [&] { inputs = attention::map_inputs(recipe); }))
        return;
    require(inputs.tokens == attention::tokenize(recipe.text, recipe.tokens),
            "map_inputs tokens differ from tokenize()");
    const int rows = static_cast<int>(T);
    require_shape(inputs.x, rows, recipe.d, "map x");
    require_shape(inputs.q, rows, recipe.d, "map q");
    require_shape(inputs.k, rows, recipe.d, "map k");
    require_shape(inputs.v, rows, recipe.d, "map v");
    require(all_finite(inputs.x) && all_finite(inputs.q) && all_finite(inputs.k),
            "map_inputs gave a non-finite value");
    require(inputs.v.values == inputs.x.values, "map v is not x");
    attention::TorchGenerator generator(recipe.seed);
    require(inputs.x.values == documented_x(recipe, inputs.tokens, generator),
            "map x is not the documented draw (seed %llu)", static_cast<unsigned long long>(recipe.seed));
    check_projections(inputs, recipe, generator);
    if (rows > 64) return;
    check_head(inputs.q, inputs.k, inputs.v, c.scale, c.causal, c.key_tile);
    check_map_details(c, inputs);
}

}  // namespace fuzz
