// targets: the fuzz targets, one per file in this folder, each turning the rest of an input
// (fuzz_input.hpp) into one entry point's arguments and judging the call with the oracle
// (oracle.hpp, head_checks.hpp). fuzz_attention.cpp picks one by the input's first byte.
#pragma once

#include "fuzz_input.hpp"

namespace fuzz {

void fuzz_head(FuzzInput& in);          // formula, reference_f64, attention_weights, fused
void fuzz_map(FuzzInput& in);           // map_inputs and attention_map, then the head's checks
void fuzz_tokenize(FuzzInput& in);      // tokenize
void fuzz_scale_study(FuzzInput& in);   // scale_study
void fuzz_torch(FuzzInput& in);         // TorchGenerator::randn
void fuzz_softmax_row(FuzzInput& in);   // softmax_row
void fuzz_small_pieces(FuzzInput& in);  // Matrix, sinusoidal_positions, scale_factor, scale_name
void fuzz_equivalence(FuzzInput& in);   // check_equivalence, equivalence_line

}  // namespace fuzz
