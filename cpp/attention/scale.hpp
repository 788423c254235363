// scale: how a head's scores are multiplied before the softmax (1/√d, 1/d, none, or a factor
// of the reader's), and the factor that makes for a width d.
#pragma once

#include <string>

namespace attention {

enum class ScaleMode { inverse_sqrt_d, inverse_d, none, custom };

struct Scale {
    ScaleMode mode = ScaleMode::inverse_sqrt_d;
    double factor = 1.0;  // used only by ScaleMode::custom; from kMinScaleFactor to kMaxScaleFactor

    static Scale inverse_sqrt_d() { return {ScaleMode::inverse_sqrt_d, 1.0}; }
    static Scale inverse_d() { return {ScaleMode::inverse_d, 1.0}; }
    static Scale none() { return {ScaleMode::none, 1.0}; }
    static Scale custom(double factor) { return {ScaleMode::custom, factor}; }
};

constexpr double kMinScaleFactor = 1e-30;
constexpr double kMaxScaleFactor = 1e30;

// The multiplier applied to Q·Kᵀ for head width d (throws on a bad custom factor or d < 1).
double scale_factor(Scale scale, int d);
std::string scale_name(Scale scale);

}  // namespace attention
