// VariantIndex: finds the few transformed variants of a position list that can match a
// position, so that lists with hundreds of variants (`:shift :flip`) are not tried one by
// one. Exact: it only skips variants whose key designator cannot match.
//
// Each variant gets a key node: a non-negated plain designator whose kinds exclude the empty
// square, with the fewest squares. Variants are bucketed by (key piece kinds, key square). In
// a position, for each distinct key kind set K, the squares holding a piece of K are looked
// up and only the variants bucketed under those squares are evaluated. A variant without a
// key node is always evaluated.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "chess/bitboard.h"
#include "chess/position.h"
#include "eval/piece_mask.h"

namespace eval {

struct Node;

class VariantIndex {
 public:
  /// Indexes `variants` when there are at least `min_variants` of them.
  void build(const std::vector<std::vector<Node>>& variants, size_t min_variants = 8);
  /// True if build() indexed the variants (otherwise callers evaluate them all).
  bool active() const { return active_; }

  /// Calls `try_variant(i)` for every variant i that may match in `pos` (a variant may be
  /// offered more than once); returns true as soon as one call returns true.
  template <class F>
  bool any(const chess::Position& pos, F&& try_variant) const {
    for (uint32_t v : unkeyed_)
      if (try_variant(v)) return true;
    for (const Group& g : groups_) {
      chess::Bitboard hits = squares_of(pos, g.pieces) & g.squares;
      while (hits) {
        chess::Square s = chess::pop_lsb(hits);
        for (uint32_t v : g.by_square[s])
          if (try_variant(v)) return true;
      }
    }
    return false;
  }

 private:
  struct Group {
    PieceMask pieces = 0;                             ///< key designator kinds
    chess::Bitboard squares = 0;                      ///< union of the buckets' squares
    std::array<std::vector<uint32_t>, 64> by_square;  ///< variants keyed on each square
  };
  std::vector<Group> groups_;
  std::vector<uint32_t> unkeyed_;  ///< variants without a key node
  bool active_ = false;
};

}  // namespace eval
