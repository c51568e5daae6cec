// The engine line of `cqldb serve` (issue 39): GET /api/engine?fen= evaluates the shown
// position with the UCI engine of :evaluation (analysis/engine.h; Debian's stockfish by
// default, $CQLDB_ENGINE) for a bounded time (`go movetime`, 1 s by default). One search at a time per server: a new
// request (the page's position changed) cancels the running one, which answers "cancelled".
// Off with `cqldb serve --no-engine`.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

namespace analysis {
class UciEngine;
}

namespace web {

/// One engine evaluation.
struct EngineLine {
  bool cancelled = false;  ///< a newer request took the engine; the rest is empty
  std::string kind;        ///< "cp" (centipawns) or "mate" (moves to mate, UCI sign)
  int value = 0;           ///< from the side to move's point of view
  int depth = 0;           ///< plies searched for the line
  std::string pv;          ///< the principal variation, UCI moves separated by blanks
  std::string engine;      ///< the engine's `id name`
};

/// The server's one engine.
class EngineService {
 public:
  /// `engine`: a name or path as resolve_engine() takes it; `movetime_ms`: how long each
  /// search runs (milliseconds).
  EngineService(std::string engine, int64_t movetime_ms);
  ~EngineService();

  /// Evaluates `fen` (checked by the caller: a legal position with a legal move). Cancels a
  /// search still running for an earlier request, then waits for the engine. Throws
  /// analysis::EngineError when the engine cannot be found or fails.
  EngineLine evaluate(const std::string& fen);

 private:
  std::string engine_name_;
  int64_t movetime_ms_;
  std::atomic<uint64_t> latest_{0};   // serial of the newest request
  std::atomic<bool> cancel_{false};   // set to stop the running search
  std::mutex engine_mutex_;           // one search at a time
  std::unique_ptr<analysis::UciEngine> engine_;
};

}  // namespace web
