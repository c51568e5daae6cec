// CandidateFilter: the interface through which the planner (planner/) prunes candidate games
// from their signatures before eval::search replays them. Declared here so that eval does
// not depend on planner; the planner implements it.
#pragma once

#include <string>

#include "eval/header_filter.h"
#include "index/signature.h"

namespace eval {

/// A prune-only test on a game's signature: it may drop games that cannot match, never
/// games that can (planner soundness; STYLE.md practice 4).
class CandidateFilter {
 public:
  virtual ~CandidateFilter() = default;
  /// How much of each signature keep() reads.
  virtual sig::DecodeScope scope() const = 0;
  /// Of the alternatives in `alternatives` (bit i = Program::alternatives()[i]), those the
  /// game with signature `s` and header values `info` (null if not loaded) can still match.
  virtual unsigned keep(const sig::Signature& s, const GameInfo* info, unsigned alternatives) const = 0;
  /// True when keep() needs GameInfo (result / Elo conditions).
  virtual bool needs_game_info() const = 0;
};

}  // namespace eval
