// limits: every limit the page must respect before it asks the core for something, in one
// place, so that the page holds no copy of any.
#pragma once

#include "attention/matrix.hpp"
#include "attention/scale.hpp"
#include "tutorial/equivalence.hpp"
#include "tutorial/map.hpp"
#include "tutorial/scale_study.hpp"

namespace attention {

// Every limit a caller (the page) needs to check input before asking, in one place.
struct Limits {
    int max_map_tokens = kMaxMapTokens;
    int max_map_width = kMaxMapWidth;
    int max_formula_t = kMaxFormulaT;
    int max_width = kMaxWidth;
    int max_study_t = kMaxStudyT;
    int max_study_draws = kMaxStudyDraws;
    double max_study_multiply_adds = kMaxStudyMultiplyAdds;
    double min_scale_factor = kMinScaleFactor;
    double max_scale_factor = kMaxScaleFactor;
    double equivalence_tolerance = kEquivalenceTolerance;
};
Limits limits();

}  // namespace attention
