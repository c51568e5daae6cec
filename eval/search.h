// Running a compiled Program over a database: candidate selection (header filter), parallel
// replay of the surviving games on all cores, and the matched plies of each matching game.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "eval/candidate_filter.h"
#include "eval/match_location.h"
#include "eval/program.h"

namespace db {
class Database;
}

namespace eval {

/// One matching game.
struct GameMatch {
  uint32_t id = 0;               ///< game id
  std::vector<uint32_t> plies;   ///< matched main-line plies, ascending (0 = start position)
  std::vector<VariationPly> variation_plies;  ///< matched positions inside variations, ascending
                                              ///< (eval/match_location.h)
};

/// How a search runs.
struct SearchOptions {
  unsigned threads = 0;     ///< worker threads; 0 = hardware concurrency
  uint64_t limit = 0;       ///< stop after this many matches (lowest ids first); 0 = no limit
  const std::atomic<bool>* cancel = nullptr;  ///< set to stop early (Ctrl-C)
  /// Restrict the search to these ids (ascending), e.g. a shell's current result; null = all.
  const std::vector<uint32_t>* within = nullptr;
  /// The planner's Plan (posting index, signatures, ply windows); null = the planner is off:
  /// nothing prunes, every game in scope is replayed, and the header conditions (still
  /// decided by SQLite) only decide whether a replayed game can match.
  const CandidateFilter* filter = nullptr;
  /// Called about every 100 ms from the calling thread with games searched and matches.
  std::function<void(uint64_t searched, uint64_t total, uint64_t matches)> progress;
  /// The UCI engine of :evaluation / :moveevaluation (eval/analysis.h): a path, or a name
  /// looked up on PATH and in /usr/games; empty = $CQLDB_ENGINE, else "stockfish". Each
  /// worker starts its own process on its first engine search and kills it at the end.
  std::string engine;
  /// Cache engine results in the database directory (eval/analysis_cache.h).
  bool analysis_cache = true;
};

/// Figures of one search.
struct SearchStats {
  uint64_t games_total = 0;      ///< games in the database snapshot
  uint64_t after_postings = 0;   ///< games the posting index kept (games_total without it)
  uint64_t candidates = 0;       ///< games passing the posting index, the header filter (and
                                 ///< `within`)
  uint64_t after_signatures = 0; ///< candidates the signature filter kept (= candidates
                                 ///< without a filter)
  uint64_t games_replayed = 0;   ///< games whose moves were replayed
  uint64_t positions = 0;        ///< positions evaluated
  uint64_t matches = 0;          ///< matching games
  bool postings_used = false;    ///< the database has a current posting index and the planner
                                 ///< asked it
  double postings_seconds = 0;   ///< time in the posting index
  double header_seconds = 0;     ///< time in SQLite
  double signature_seconds = 0;  ///< time reading and testing signatures
  double replay_seconds = 0;     ///< time replaying and evaluating
  double seconds = 0;            ///< wall time
  bool cancelled = false;        ///< stopped through SearchOptions::cancel
  uint64_t engine_calls = 0;     ///< engine searches run (:evaluation, :moveevaluation)
  uint64_t cache_hits = 0;       ///< engine results taken from the analysis cache
};

/// Runs `program` over `database`. Matches are returned in ascending id order.
/// Throws std::runtime_error for storage errors.
SearchStats search(const Program& program, db::Database& database, const SearchOptions& options,
                   std::vector<GameMatch>& matches);

}  // namespace eval
