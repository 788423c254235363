#!/usr/bin/env python3
"""Writes fuzz/corpus/ (seed inputs) and fuzz/regressions/ (inputs that once broke the core).

corpus/ holds one small seed per interesting path of fuzz_attention; regressions/ holds one
input per bug the fuzzer found, named after the bug (see docs/fuzzing.md). scripts/fuzz.sh
runs both: a regression that fails again fails the run.

The byte layout is the one fuzz/fuzz_input.hpp and the targets in fuzz/targets/ read, front
to back (missing bytes read as 0); the first byte picks the target (fuzz/fuzz_attention.cpp). libFuzzer mutates these seeds; they only need to reach each
entry point with plausible arguments, so that coverage starts high. Run it again after
changing the layout: `python3 fuzz/make_corpus.py`. Standard library only.
"""
import os
import shutil
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")
REGRESSIONS = os.path.join(HERE, "regressions")

# First byte, taken mod 10: which entry point (LLVMFuzzerTestOneInput).
HEAD, MAP, TOKENIZE, STUDY, TORCH, SOFTMAX, SMALL, EQUIVALENCE = 0, 3, 4, 5, 6, 7, 8, 9
# Scale mode byte, mod 8.
INVERSE_SQRT_D, INVERSE_D, NONE, CUSTOM, UNKNOWN_MODE = 0, 2, 3, 4, 7
# Special value bytes (value_from_byte: 192 + index into kSpecial).
ZERO, NAN, INF, FLT_MAX = 192, 194, 196, 199
# Custom factor bytes (kFactors in fuzz_input.hpp).
FACTOR_1E_300, FACTOR_1E10, FACTOR_1E300 = 7, 20, 27


def grid(x):
    """The value byte for x on the grid -6 ... 5.9375 in steps of 1/16."""
    b = round(x * 16) + 96
    assert 0 <= b < 192 and (b - 96) / 16 == x, x
    return b


def table(*value_bytes):
    return bytes([0, *value_bytes])


def raw(*floats):
    return bytes([1]) + b"".join(struct.pack("<f", x) for x in floats)


def seeded(seed, exponent=128, patches=()):
    """Roughly normal values times 2^(exponent - 128), then (index, value byte) patches."""
    out = bytes([2, seed, exponent, len(patches)])
    for index, value in patches:
        out += struct.pack("<H", index) + bytes([value])
    return out


def constant(value_byte):
    return bytes([3, value_byte])


def scale(mode, factor_byte=0, raw_factor=None):
    if raw_factor is not None:
        return bytes([mode, 128]) + struct.pack("<d", raw_factor)
    return bytes([mode, factor_byte])


def tile(n):
    return bytes([n - 1])  # key_tile byte: 1 + b % 70


def head(T, d, d_v, q, k, v, scale_bytes=scale(INVERSE_SQRT_D), causal=False, shape=0, nudged=0, nudge=0, key_tile=tile(64)):
    flags = int(causal) | shape << 1
    return bytes([HEAD, flags, T, d, d_v, nudged, nudge]) + scale_bytes + key_tile + q + k + v


def seed64(n):
    return struct.pack("<Q", n)


def map_recipe(text, d=24, seed=1, words=False, per_token=False, positional=False, causal=False, repeats=None,
               scale_bytes=scale(INVERSE_SQRT_D), standard=False, rope=False):
    flags = int(words) | int(per_token) << 1 | int(positional) << 2 | int(causal) << 3 | int(repeats is not None) << 4
    flags |= int(standard) << 5 | int(rope) << 6
    out = bytes([MAP, flags, d - 1]) + seed64(seed) + scale_bytes + tile(4)
    if repeats is not None:
        out += bytes([repeats])
    return out + text


def study(T, draws, widths, seed=0, causal=False):
    return bytes([STUDY, int(causal), T, draws, len(widths), *widths]) + seed64(seed)


SEEDS = {
    # The kernels.
    "head_causal_4x3": head(4, 3, 2, seeded(1), seeded(2), seeded(3), causal=True),
    "head_hand_2x2": head(2, 2, 2, table(grid(1), grid(0), grid(0), grid(1)), table(grid(1), grid(0), grid(0), grid(1)),
                          table(grid(1), grid(2), grid(3), grid(4)), scale_bytes=scale(NONE)),
    "head_custom_scale_tile3": head(9, 5, 7, seeded(4), seeded(5), seeded(6), scale_bytes=scale(CUSTOM, raw_factor=0.7),
                                    causal=True, key_tile=tile(3)),
    "head_inverse_d_ties": head(6, 4, 3, constant(grid(0.5)), constant(grid(0.5)), seeded(7), scale_bytes=scale(INVERSE_D)),
    "head_large_scores": head(5, 8, 2, seeded(8, 128 + 8), seeded(9, 128 + 8), seeded(10), scale_bytes=scale(NONE)),
    "head_64": head(64, 64, 64, seeded(11), seeded(12), seeded(13), causal=True, key_tile=tile(16)),
    "head_nan_in_k": head(3, 2, 2, seeded(14), table(grid(1), NAN, 96, 96, 96, 96), seeded(15)),
    "head_inf_in_v": head(3, 2, 2, seeded(16), seeded(17), seeded(18, patches=[(4, INF)])),
    "head_k_shape_nudged": head(4, 3, 2, seeded(21), seeded(22), seeded(23), shape=5, nudged=1, nudge=4),
    "head_t_past_formula_limit": head(1, 1, 1, seeded(24), seeded(25), seeded(26), shape=6),
    "head_width_past_limit": head(1, 1, 1, seeded(27), seeded(28), seeded(29), shape=7, nudged=1),
    "head_unknown_scale_mode": head(2, 2, 2, seeded(30), seeded(31), seeded(32), scale_bytes=scale(UNKNOWN_MODE)),
    "head_tiny_custom_scale": head(3, 2, 2, seeded(33), seeded(34), seeded(35), scale_bytes=scale(CUSTOM, raw_factor=1e-30)),
    # The map recipe.
    "map_to_be_or_not": map_recipe(b"To be, or not"),
    "map_words_per_token_positional": map_recipe(b"the cat saw the hat", d=16, seed=7, words=True, per_token=True,
                                                 positional=True, causal=True),
    "map_unicode": map_recipe("naïve 東京 — it's 👩‍🔬 שלום".encode(), d=8, seed=2**40 + 3, words=True),
    "map_standard_rope": map_recipe(b"rotary positions", d=16, seed=3, causal=True, standard=True, rope=True),
    "map_rope_odd_width": map_recipe(b"odd", d=7, rope=True),
    "map_past_token_limit": map_recipe(b"ab ", d=2, repeats=60),
    "map_bad_width": bytes([MAP, 0, 200]) + b"x",  # d byte 200 -> edge value 0
    # Text alone.
    "tokenize_words": bytes([TOKENIZE, 1]) + "Don't stop: x_1+y\u00a0\u2003z\u200b e\u0301 \u202e!".encode(),
    "tokenize_characters_bad_utf8": bytes([TOKENIZE, 0]) + b"ok\xe2\x82",
    # The scale study.
    "study_three_widths": study(15, 0, [3, 7, 15], causal=True),  # T = 1 + 15, one draw, widths 4, 8, 16
    "study_t_past_limit": study(203, 0, [3]),  # T byte 203 -> 1025
    # The generator, softmax_row, Matrix and scale_factor.
    "torch_three_calls": bytes([TORCH]) + seed64(0) + bytes([2, 16, 5, 201]),  # counts 16, 5, 100
    "softmax_row_with_minus_inf": bytes([SOFTMAX, 7]) + table(grid(1), 197, grid(3), 96, FLT_MAX, grid(-6), 197, grid(2)),
    "matrix_and_scale": bytes([SMALL, 3, 4, 2]) + scale(CUSTOM, 15) + bytes([10]),
    "matrix_past_element_limit": bytes([SMALL, 205, 1, 1]) + scale(INVERSE_SQRT_D) + bytes([201]),
    # The equivalence check: two batches of one shape with a torch output, then mismatched ones.
    "equivalence_two_batches": bytes([EQUIVALENCE, 1 | 1 << 1 | 1 << 3, 2, 2, 2, 4, 3, 2])
    + seeded(40) + seeded(41) + seeded(42) + seeded(43) + seeded(44) + seeded(45) + seeded(46),
}


# Named after what went wrong; docs/fuzzing.md says where and why.
REGRESSIONS_BY_BUG = {
    "check_equivalence_reads_past_torch_output_when_batch_shapes_differ":
        bytes([EQUIVALENCE, 1 << 1, 2, 2, 2, 1, 1, 1]) + seeded(47) + seeded(48) + seeded(49)
        + bytes([2, 2, 2]) + seeded(50) + seeded(51) + seeded(52) + seeded(53),
    "formula_output_overflows_to_inf_for_values_near_flt_max":
        head(3, 2, 2, seeded(19), seeded(20), constant(FLT_MAX)),
    "fused_output_overflows_to_inf_for_values_near_flt_max":
        head(2, 1, 1, constant(ZERO), constant(ZERO), constant(FLT_MAX), scale_bytes=scale(NONE)),
    "fused_gives_nan_when_the_custom_scale_rounds_to_0_in_float32":
        head(3, 2, 2, constant(grid(1)), constant(grid(1)), constant(grid(1)), scale_bytes=scale(CUSTOM, FACTOR_1E_300)),
    "fused_gives_nan_when_fma_contraction_makes_an_exponent_positive":  # scores ~1e10
        head(4, 64, 1, seeded(58, 128 + 18), seeded(59, 128 + 18), seeded(60)),
    "formula_gives_nan_when_the_custom_scale_overflows_float32":
        head(2, 1, 1, constant(ZERO), constant(ZERO), seeded(54), scale_bytes=scale(CUSTOM, FACTOR_1E300)),
    "check_equivalence_says_ok_when_torch_output_is_nan":
        bytes([EQUIVALENCE, 1 << 1, 1, 1, 1, 1, 1, 1]) + seeded(55) + seeded(56) + seeded(57) + table(NAN),
    "tokenize_keeps_a_narrow_no_break_space_inside_a_word": bytes([TOKENIZE, 1]) + "Bonjour\u202f!".encode(),
    "tokenize_accepts_an_overlong_utf8_encoding": bytes([TOKENIZE, 0]) + b"\xc0\xbcscript",
    "tokenize_accepts_a_utf16_surrogate": bytes([TOKENIZE, 0]) + b"a\xed\xa0\x80b",
    "tokenize_accepts_a_code_point_past_10ffff": bytes([TOKENIZE, 1]) + b"\xf4\x90\x80\x80 \xf7\xbf\xbf\xbf",
}


def write_all(folder, inputs):
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    for name, data in inputs.items():
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)
    print(f"wrote {len(inputs)} inputs to {os.path.relpath(folder)}")


def main():
    write_all(CORPUS, SEEDS)
    write_all(REGRESSIONS, REGRESSIONS_BY_BUG)


if __name__ == "__main__":
    main()
