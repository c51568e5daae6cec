// The CQL-S game keywords `:ischess960 :isshufflechess :startposition :variant` read as plain
// values, shared by the position-list form (eval/game_keywords.h, asked of the replayed start
// position) and the match-list form (headers/header_filter.cpp, asked of the stored start FEN
// and variant in SQL). Semantics are documented in eval/game_keywords.h.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "cql/ast.h"

namespace cql {

/// Variant bits of `:variant`: 1 = games played by the standard start rules (no variant tag),
/// 2 = games stored with variant chess960; 0 = no stored game.
enum VariantBits : uint8_t { kVariantStandard = 1, kVariantChess960 = 2 };

/// What one game keyword asks about the game's start.
struct GameKeywordValues {
  /// :ischess960 / :isshufflechess / :startposition: inclusive ranges of Shuffle Chess numbers
  /// (chess/start_position.h; 1..3840), any of which the start must have. Empty with
  /// `is_variant` false: no game matches.
  std::vector<std::pair<int, int>> start_ranges;
  bool is_variant = false;  ///< :variant: `variant_bits` decides, `start_ranges` is unused
  uint8_t variant_bits = 0; ///< VariantBits of every variant name given
};

/// The values of `item` (keyword `k`, one of the four above). Colour-independent.
GameKeywordValues game_keyword_values(const KeywordItem& item, Keyword k);

}  // namespace cql
