// limits.cpp
#include "tutorial/limits.hpp"

namespace attention {

Limits limits() {
    return Limits{};
}

}  // namespace attention
