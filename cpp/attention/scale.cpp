// scale.cpp: the factor each scale mode applies, and its name.
#include "attention/scale.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace attention {

namespace {

std::string shortest(double x) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", x);
    return text;
}

}  // namespace

double scale_factor(Scale scale, int d) {
    if (d < 1) throw std::invalid_argument("head width d = " + std::to_string(d) + " must be at least 1");
    switch (scale.mode) {
        case ScaleMode::inverse_sqrt_d:
            return 1.0 / std::sqrt(static_cast<double>(d));
        case ScaleMode::inverse_d:
            return 1.0 / static_cast<double>(d);
        case ScaleMode::none:
            return 1.0;
        case ScaleMode::custom:
            // Bounded well inside float32's range, so the factor itself never rounds to 0 or
            // inf when the kernels apply it in float32.
            if (!(scale.factor >= kMinScaleFactor && scale.factor <= kMaxScaleFactor))
                throw std::invalid_argument("scale factor " + shortest(scale.factor) +
                                            " must be a finite number greater than 0, from 1e-30 to 1e30");
            return scale.factor;
    }
    throw std::invalid_argument("unknown scale mode");
}

std::string scale_name(Scale scale) {
    switch (scale.mode) {
        case ScaleMode::inverse_sqrt_d:
            return "1/sqrt(d)";
        case ScaleMode::inverse_d:
            return "1/d";
        case ScaleMode::none:
            return "none";
        case ScaleMode::custom:
            return std::to_string(scale.factor);
    }
    return "unknown";
}

}  // namespace attention
