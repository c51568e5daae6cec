// Running a compiled Program over a database: candidate selection (header filter), parallel
// replay of the surviving games on all cores, and the matched plies of each matching game.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "eval/candidate_filter.h"
#include "eval/program.h"

namespace db {
class Database;
}

namespace eval {

/// One matching game.
struct GameMatch {
  uint32_t id = 0;               ///< game id
  std::vector<uint32_t> plies;   ///< matched main-line plies, ascending (0 = start position)
};

/// How a search runs.
struct SearchOptions {
  unsigned threads = 0;     ///< worker threads; 0 = hardware concurrency
  uint64_t limit = 0;       ///< stop after this many matches (lowest ids first); 0 = no limit
  const std::atomic<bool>* cancel = nullptr;  ///< set to stop early (Ctrl-C)
  /// Restrict the search to these ids (ascending), e.g. a shell's current result; null = all.
  const std::vector<uint32_t>* within = nullptr;
  /// Prune-only signature test (the planner's Plan); null = replay every candidate.
  const CandidateFilter* filter = nullptr;
  /// Called about every 100 ms from the calling thread with games searched and matches.
  std::function<void(uint64_t searched, uint64_t total, uint64_t matches)> progress;
};

/// Figures of one search.
struct SearchStats {
  uint64_t games_total = 0;      ///< games in the database snapshot
  uint64_t candidates = 0;       ///< games passing the header filter (and `within`)
  uint64_t after_signatures = 0; ///< candidates the signature filter kept (= candidates
                                 ///< without a filter)
  uint64_t games_replayed = 0;   ///< games whose moves were replayed
  uint64_t positions = 0;        ///< positions evaluated
  uint64_t matches = 0;          ///< matching games
  double header_seconds = 0;     ///< time in SQLite
  double signature_seconds = 0;  ///< time reading and testing signatures
  double replay_seconds = 0;     ///< time replaying and evaluating
  double seconds = 0;            ///< wall time
  bool cancelled = false;        ///< stopped through SearchOptions::cancel
};

/// Runs `program` over `database`. Matches are returned in ascending id order.
/// Throws std::runtime_error for storage errors.
SearchStats search(const Program& program, db::Database& database, const SearchOptions& options,
                   std::vector<GameMatch>& matches);

}  // namespace eval
