// planner::Plan: the prune-only conditions of a compiled query: the posting index's candidate
// sets, the test of each candidate's signature and the ply windows (issue 4; the pruning
// stages of query/executor.h ask it). A Plan never decides a match: the replay stage replays
// every game it keeps.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include <optional>
#include <string_view>

#include "index/postings.h"
#include "index/signature.h"
#include "eval/program.h"
#include "planner/condition.h"
#include "planner/ply_windows.h"

namespace planner {

/// Necessary conditions per colour alternative of a Program.
class Plan {
 public:
  /// Derives the conditions of `program`: for each alternative the AND of its top-level
  /// position lists' conditions. A program with a bare top-level `:not` gets no condition
  /// (its matches are games where the lists fail).
  static Plan make(const eval::Program& program);

  /// The conditions' scope, and the ply windows' when they can prune (keep()).
  sig::DecodeScope scope() const {
    return prunes_by_windows() ? std::max(scope_, windows_.scope()) : scope_;
  }
  /// The alternatives whose condition holds and, with ply windows on, in which every list
  /// that must match somewhere has a ply where it may (PlyWindows::prune).
  unsigned keep(const sig::Signature& s, const eval::GameInfo* info,
                unsigned alternatives) const;
  /// Tests the Summary first (Condition::holds_summary, PlyWindows::prune on the Summary);
  /// decodes to scope() only when the conditions or windows need more than the Summary and
  /// it did not rule the game out.
  unsigned keep_encoded(std::string_view bytes, const eval::GameInfo* info, unsigned alternatives,
                        sig::Signature& scratch) const;
  bool needs_game_info() const { return needs_game_info_; }
  /// planner/postings_plan.h on the condition of `alternative`.
  std::optional<std::vector<uint32_t>> posting_candidates(const sig::Postings& postings, size_t alternative,
                                                          uint32_t game_count) const;
  bool has_ply_windows() const { return windows_.active() && use_windows_; }
  /// Turns the ply windows off (benchmarks: bench_query --no-windows).
  void disable_ply_windows() { use_windows_ = false; }
  /// The plies where a match is possible (planner/ply_windows.h).
  bool ply_windows(std::string_view bytes, unsigned alternatives, sig::Signature& scratch,
                   std::vector<uint8_t>& allowed) const;

  /// True when some alternative has a condition other than "true" (pruning can help).
  bool prunes() const { return prunes_; }
  /// The condition of alternative `i`.
  const Condition& condition(size_t i) const { return conditions_[i]; }
  /// Number of alternatives.
  size_t size() const { return conditions_.size(); }

 private:
  /// True when keep() also drops games by their ply windows.
  bool prunes_by_windows() const { return use_windows_ && windows_.can_prune(); }

  std::vector<Condition> conditions_;
  PlyWindows windows_;
  bool use_windows_ = true;
  sig::DecodeScope scope_ = sig::DecodeScope::kHeader;
  bool needs_game_info_ = false;
  bool prunes_ = false;
};

}  // namespace planner
