// The engine side of the analysis keywords (`:evaluation`, `:moveevaluation`): the
// per-query AnalysisSession (engine name, result cache, figures) and the per-worker
// AnalysisContext (its own engine process and cache reader). Nothing here knows CQL nodes;
// eval/analysis_keywords.h evaluates the keywords through an AnalysisContext.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>

#include "analysis/analysis_cache.h"
#include "analysis/engine.h"
#include "chess/position.h"

namespace analysis {

/// The engine name to use when none is given: $CQLDB_ENGINE, else "stockfish".
std::string default_engine_name();

/// What a query shares between its workers: the engine executable (resolved on first use),
/// the result cache, the cancel flags and the figures. Thread-safe.
class AnalysisSession {
 public:
  /// `engine`: a path or a name looked up on PATH (resolve_engine()); empty = the default.
  /// `cache_file`: the cache's file (AnalysisCache::kFileName in the database directory), or
  /// empty for none; a file that cannot be opened disables the cache with one warning on
  /// stderr. `cancel` (Ctrl-C) and `abandon` (another worker failed) end engine waits.
  AnalysisSession(std::string engine, std::filesystem::path cache_file,
                  const std::atomic<bool>* cancel = nullptr, const std::atomic<bool>* abandon = nullptr);
  ~AnalysisSession();

  /// Engine process settings (path filled in by engine_config()); tests shorten timeouts.
  EngineConfig config;
  /// Engine searches run / results taken from the cache (also from this query's own).
  std::atomic<uint64_t> engine_calls{0}, cache_hits{0};

  /// The config with the resolved engine path. Throws EngineError if there is no engine.
  const EngineConfig& engine_config();
  /// The cache, or null when there is none (opened on first call).
  AnalysisCache* cache();
  /// Writes pending cache results. Throws db::SqliteError.
  void flush();

 private:
  std::string engine_name_;
  std::filesystem::path cache_file_;
  std::mutex mutex_;
  bool resolved_ = false;
  std::string resolve_error_;
  bool cache_opened_ = false;
  std::unique_ptr<AnalysisCache> cache_;
};

/// One worker's engine and cache reader; PosCtx::analysis points to it (when it is null,
/// e.g. a GameMatcher outside query::execute, a per-thread context with the default engine and
/// no cache serves, eval/analysis_keywords.cpp context_of()). The engine starts
/// on the first search and is killed by the destructor (end of query, error, Ctrl-C).
class AnalysisContext {
 public:
  explicit AnalysisContext(AnalysisSession& session);
  ~AnalysisContext();
  AnalysisContext(const AnalysisContext&) = delete;
  AnalysisContext& operator=(const AnalysisContext&) = delete;

  /// The engine's score of `pos` searched to `limit` (plies or ms), side to move's view.
  /// Positions without a legal move are scored without the engine (mated: mate 0;
  /// stalemate: 0). Throws EngineError / EngineCancelled.
  EngineScore evaluate(const chess::Position& pos, cql::EngineLimit mode, int64_t limit);
  /// The engine process id, or -1 before the first search (tests kill it).
  pid_t engine_pid() const;

 private:
  AnalysisSession& session_;
  std::unique_ptr<UciEngine> engine_;
  std::unique_ptr<AnalysisCache::Reader> reader_;
  AnalysisKey key_;  // scratch
};

}  // namespace analysis
