// Pawn structure attributes of :pawncount / :pawncountdifference (seed 000, CQL-Position-List):
// a hyphen-separated list like `double!-!advanced-compounds(2)`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cql {

enum class PawnAttr : uint8_t {
  // structures
  Single,
  Double,
  Triple,
  Uno,
  Duo,
  Trio,
  Quart,
  Connected,
  Integrated,
  Isolated,
  HalfIsolated,
  Defended,
  Defender,
  Chained,
  Passed,
  Candidate,
  Blocked,
  Unblocked,
  Behind,
  Stoppable,
  Unstoppable,
  Stopped,
  Backward,
  Advanced,
  Consecutive,
  Inside,
  Symmetrical,
  Mirrored,
  // view restrictions
  Forefront,
  Rear,
  // counting modifiers (only at the end of the list)
  Islands,
  Compounds,
  Files,
  Ranks,
  Lines,
  BothSides,
  OneSide,
};

/// One attribute as written: `[!]name[!][(n)]`.
struct PawnAttribute {
  PawnAttr attr = PawnAttr::Single;
  bool negated = false;      ///< leading '!': pawns without the property
  bool exact = false;        ///< trailing '!': exactly (e.g. `double!` = exactly two)
  std::optional<int> count;  ///< `(n)`
  friend bool operator==(const PawnAttribute&, const PawnAttribute&) = default;
};

/// Static facts about an attribute.
struct PawnAttrInfo {
  PawnAttr attr;
  std::string_view name;
  bool exact_allowed;      ///< `name!` is allowed
  bool exact_needs_count;  ///< `name!` only as `name!(n)`
  int count_min;           ///< `(n)` allowed when count_max > 0
  int count_max;
  bool counting;  ///< a counting modifier (must come last)
};

const PawnAttrInfo& pawn_attr_info(PawnAttr a);

/// Parses an attribute list word. On error returns nullopt and sets `error` and the byte
/// `offset` of the offending part.
std::optional<std::vector<PawnAttribute>> parse_pawn_attributes(std::string_view word,
                                                                std::string& error, size_t& offset);

/// `double!-!advanced-compounds(2)`.
std::string to_string(const std::vector<PawnAttribute>& attrs);

}  // namespace cql
