// The engine-result cache of a database: DIR/analysis-cache.sqlite, a SQLite file of its
// own (WAL), created on demand, so repeated `:evaluation` / `:moveevaluation` queries do not
// repeat engine searches. The game database (headers.sqlite, LMDB) and its schema version
// are not touched.
//
// Table `evaluation` (format 1, kept in table `meta`, key 'format'):
//   engine TEXT  -- the engine executable's resolved path
//   fen    TEXT  -- board, side to move, castling, en passant (no move counters)
//   mode   INT   -- 0 = depth, 1 = movetime (cql::EngineLimit)
//   lim    INT   -- plies or milliseconds
//   kind   INT   -- 0 = centipawns, 1 = mate (EngineScore::Kind)
//   score  INT   -- EngineScore::value, side to move's view
//   PRIMARY KEY (engine, fen, mode, lim)
//
// Concurrency: one AnalysisCache per query, shared by the workers. Each worker reads through
// its own Reader (its own read connection); new results are collected by add() and written
// by flush() in one transaction per batch on the single writer connection.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "cql/vocabulary.h"
#include "analysis/engine.h"

namespace analysis {

/// What a cached result is for.
struct AnalysisKey {
  std::string fen;  ///< FEN without the two move counters
  cql::EngineLimit mode = cql::EngineLimit::Depth;
  int64_t limit = 0;  ///< plies or milliseconds
};

/// The cache file of one database for one engine.
class AnalysisCache {
 public:
  /// Results are added in batches of this many.
  static constexpr size_t kBatch = 64;

  /// Opens (creating when missing) `file` for the engine `engine` (its resolved path).
  /// Throws db::SqliteError when the file cannot be opened or created.
  AnalysisCache(const std::filesystem::path& file, std::string engine);
  /// Writes what is pending; errors are swallowed here (call flush() to see them).
  ~AnalysisCache();
  AnalysisCache(const AnalysisCache&) = delete;
  AnalysisCache& operator=(const AnalysisCache&) = delete;

  /// A read connection for one worker thread.
  class Reader {
   public:
    explicit Reader(AnalysisCache& cache);
    ~Reader();
    /// The cached result for `key`, from the file or from results not yet written.
    bool find(const AnalysisKey& key, EngineScore& out);

   private:
    struct Impl;
    AnalysisCache& cache_;
    std::unique_ptr<Impl> impl_;
  };

  /// Records a new result; writes a batch when kBatch are pending. Thread-safe.
  void add(const AnalysisKey& key, const EngineScore& score);
  /// Writes every pending result in one transaction. Thread-safe. Throws db::SqliteError.
  void flush();

  /// The cache file's name inside a database directory.
  static constexpr const char* kFileName = "analysis-cache.sqlite";

 private:
  struct Writer;
  /// Writes `batch` (caller holds write_mutex_).
  void write(const std::vector<std::pair<AnalysisKey, EngineScore>>& batch);
  static std::string pending_key(const AnalysisKey& key);

  std::filesystem::path file_;
  std::string engine_;
  std::mutex write_mutex_;  // the writer connection
  std::unique_ptr<Writer> writer_;
  std::mutex pending_mutex_;  // pending_ and pending_index_
  std::vector<std::pair<AnalysisKey, EngineScore>> pending_;
  std::unordered_map<std::string, EngineScore> pending_index_;  // also results being written
};

}  // namespace analysis
