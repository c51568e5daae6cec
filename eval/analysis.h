// Engine keywords `:evaluation` and `:moveevaluation` (CQL-Position-List
// "position:evaluation", "position:moveevaluation"; seed 000 "Stellungs- und
// Zugbeurteilung"): the per-query AnalysisSession (engine name, result cache, figures), the
// per-worker AnalysisContext (its own engine process and cache reader) that PosCtx::analysis
// points to, and the node tests.
//
// Scores are compared in centipawns: a range written in pawn units (`>=2.5`) is compiled to
// whole centipawns; mates are +-(kMateCentipawns - plies to mate) (eval/engine.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>

#include "chess/position.h"
#include "cql/ast.h"
#include "eval/analysis_cache.h"
#include "eval/engine.h"
#include "eval/node.h"

namespace eval {

/// The engine settings of one engine node, packed into Node::value:
/// bits 0..31 limit (plies or ms), bit 32 movetime, bit 33 absolute, bit 34 mate,
/// bit 35 colours swapped (`absolute` then means Black's view).
struct EngineQuery {
  cql::EngineLimit mode = cql::EngineLimit::Depth;
  int64_t limit = 0;  ///< plies (depth) or milliseconds (movetime), 1..1e9
  cql::ScoreView view = cql::ScoreView::SideToMove;
  bool mate = false;            ///< `:evaluation ... mate`
  bool colors_swapped = false;  ///< compiled under a colour-swapping transformation

  int64_t pack() const;
  static EngineQuery unpack(int64_t value);
};

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
/// e.g. a GameMatcher outside eval::search, a per-thread context with the default engine and
/// no cache serves, eval/analysis.cpp context_of()). The engine starts
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

/// Node of `:evaluation` / `:moveevaluation` (`k`) with its compiled designators `d`
/// (movers, targets); `swap` = compiled under a colour-swapping transformation.
Node engine_node(const cql::KeywordItem& item, cql::Keyword k, std::vector<Designator> d, bool swap);

/// Op::kEvaluation: the engine's score of the position (view per EngineQuery) lies in
/// Node::range (centipawns), or with `mate` a mate was found (depth d: within d plies).
bool match_evaluation(const Node& n, const PosCtx& c);
/// Op::kMoveEvaluation: the next move's piece matches d[0] on its from square and its
/// destination (content before the move, as :moveto) matches d[1], and score(after the move)
/// - score(before it), both from the view of the side to move after the move (sidetomove)
/// or of White (absolute), lies in Node::range (centipawns).
bool match_move_evaluation(const Node& n, const PosCtx& c);
/// True if evaluating `n` may run the engine (an engine op, or one inside its sub-lists):
/// compile() orders such nodes last in their conjunction so cheap conditions prune first.
bool uses_engine(const Node& n);

}  // namespace eval
