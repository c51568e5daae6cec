// GameMatch: one matching game as the query pipeline returns it (query/executor.h) and the
// outputs (cli/query_output.h, the shell's current result) read it.
#pragma once

#include <cstdint>
#include <vector>

#include "eval/match_location.h"

namespace eval {

/// One matching game.
struct GameMatch {
  uint32_t id = 0;               ///< game id
  std::vector<uint32_t> plies;   ///< matched main-line plies, ascending (0 = start position)
  std::vector<VariationPly> variation_plies;  ///< matched positions inside variations, ascending
                                              ///< (eval/match_location.h)
};

}  // namespace eval
