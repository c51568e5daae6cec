// GameMatcher: replays one game's main line and evaluates a Program's position lists at
// every position (SPEC Game traversal: the start position counts; main line only).
#pragma once

#include <cstdint>
#include <vector>

#include "chess/position.h"
#include "db/record_view.h"
#include "eval/program.h"

namespace eval {

/// Evaluates a Program on games, one at a time. One per worker thread (keeps scratch
/// buffers); the Program must outlive it.
class GameMatcher {
 public:
  explicit GameMatcher(const Program& program);

  /// Replays `record` and evaluates the position lists of the alternatives whose bit is set
  /// in `alternatives` (bit i = Program::alternatives()[i], i.e. the game passed that
  /// alternative's header filter). `info` may be null unless Program::needs_game_info().
  /// Returns true when some alternative matches: each of its top-level position lists
  /// matches a number of positions its MatchCount admits (default: at least one). `plies`
  /// receives the matched plies (ascending, union
  /// over the matching alternatives' lists); `positions` is increased by the positions
  /// evaluated. Throws db::CorruptRecord when a stored move is not legal on its board.
  bool match(const db::RecordView& record, unsigned alternatives, const GameInfo* info,
             std::vector<uint32_t>& plies, uint64_t& positions);

 private:
  /// True if the counts in `slot` (alternative x list) satisfy `rule`.
  bool satisfied(const MatchCount& rule, size_t slot) const;

  const Program& program_;
  std::vector<chess::Key> keys_;      // position keys by ply (repetition counting)
  std::vector<uint32_t> list_count_;  // per alternative x list: positions it matched
  std::vector<std::vector<uint32_t>> variant_count_;  // same index, per variant (pretransform lists)
  std::vector<uint8_t> ply_hit_;      // per alternative x ply: some list matched here
};

}  // namespace eval
