// Compiling the CQL-S game keywords and :checkcount (CQL-Position-List "Game information"
// and "Matching count keywords", CQL-Match-List :startposition) into nodes. Kept apart from
// compile.cpp; its keyword switch calls these.
//
// Semantics (decisions marked so):
//   :ischess960        the start position's Shuffle Chess number is 1..960 (the standard
//                      start counts, start_position.h)
//   :isshufflechess    the number is 1..3840
//   :startposition l   the number lies in one of the entries; 0 = not a Shuffle Chess start;
//                      `*` = 1..3840; decision: FICS names (misc/runaway ...) never match,
//                      cqldb knows none of those positions
//   :variant v,...     decision: "normal" (also "standard", "chess") = every stored game
//                      (all are played by standard rules; Chess960 is standard chess with
//                      another start, SPEC Variants), "chess960" (also "fischerandom",
//                      "960", "fischer random", "chess 960") = games stored with variant
//                      chess960; every other variant name never matches
//   :checkcount w : b  the checks White received so far lie in w and those Black received
//                      in b (seed 000, newest page)
//   :checkcount +n+m   White has given n checks and Black m, first position with these
//                      counts only: the start, or the position right after a check
//                      (CQL-Position-List "matching first position")
//   :checkcount r      the last move gave check, and it was the r-th check of the side
//                      that made it ("last move is giving n-th check to other side")
//   :flipcolor swaps White and Black in the first two forms (SPEC Transformations).
#pragma once

#include <vector>

#include "cql/ast.h"
#include "eval/node.h"

namespace eval {

/// The node of `:checkcount` with its ranges already resolved (one, or two: `w : b`, or the
/// `+n+m` form's white-gave / black-gave counts when `plus_form`); `swap` = the colour flip.
Node check_count_node(const std::vector<IntRange>& ranges, bool plus_form, bool swap);

/// The node of `:ischess960 :isshufflechess :startposition :variant` (keyword `k`,
/// arguments from `item`). Colour-independent.
Node game_keyword_node(const cql::KeywordItem& item, cql::Keyword k);

}  // namespace eval
