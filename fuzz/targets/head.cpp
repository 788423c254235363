// head.cpp: fuzz_head, the head's three kernels (formula, reference_f64, fused) on one q, k, v.
// Shapes are consistent most of the time; otherwise one of k's or v's sizes is nudged, T passes
// the formula's limit, or a width passes kMaxWidth. The checks are head_checks.hpp's.
#include "head_checks.hpp"
#include "targets/targets.hpp"

#include <algorithm>
#include <cstdint>

namespace fuzz {

void fuzz_head(FuzzInput& in) {
    const std::uint8_t flags = in.byte();
    const bool causal = flags & 1;
    int T = in.byte() % 65, d = in.byte() % 65, d_v = in.byte() % 65;
    const std::uint8_t nudged = in.byte(), nudge = in.byte();
    const Scale scale = scale_from(in);
    const int key_tile = key_tile_from(in.byte());
    int k_rows = T, k_cols = d, v_rows = T;
    switch ((flags >> 1) % 8) {
        case 5: {
            const int delta = nudge % 7 - 3 == 0 ? 1 : nudge % 7 - 3;
            int& size = nudged % 3 == 0 ? k_rows : nudged % 3 == 1 ? k_cols : v_rows;
            size = std::max(0, size + delta);
            break;
        }
        case 6:
            T = k_rows = v_rows = attention::kMaxFormulaT + 1;
            d = k_cols = d_v = 1;
            break;
        case 7:
            T = k_rows = v_rows = 1;
            (nudged % 2 ? d_v : d) = attention::kMaxWidth + 1;
            k_cols = d;
            break;
        default:
            break;
    }
    const Matrix q(T, d, read_values(in, Matrix::element_count(T, d)));
    const Matrix k(k_rows, k_cols, read_values(in, Matrix::element_count(k_rows, k_cols)));
    const Matrix v(v_rows, d_v, read_values(in, Matrix::element_count(v_rows, d_v)));
    check_head(q, k, v, scale, causal, key_tile);
}

}  // namespace fuzz
