// The position index's part of a plan (issue 18): a `:fen` position that every match of an
// alternative must reach becomes a lookup in the position index (index/position_index.h),
// whose candidates are exactly the games that reach it within the indexed plies plus those
// that may reach it later. Like every pruning step it only narrows: replay decides.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "index/position_index.h"
#include "planner/condition.h"

namespace planner {

/// The games (ascending, within 1..game_count) that may satisfy `condition` as far as its
/// :fen positions (kMaterial leaves) tell: the AND of the necessary ones, the OR of an kOr
/// whose every kid has one. nullopt when no :fen position is necessary.
std::optional<std::vector<uint32_t>> position_candidates(const Condition& condition,
                                                         const posindex::PositionIndex& index,
                                                         uint32_t game_count);

/// True if position_candidates() can narrow `condition` (it has a necessary :fen).
bool uses_position_index(const Condition& condition);

}  // namespace planner
