// query::Executor: runs a Query over a database as a driver over named stages
// (query/stages.h), DuckDB-style: each stage narrows the candidate games and reports its
// figures (games in/out, time); every pruning stage can be switched off by name, and
// switching all of them off (`--no-planner`) replays every game in scope. Pruning stages
// only ever drop games that cannot match (planner soundness, STYLE.md practice 4); the
// replay stage decides.
//
//   postings   -> per alternative, the games whose signature facts can satisfy it
//                 (index/postings.h, planner/postings_plan.h)
//   headers    -> the match list's header conditions in SQLite (headers/header_store.h)
//   signatures -> per-game signature test before replay (planner::Plan::keep_encoded)
//   windows    -> the plies of a game where a match is possible (planner/ply_windows.h)
//   replay     -> the games replayed on all cores, evaluated exactly (eval::GameMatcher)
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <optional>

#include "eval/game_match.h"
#include "headers/game_order.h"
#include "query/query.h"

namespace db {
class Database;
}

namespace query {

/// The names of the pruning stages, in the order they run.
inline constexpr const char* kPruningStages[] = {"positions", "postings", "headers", "signatures", "windows"};

/// The names of kPruningStages for help and error messages: "positions, postings, headers,
/// signatures or windows".
std::string pruning_stage_names();

/// How a query runs.
struct ExecuteOptions {
  unsigned threads = 0;     ///< worker threads; 0 = hardware concurrency
  /// The order of the answer (headers/game_order.h); none = ascending ids. With a sort the
  /// whole answer is found, ordered, and then cut to `limit` (issue 40: the first N of the
  /// sorted answer, never the first N found, sorted).
  std::optional<headers::SortOrder> sort;
  /// Keep this many matches; 0 = all. Without `sort` these are the lowest ids and the search
  /// stops once it has them (Stats::search_complete is then false).
  uint64_t limit = 0;
  const std::atomic<bool>* cancel = nullptr;  ///< set to stop early (Ctrl-C)
  /// Restrict the query to these ids (ascending), e.g. a shell's current result; null = all.
  const std::vector<uint32_t>* within = nullptr;
  /// Pruning stages switched off, by name (kPruningStages). A header stage that is off still
  /// decides: a replayed game whose headers fail cannot match.
  std::set<std::string> disabled;
  /// Called about every 100 ms from the calling thread with games searched, games to search
  /// and matches so far.
  std::function<void(uint64_t searched, uint64_t total, uint64_t matches)> progress;
  /// The UCI engine of :evaluation / :moveevaluation (analysis/session.h): a path, or a name
  /// looked up on PATH and in /usr/games; empty = $CQLDB_ENGINE, else "stockfish".
  std::string engine;
  /// Cache engine results in the database directory (analysis/analysis_cache.h).
  bool analysis_cache = true;

  /// Switches every pruning stage off (`--no-planner`).
  void planner_off() { disabled.insert(std::begin(kPruningStages), std::end(kPruningStages)); }
  bool enabled(const std::string& stage) const { return !disabled.count(stage); }
};

/// The figures of one stage of one run.
struct StageFigures {
  std::string name;      ///< "positions", "postings", "headers", "signatures", "windows", "replay"
  bool ran = false;      ///< the stage ran (enabled, and it had something to do)
  uint64_t in = 0;       ///< candidate games it was given
  uint64_t out = 0;      ///< candidate games it kept (replay: matches)
  double seconds = 0;    ///< time spent in it (workers' time divided by the thread count)
  std::string note;      ///< why it did not run, when it did not ("no current postings.bin")
};

/// Figures of one run.
/// The figures of each stage (games in and out, time) are in `stages`, and only there;
/// the fields beside them are the run's totals.
struct Stats {
  uint64_t games_total = 0;      ///< games in the database snapshot
  uint64_t candidates = 0;       ///< games passing the index stages, the header filter and
                                 ///< `within` (the headers stage's out)
  uint64_t games_replayed = 0;   ///< games whose moves were replayed
  uint64_t positions = 0;        ///< positions evaluated
  uint64_t matches = 0;          ///< matching games in the answer (after ExecuteOptions::limit)
  /// Matching games found by the search (before the limit cut): all of them when
  /// search_complete, else at least `matches`.
  uint64_t matches_found = 0;
  bool search_complete = true;   ///< every candidate was searched (no early stop at the
                                 ///< limit, not cancelled)
  double seconds = 0;            ///< wall time
  bool cancelled = false;        ///< stopped through ExecuteOptions::cancel
  uint64_t engine_calls = 0;     ///< engine searches run (:evaluation, :moveevaluation)
  uint64_t cache_hits = 0;       ///< engine results taken from the analysis cache
  /// Games skipped because their stored record is damaged (ascending ids): the query
  /// answered for the others (issue 14); `cqldb check` lists the damage.
  std::vector<uint32_t> damaged;
  std::vector<StageFigures> stages;  ///< every stage in order, with its figures
  bool planner_on = true;        ///< some pruning stage was enabled

  /// The figures of the stage named `name` (StageFigures::name); null when the run had no
  /// such stage (signatures, windows and replay exist only for a query with a position list).
  const StageFigures* stage(std::string_view name) const;
  /// Read from `stages`: the games the index stages kept (the out of the last of positions
  /// and postings that ran; games_total when neither ran).
  uint64_t after_indexes() const;
  /// Read from `stages`: the candidates the signature test kept (the signatures stage's out;
  /// `candidates` when the run had no such stage).
  uint64_t after_signatures() const;
};

/// The answer of one run: matches in ascending id order, and the figures.
struct Result {
  std::vector<eval::GameMatch> matches;
  Stats stats;
};

/// Runs `query` over `database`. Throws std::runtime_error for storage errors that end the
/// query (an unreadable posting index or header store), analysis::EngineError for a missing
/// or failing engine; a damaged game record is skipped and counted (Stats::damaged).
Result execute(const Query& query, db::Database& database, const ExecuteOptions& options);

/// How many games matched, as the command's and the shell's summaries say it: "76 matches",
/// "3 of 76 matches" (a limit cut a complete answer), "the first 3 matches" (the search
/// stopped at the limit, ids ascending), "1 match".
std::string matches_text(const Stats& stats);

/// The figures of a run as the text of `--explain` and the shell's `explain`.
std::string explain_stats(const Stats& stats);

/// The plan of `query` (header SQL, signature conditions, posting use) as text; `planner_on`
/// false prints it as not pruning.
std::string explain_plan(const Query& query, bool planner_on);

}  // namespace query
