// The PGN import pipeline: files -> games in a database directory.
//
//   reader thread:   InputStream (plain/.gz/.zst) -> PgnSplitter -> batches of raw games
//   worker threads:  PgnParser + GameBuilder (SAN -> Move, game record, signature, header)
//   calling thread:  puts results back in file order, assigns game ids, writes batches
//                    through db::GameWriter (LMDB then SQLite, one commit per batch)
//
// Every game read is accounted for: games_read = imported + rejected (+ skipped duplicates
// with ImportOptions::skip_duplicates). A rejected game is
// recorded in the database's import log with file, ordinal, line, move and reason.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "db/stage_times.h"
#include "headers/players.h"
#include "import/game_builder.h"
#include "index/position_index.h"
#include "db/header_bitmaps.h"
#include "index/postings.h"

namespace db {
class Database;
}

namespace import {

/// The most games one transaction of an append takes (see commit_size()).
inline constexpr uint32_t kMaxGamesPerCommit = 100000;

/// How an import runs.
struct ImportOptions {
  unsigned workers = 0;             ///< parsing threads; 0 = hardware concurrency (at least 1)
  /// Games written per LMDB + SQLite transaction: at least this many, and for an append a
  /// tenth of the games already stored, up to kMaxGamesPerCommit (commit_size()).
  uint32_t games_per_commit = 20000;
  /// Set to true from another thread (e.g. a SIGINT handler) to stop after the current batch;
  /// everything read before is committed and the summary says "interrupted".
  const std::atomic<bool>* cancel = nullptr;
  MovetextFilter filter;            ///< what of the movetext to keep (--no-comments ...)
  /// Skip a game whose main-line moves, start FEN, White, Black, Date and result equal those
  /// of a stored game or of an earlier game of this import (db/duplicate_index.h); counted
  /// in ImportSummary::skipped_duplicates. Off: every game is stored, as before.
  bool skip_duplicates = false;
  /// Games per position index segment written during the import (the position index's
  /// kGamesPerSegment; tests choose small segments to see several written and merged).
  uint32_t position_segment_games = posindex::kGamesPerSegment;
  /// Update the position index (off: `cqldb import --no-position-index`; queries then
  /// replay the games above its coverage, the tree asks for a reindex, and the next import
  /// with it on catches up).
  bool position_index = true;
  /// Import every file from its first game even when an earlier import of the same file
  /// (same path, size and first MiB) stopped before its end (`cqldb import --restart`).
  /// Off: such an import is continued after its last committed game (issue 40), so that a
  /// killed import run again stores each game once.
  bool restart = false;
  /// Time every stage of every game (db/stage_times.h) into ImportSummary::worker_stages and
  /// writer_stages (bench_import --stages). Costs a few percent of the import's CPU.
  bool stage_times = false;
};

/// A file whose unfinished import was continued (ImportOptions::restart off).
struct ResumedFile {
  std::string path;          ///< the file as given
  uint32_t after_game = 0;   ///< its games 1..after_game were committed before: skipped now
  uint64_t games_before = 0; ///< games of it stored by the interrupted import
};

/// A snapshot of a running import, for progress display.
struct ImportProgress {
  std::string file;          ///< the file being read
  uint64_t games_read = 0;   ///< games read so far, all files
  uint64_t imported = 0;     ///< games stored so far
  uint64_t rejected = 0;     ///< games rejected so far
  uint64_t file_bytes_done = 0;   ///< bytes of the current file consumed (compressed bytes)
  uint64_t file_bytes_total = 0;  ///< size of the current file in bytes; 0 when unknown
                                  ///< (standard input, a pipe): show file_bytes_done then
  double seconds = 0;             ///< wall time since the import started
};

/// One rejected game, as recorded in the import log.
struct Rejection {
  std::string file;       ///< source file path as given
  uint32_t ordinal = 0;   ///< 1-based position of the game in its file
  uint32_t line = 0;      ///< 1-based line of the offending token
  std::string move;       ///< the offending move token, empty if not about a move
  std::string reason;     ///< human-readable reason, e.g. "illegal move"
};

/// The result of an import.
struct ImportSummary {
  uint64_t games_read = 0;  ///< games found in the input (imported + rejected +
                            ///< skipped_duplicates)
  uint64_t imported = 0;    ///< games stored
  uint64_t rejected = 0;    ///< games not stored (recorded in the import log)
  uint64_t warnings = 0;    ///< recoverable problems (control bytes, lenient tags, ...)
  uint64_t skipped_duplicates = 0;  ///< games not stored as duplicates (skip_duplicates)
  uint64_t plies = 0;       ///< main-line plies of the stored games
  uint64_t games_with_clocks = 0;  ///< stored games with at least one typed clock
  uint64_t games_with_evals = 0;   ///< stored games with at least one typed evaluation
  AnnotationCounts annotations;    ///< typed values stored and what the filter dropped, summed
  uint64_t input_bytes = 0; ///< decompressed PGN bytes read
  uint32_t first_id = 0;    ///< id of the first stored game (0 if none)
  uint32_t last_id = 0;     ///< id of the last stored game (0 if none)
  double seconds = 0;       ///< wall time
  double finish_seconds = 0;  ///< part of it spent after the last game: index builds, checkpoint,
                              ///< postings
  sig::PostingsUpdate postings;  ///< the posting index catch-up at the end (index/postings.h)
  db::HeaderBitmapsUpdate header_bitmaps;  ///< the header bitmaps' catch-up (db/header_bitmaps.h)
  headers::players::LinkCounts player_links;  ///< game sides linked to the player list (issue 17 A)
  posindex::PositionIndexUpdate positions;  ///< the position index catch-up after it
                                            ///< (index/position_index.h)
  bool interrupted = false; ///< stopped early through ImportOptions::cancel
  std::map<std::string, uint64_t> reasons;  ///< rejection reason -> count
  std::map<std::string, uint64_t> warning_reasons;  ///< warning reason -> count
  /// The warnings that are repairs (import::is_repair_name: result taken from the movetext,
  /// castling rights dropped...), kind -> count; also counted in warning_reasons.
  std::map<std::string, uint64_t> repairs;
  std::vector<Rejection> first_rejections;  ///< the first few rejections, for the summary
  std::vector<ResumedFile> resumed;  ///< files continued after an unfinished import
  /// Where the time went (issue 42). Always measured: the wall time while games streamed
  /// (reading to the last commit, before index builds and catch-ups), and the CPU time of the
  /// reader thread, of all worker threads together and of the writer (calling) thread during
  /// it. writer_cpu_seconds / stream_seconds is the writer's share of one core.
  double stream_seconds = 0;
  double reader_cpu_seconds = 0;
  double workers_cpu_seconds = 0;
  double writer_cpu_seconds = 0;
  /// With ImportOptions::stage_times: ticks (db::stage_ticks) per stage, summed over the
  /// worker threads and of the writer thread, and the ticks in a second.
  db::StageTimes worker_stages;
  db::StageTimes writer_stages;
  double ticks_per_second = 0;
};

using ProgressCallback = std::function<void(const ImportProgress&)>;

/// Games per transaction for an import into a database of `stored` games: `minimum`
/// (ImportOptions::games_per_commit), or stored / 10 when larger, at most
/// kMaxGamesPerCommit (and never below `minimum`). Issue 16: the header indexes keyed by
/// player, Elo, year and duplicate key take their inserts at random places, so each commit
/// rewrites most of their leaf pages to the WAL however few games it holds; fewer, larger
/// commits of an append into a large database rewrite them fewer times (players-344k onto
/// 3.44M games: 20.9 s with 20,000 games a commit, 14.6 s with 100,000). A fresh import
/// keeps the minimum (no gain there, and a transaction's dirty pages cost memory).
uint32_t commit_size(uint32_t minimum, uint32_t stored);

/// Imports `paths` in order into `database`, appending games with ids continuing from the
/// current count. Each input is opened once and read once, front to back, so pipes,
/// `<(...)` and `-` (standard input) work like files (see InputStream). Calls `on_progress` from the calling thread about every 100 ms.
/// Throws std::runtime_error for errors that stop the import (unreadable file, storage
/// failure); games committed before such an error stay in the database, and running the
/// same import again continues after them (ImportOptions::restart). A full disk is a
/// std::runtime_error saying "no space left on device", the games stored and how to go on.
ImportSummary import_files(db::Database& database, const std::vector<std::string>& paths,
                           const ImportOptions& options, const ProgressCallback& on_progress);

}  // namespace import
