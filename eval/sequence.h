// :sequence, :gappedsequence, :matchconsecutive and :match (CQL-Position-List "Sequence
// keywords", seed 000/004): position lists that match a run of positions of the line.
// They are decided per game before the per-position pass: GameMatcher replays the line,
// evaluates each element list at every ply and stores, per sequence, the plies where a
// match starts (Node Op::kSequence reads that table through PosCtx::sequence_hits).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "eval/node.h"

namespace eval {

/// One compiled sequence keyword (one per transformation of the enclosing list).
struct SequenceSpec {
  enum class Kind : uint8_t {
    kSequence,   ///< :sequence: elements at successive plies
    kGapped,     ///< :gappedsequence: elements at increasing plies
    kAnyOrder,   ///< :matchconsecutive: elements at successive plies, in any order
    kWholeLine,  ///< :match: each element matches somewhere in the line
    // Line tables of one nested list (elements[0]) decided over the line (eval/match_count.h,
    // Node Op::kLineTable); count_lo..count_hi is the counting keyword's range:
    kLineCount,              ///< :matchcount: the list's count over the line
    kPretransformLineCount,  ///< :pretransformmatchcount: some variant's count over the line
    kRunCount,               ///< :repetitioncount: the run of matches through the ply
    kPretransformRunCount,   ///< :pretransformrepetitioncount: some variant's run
    kEndmost,                ///< :endmost: the list's last match in the line
    kFollowing,              ///< :following: the ply after a match
    kPreceding,              ///< :preceding: the ply before a match
    // Where a bare control keyword of the last element fires (eval/control.h
    // hoist_element_controls): the elements match ending with the last one at the ply.
    kSequenceEnd,  ///< elements at successive plies, the last at this ply
    kGappedEnd,    ///< elements at increasing plies, the last at this ply
  };
  Kind kind = Kind::kSequence;
  std::vector<std::shared_ptr<const PositionList>> elements;  ///< in order
  int64_t count_lo = 1;          ///< line-count kinds: inclusive range of the count
  int64_t count_hi = INT64_MAX;

  /// Most elements :matchconsecutive accepts (its orders are searched as subsets).
  static constexpr size_t kMaxAnyOrder = 12;
};

/// Computes where `spec` matches along one line. `line[p]` is the context of ply p (its
/// `sequence_hits` must already hold the tables of the sequences nested in `spec`).
/// `out[p]` = 1 when the sequence starts at ply p:
///  - :sequence: element i matches at ply p + i for every i (the line must be long enough);
///  - :gappedsequence: element 0 matches at ply p or later and element i + 1 at a later ply
///    than element i (the refinement definition of seeds 000/001/004 and SPEC "Game
///    traversal": gaps anywhere, before the first element too, so a sequence that matches
///    somewhere matches at ply 0, and `:initial :gappedsequence (...)` finds the same games);
///  - :matchconsecutive: some order of the elements matches at p, p + 1, ... (each element
///    at one of these plies, seed 000 "nacheinander ... unabhängig von der Reihenfolge");
///  - :match: at every ply when each element matches at some ply of the line (like a match
///    list, seed 000 ":match").
/// An empty element list matches everywhere. `scratch` is reused between calls.
void find_sequence(const SequenceSpec& spec, std::span<const PosCtx> line,
                   std::vector<uint8_t>& scratch, std::vector<uint8_t>& out);

}  // namespace eval
