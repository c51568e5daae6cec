// ShellState: what one `cqldb shell` session remembers between commands — the open
// database, the current result, the timer switch — and where its commands write.
//
// Lifetime rule (STYLE anti-patterns): the state holds the db::Database, never a
// db::GameReader. Every command that reads games opens its own reader (one LMDB read
// transaction plus one SQLite read transaction) and drops it before the next prompt, so
// no snapshot is pinned while the user types.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "db/database.h"
#include "headers/header_store.h"
#include "eval/game_match.h"

namespace cli {

/// The current result of a session: the games the last query, refine or filter left, with
/// the main-line plies each query matched. `all` = no result yet (or after `reset`): every
/// game of the database is in scope.
struct CurrentResult {
  bool all = true;                     ///< true: every game is in scope, `games` is empty
  std::vector<eval::GameMatch> games;  ///< ascending ids (only when !all)
  std::vector<std::string> steps;      ///< how it was made, oldest first ("query ...")
};

/// The state of one shell session.
class ShellState {
 public:
  /// `database` is the session's only handle on its directory (LMDB: one open per
  /// process); `name` is shown in the prompt. `interactive` = a person at a terminal
  /// (progress display, colours). Output goes to `out`, messages and errors to `err`.
  ShellState(db::Database database, std::string name, bool interactive, std::ostream& out,
             std::ostream& err);

  /// The database, for queries (query::execute), readers and imports.
  db::Database& database() { return database_; }
  /// The database's short name (its directory's last component), for the prompt.
  const std::string& name() const { return name_; }
  /// True for a terminal session.
  bool interactive() const { return interactive_; }
  /// Standard output of the commands.
  std::ostream& out() { return out_; }
  /// Error and status messages.
  std::ostream& err() { return err_; }

  /// Games in the database as of the last refresh_game_count().
  uint32_t game_count() const { return game_count_; }
  /// Re-reads the number of committed games (a short read transaction, closed at once).
  void refresh_game_count();
  /// A new read-only header store over the database's header file
  /// (headers/header_store.h). Each command opens its own and drops it before the next
  /// prompt, so no read transaction outlives a command.
  headers::HeaderStore header_store() const;

  /// The current result.
  const CurrentResult& result() const { return result_; }
  /// Number of games in scope: the current result's size, or game_count() for all games.
  uint64_t result_size() const;
  /// The ids in scope, ascending (all games: 1..game_count()).
  std::vector<uint32_t> result_ids() const;
  /// The match of game `id` in the current result; nullptr when the result is "all games"
  /// or does not hold `id`.
  const eval::GameMatch* find_match(uint32_t id) const;
  /// Replaces the current result by `games` (ascending ids), made by `step` (appended to the
  /// steps when `refine` is true, otherwise the steps start again).
  void set_result(std::vector<eval::GameMatch> games, const std::string& step, bool refine);
  /// Back to all games.
  void reset_result();

  /// The flag a SIGINT sets; long commands poll it and stop early.
  std::atomic<bool>& cancel() { return cancel_flag(); }
  /// The process-wide cancel flag (set by the shell's SIGINT handler).
  static std::atomic<bool>& cancel_flag();

  /// `timer on|off`: print each command's wall time.
  bool timer = false;
  /// `--engine`: the UCI engine for :evaluation / :moveevaluation (empty = default,
  /// query::ExecuteOptions::engine).
  std::string engine;

 private:
  db::Database database_;
  std::string name_;
  bool interactive_;
  std::ostream& out_;
  std::ostream& err_;
  uint32_t game_count_ = 0;
  CurrentResult result_;
};

}  // namespace cli
