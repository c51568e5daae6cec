// VariantIndex: finds the few transformed variants of a position list that can match a
// position, so that lists with hundreds or thousands of variants (`:shift :flip :flipcolor`)
// are not tried one by one (issue 21). Exact: it only skips variants whose key designators
// cannot match.
//
// Each variant gets up to two key nodes: non-negated plain designators (no promotion
// restriction) whose kinds exclude the empty square, the first with the fewest squares, the
// second with the fewest squares among the others (kept only when the two square sets give
// at most kMaxPairs square pairs, fewer for lists of over 15,000 variants: about a million
// pairs per list at most; lists of fewer than 64 variants keep one key). A variant can match only where a piece of the first key's
// kinds stands on one of its squares and, with a second key, a piece of the second key's
// kinds on one of its squares. Variants are grouped by their key kinds and bucketed by key
// square (one key) or by key square pair (two keys); the buckets are stored flat (offsets
// per square or per square pair, then the variant numbers). In a position, each group looks
// up the squares (pairs) holding pieces of its kinds and offers only the variants of those
// buckets. A variant without a key node is always offered.
#pragma once

#include <cstdint>
#include <vector>

#include "chess/bitboard.h"
#include "chess/position.h"
#include "eval/piece_mask.h"

namespace eval {

struct Node;

/// Index of the transformed variants of one position list (eval/node.h PositionList).
class VariantIndex {
 public:
  /// A second key is used only when its squares and the first key's give at most this many
  /// square pairs (bounds the index size per variant).
  static constexpr int kMaxPairs = 64;

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
      chess::Bitboard hits = squares_of(pos, g.first) & g.first_squares;
      if (!hits) continue;
      if (!g.second) {
        while (hits) {
          const size_t s = size_t(chess::pop_lsb(hits));
          for (uint32_t i = g.start[s]; i < g.start[s + 1]; ++i)
            if (try_variant(g.variants[i])) return true;
        }
        continue;
      }
      const chess::Bitboard second = squares_of(pos, g.second) & g.second_squares;
      if (!second) continue;
      while (hits) {
        const size_t s = size_t(chess::pop_lsb(hits)) * 64;
        for (chess::Bitboard b = second; b;) {
          const size_t pair = s + size_t(chess::pop_lsb(b));
          for (uint32_t i = g.start[pair]; i < g.start[pair + 1]; ++i)
            if (try_variant(g.variants[i])) return true;
        }
      }
    }
    return false;
  }

  /// Calls `on_variant(i)` once for every variant i that may match in `pos` (for counting
  /// matching variants, :accumulate); `scratch` is working memory. When every variant sits in
  /// one bucket only, any() offers each at most once and is used directly; otherwise the
  /// offers are collected, sorted and deduplicated.
  template <class F>
  void for_each(const chess::Position& pos, std::vector<uint32_t>& scratch, F&& on_variant) const {
    if (offered_once_) {
      any(pos, [&](uint32_t v) {
        on_variant(v);
        return false;
      });
      return;
    }
    scratch.clear();
    any(pos, [&](uint32_t v) {
      scratch.push_back(v);
      return false;
    });
    sort_unique(scratch);
    for (uint32_t v : scratch) on_variant(v);
  }

  /// Number of variants offered for `pos` (with repetitions), for tests and benchmarks.
  size_t offered(const chess::Position& pos) const {
    size_t n = 0;
    any(pos, [&](uint32_t) {
      ++n;
      return false;
    });
    return n;
  }

 private:
  struct Group {
    PieceMask first = 0;               ///< first key's kinds
    PieceMask second = 0;              ///< second key's kinds (0: one key)
    chess::Bitboard first_squares = 0;   ///< union of the first keys' squares
    chess::Bitboard second_squares = 0;  ///< union of the second keys' squares
    std::vector<uint32_t> start;     ///< bucket b holds variants[start[b] .. start[b + 1])
    std::vector<uint32_t> variants;  ///< bucket contents; bucket = square or 64 * s1 + s2
  };
  static void sort_unique(std::vector<uint32_t>& v);
  std::vector<Group> groups_;
  std::vector<uint32_t> unkeyed_;  ///< variants without a key node
  bool active_ = false;
  bool offered_once_ = false;  ///< every variant is in exactly one bucket (or unkeyed)
};

}  // namespace eval
