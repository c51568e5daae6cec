// Perft: counts the leaf nodes of the legal move tree, the standard check of a move
// generator against published node counts.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "chess/position.h"

namespace chess {

/// Number of legal move sequences of exactly `depth` plies from `pos` (1 for depth <= 0).
/// `pos` is modified during the walk and restored before returning.
uint64_t perft(Position& pos, int depth);

/// perft() split by first move: one (move, count) pair per legal move, in generation order.
/// For finding which move's subtree disagrees with a reference. `depth` >= 1.
std::vector<std::pair<Move, uint64_t>> perft_divide(Position& pos, int depth);

}  // namespace chess
