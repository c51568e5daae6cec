// reindex: recomputes the signature of every game of an existing database (`cqldb reindex`),
// e.g. after the signature encoding changed or to upgrade a database made before signatures
// existed (format version 1).
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "index/position_index.h"
#include "db/header_bitmaps.h"
#include "index/postings.h"

namespace sig {

/// How a reindex runs.
struct ReindexOptions {
  unsigned threads = 0;               ///< threads replaying games; 0 = hardware concurrency
  uint32_t games_per_commit = 50000;  ///< signatures written per LMDB transaction
  /// Set to true from another thread (e.g. a SIGINT handler) to stop after the current
  /// batch. The signatures written so far stay; the version stamp is not updated, so an
  /// outdated database still asks for a reindex.
  const std::atomic<bool>* cancel = nullptr;
};

/// A snapshot of a running reindex, for progress display.
struct ReindexProgress {
  uint32_t done = 0;   ///< games whose signature was written
  uint32_t total = 0;  ///< games in the database
  double seconds = 0;  ///< wall time since the start
};

/// What a reindex did.
struct ReindexSummary {
  uint32_t games = 0;        ///< committed games in the database
  uint32_t rewritten = 0;    ///< games given a new signature
  uint32_t failed = 0;       ///< games whose record could not be replayed: their signature is
                             ///< removed (the planner keeps such games as candidates)
  uint64_t plies = 0;        ///< main-line plies replayed
  uint64_t bytes = 0;        ///< total size of the new signatures
  bool upgraded = false;     ///< the database had an older layout or signature version
  bool interrupted = false;  ///< stopped through ReindexOptions::cancel
  double seconds = 0;        ///< wall time
  std::vector<std::string> first_failures;  ///< "game ID: reason" for the first few failures
  PostingsUpdate postings;   ///< the posting index rebuilt at the end (index/postings.h)
  db::HeaderBitmapsUpdate header_bitmaps;  ///< the header bitmaps rebuilt (db/header_bitmaps.h)
  posindex::PositionIndexUpdate positions;  ///< the position index rebuilt after it
                                            ///< (index/position_index.h)
};

using ReindexProgressCallback = std::function<void(const ReindexProgress&)>;

/// Recomputes and replaces the signatures of all games of the database in `dir`, using
/// `options.threads` threads to replay games while the calling thread writes, in id order,
/// batches of set_signature() through the database's single writer (so no import may run
/// meanwhile). At the end, stamps the current format versions (upgrading a version-1
/// database). Calls `on_progress` from the calling thread about every 100 ms.
/// Throws db::FormatError when `dir` is not a database a reindex can handle, db::Error when
/// another writer is active, and storage errors; signatures written before stay.
ReindexSummary reindex(const std::filesystem::path& dir, const ReindexOptions& options,
                       const ReindexProgressCallback& on_progress);

}  // namespace sig
