// eval::IntRange: an integer range of a compiled node (eval/node.h), bounds resolved to
// inclusive values; `end` / `end-N` bounds are relative to the game's last main-line
// position and resolved per game (SPEC Ranges, CQL-Position-List).
#pragma once

#include <cstdint>
#include <string>

namespace eval {

/// An integer range with bounds resolved to inclusive values; bounds written `end` / `end-N`
/// are relative to the game's last main-line position and resolved per game.
struct IntRange {
  int64_t lo = INT64_MIN;  ///< inclusive lower bound (or N of end-N when lo_from_end)
  int64_t hi = INT64_MAX;  ///< inclusive upper bound (or N of end-N when hi_from_end)
  bool lo_from_end = false;
  bool hi_from_end = false;
  bool contains(int64_t v) const { return v >= lo && v <= hi; }
  /// Membership with `end` = `end_value`.
  bool contains(int64_t v, int64_t end_value) const {
    int64_t l = lo_from_end ? end_value - lo : lo;
    int64_t h = hi_from_end ? end_value - hi : hi;
    return v >= l && v <= h;
  }
  /// "lo,hi" (the canonical form of compiled lists; the `end` flags come from the script
  /// text, the same in every transformation of a list).
  std::string key() const { return std::to_string(lo) + "," + std::to_string(hi); }
  bool operator==(const IntRange&) const = default;
};

}  // namespace eval
