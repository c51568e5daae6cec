// CandidateFilter: the interface through which the planner (planner/) prunes candidate games
// from their signatures before eval::search replays them. Declared here so that eval does
// not depend on planner; the planner implements it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "eval/header_filter.h"
#include "index/postings.h"
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
  /// keep() on an encoded signature (index/signature.h), decoding into `scratch` only as
  /// far as needed. The planner first tests the signature's Summary (sig::read_summary),
  /// which rules most games out in a few nanoseconds, and decodes only the survivors.
  virtual unsigned keep_encoded(std::string_view bytes, const GameInfo* info, unsigned alternatives,
                                sig::Signature& scratch) const {
    sig::decode(bytes, scratch, scope());
    return keep(scratch, info, alternatives);
  }
  /// True when ply_windows() can narrow the plies replay evaluates.
  virtual bool has_ply_windows() const { return false; }
  /// Sets allowed[p] (p = 0..plies of the game with encoded signature `bytes`) to 1 at the
  /// main-line plies where the alternatives in `alternatives` may match, 0 elsewhere (for
  /// GameMatcher::set_ply_windows). Returns false when every ply must be evaluated.
  virtual bool ply_windows(std::string_view /*bytes*/, unsigned /*alternatives*/, sig::Signature& /*scratch*/,
                           std::vector<uint8_t>& /*allowed*/) const {
    return false;
  }
  /// The candidates of alternative `alternative` by the posting index (index/postings.h):
  /// ascending ids in 1..game_count, a superset of the games keep() can keep, including every
  /// game the index does not cover; nullopt when the postings cannot narrow it.
  virtual std::optional<std::vector<uint32_t>> posting_candidates(const sig::Postings& /*postings*/,
                                                                  size_t /*alternative*/,
                                                                  uint32_t /*game_count*/) const {
    return std::nullopt;
  }
  /// True when keep() needs GameInfo (result / Elo conditions).
  virtual bool needs_game_info() const = 0;
};

}  // namespace eval
