// GameMatch: one matching game as the query pipeline returns it (query/executor.h) and the
// outputs (cli/query_output.h, the shell's current result) read it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "eval/match_location.h"

namespace eval {

/// One matching game.
struct GameMatch {
  uint32_t id = 0;               ///< game id
  std::vector<uint32_t> plies;   ///< matched main-line plies, ascending (0 = start position)
  std::vector<VariationPly> variation_plies;  ///< matched positions inside variations, ascending
                                              ///< (eval/match_location.h)
  /// CQL 6 `sort` (issue 37): the game's sort value (the largest, or with `sort min` the
  /// smallest, value the sort filter had); none without a sort or when it never had one.
  std::optional<int64_t> sort_value{};
  /// The values of the script's later sorts (CQL 6.2 orders by every sort in turn: a tie on
  /// the first is broken by the second...), by Program::cql6_sort_keys() index - 1.
  std::vector<std::optional<int64_t>> sort_keys{};
  /// CQL 6 `comment` (and the `sort` title with its value, at ply 0): texts on matched
  /// main-line plies, ascending by ply; `settag`: tags to write (name, value).
  std::vector<std::pair<uint32_t, std::string>> comments{};
  /// CQL 6 `comment` texts on matched positions inside variations, by ply path
  /// (eval/match_location.h), in evaluation order.
  std::vector<std::pair<VariationPly, std::string>> variation_comments{};
  std::vector<std::pair<std::string, std::string>> tags{};
};

}  // namespace eval
