// planner::PlyWindows: the main-line plies at which a query can match a game, from its
// signature (issue 4, "replay only evaluates the ply windows that survive"). Replay still
// plays every move; it only skips evaluating positions outside the windows.
//
// Sound only for plain programs, so it is used only for them (PlyWindows::make returns an
// empty rule otherwise): no sequences, relations, tags, :variations, :cut/:exclude/:skip,
// :accumulate, consecutive (repetition) counts, and no bare `:not`. For such a program a
// skipped position changes nothing: the lists are evaluated independently at each position,
// and a position where no list can match adds no count and no matched ply.
//
// A list's window is the union over its transformed variants of the intersection of the
// windows of the variant's own (top-level, not negated) items that this file understands:
//   :piececount / :power on the whole board  -> plies of the material runs in range
//   :mate / :stalemate                       -> the final ply (all plies with null moves)
//   :halfmovenumber / :movenumber            -> their ply range
//   :iscastling                              -> the plies from which a castling of one of
//                                               its rights was played
//                                               (Signature::castling_plies, exact)
// Every other item leaves the variant's window as it is (it can only narrow the matches).
// A list without such items, or with more variants than a cap, gets every ply.
//
// A list whose MatchCount does not admit 0 must match at some position; when its window is
// empty on a game, its alternative cannot match there at all (prune()), and the game is not
// replayed (planner::Plan drops it with the signature test, counted in "after signatures").
#pragma once

#include <cstdint>
#include <vector>

#include "eval/node.h"
#include "eval/program.h"
#include "index/signature.h"

namespace planner {

/// The per-game ply filter of a program (see the file comment).
class PlyWindows {
 public:
  /// The rule of `program`; empty (active() false) when the program is not plain or no list
  /// has an understood item.
  static PlyWindows make(const eval::Program& program);

  /// True when some list narrows the plies (compute() can help).
  bool active() const { return active_; }
  /// True when prune() can rule a game out: some list that must match somewhere narrows.
  bool can_prune() const { return can_prune_; }
  /// The signature sections compute() reads.
  sig::DecodeScope scope() const { return scope_; }
  /// Sets allowed[p] = 1 for the plies 0..s.plies where some list of the alternatives in
  /// `alternatives` may match, 0 elsewhere. `s` is decoded at least to scope().
  void compute(const sig::Signature& s, unsigned alternatives, std::vector<uint8_t>& allowed) const;
  /// Of `alternatives` (bit i = alternative i), those in which every list that must match
  /// somewhere (MatchCount not admitting 0) has a non-empty window on the game: the others
  /// cannot match it. `s` is decoded at least to scope().
  unsigned prune(const sig::Signature& s, unsigned alternatives) const;
  /// The same on a Summary (sig::read_summary): :piececount / :power items allow every ply
  /// there (the Summary has no timeline), the others are exact.
  unsigned prune(const sig::Summary& s, unsigned alternatives) const;

  /// One understood item of a variant.
  struct Item {
    enum Kind : uint8_t { kCount, kPower, kFinal, kHalfmove, kMove, kCastling } kind = kCount;
    /// kCount / kPower: the kinds counted (cql::PieceMask); kCastling: the
    /// chess::CastlingRight bits `:iscastling` accepts
    uint32_t pieces = 0;
    eval::IntRange range;
  };
  /// A variant: its items (all must hold at the ply); empty = every ply.
  using Variant = std::vector<Item>;
  /// A list: the union over its variants; empty = every ply.
  using List = std::vector<Variant>;

 private:
  template <class S>
  unsigned prune_on(const S& s, unsigned alternatives) const;

  std::vector<std::vector<List>> alternatives_;  // per alternative, per top-level list
  std::vector<std::vector<uint8_t>> required_;   // per alternative, per list: 1 = must match
  bool active_ = false;
  bool can_prune_ = false;
  sig::DecodeScope scope_ = sig::DecodeScope::kHeader;
};

}  // namespace planner
