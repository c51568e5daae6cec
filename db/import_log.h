// Records written next to the games by an import: the per-game log (rejections and
// warnings, table import_log) and the per-file run summary (table imports).
#pragma once

#include <cstdint>
#include <string>

namespace db {

/// Whether a log entry is about a game that was not stored or a recoverable problem.
enum class LogKind : uint8_t {
  kRejected,  ///< the game was not stored; stored as 'rejected'
  kWarning,   ///< the game was stored despite the problem; stored as 'warning'
};

/// The text stored in import_log.kind for `kind`.
inline const char* log_kind_text(LogKind kind) {
  return kind == LogKind::kRejected ? "rejected" : "warning";
}

/// One row of the import log.
struct LogEntry {
  std::string source_file;            ///< PGN file path as given to the import
  uint32_t ordinal = 0;               ///< 1-based position of the game in its file
  uint32_t line = 0;                  ///< 1-based line of the offending token (0 = unknown)
  std::string move;                   ///< the offending move token, empty if not about a move
  std::string reason;                 ///< human-readable reason, e.g. "illegal move"
  LogKind kind = LogKind::kRejected;  ///< rejection or warning
};

/// What identifies an input file across imports (issue 40): an import of the same path, size
/// and start that did not finish is continued rather than stored twice (files.size and
/// files.head_hash, schema.h).
struct SourceIdentity {
  std::string path;       ///< the path as given to the import
  uint64_t size = 0;      ///< size in bytes (of the file as stored: compressed bytes)
  std::string head_hash;  ///< hex hash of its first bytes (import::source_identity)
};

/// Where the unfinished import of a file stopped: the games and log rows of its files row
/// were committed, its imports row (written when a file ends) was not.
struct ResumePoint {
  int64_t file_id = 0;        ///< the files row its games and log rows use
  uint32_t last_ordinal = 0;  ///< the last game of the file committed (stored or logged)
  uint64_t games = 0;         ///< games of the file stored by the interrupted import
};

/// Counts of one import run over one file (table imports).
struct ImportRun {
  std::string source_file;  ///< PGN file path as given to the import
  int64_t started = 0;      ///< Unix time (seconds) the file's import started
  int64_t finished = 0;     ///< Unix time (seconds) it finished
  uint64_t games_read = 0;  ///< games found (imported + rejected + skipped_duplicates)
  uint64_t imported = 0;    ///< games stored
  uint64_t rejected = 0;    ///< games not stored
  uint64_t warnings = 0;    ///< warnings logged
  uint64_t skipped_duplicates = 0;  ///< games not stored: duplicates (--skip-duplicates)
};

}  // namespace db
