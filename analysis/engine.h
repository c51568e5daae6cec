// A UCI chess engine process (Debian's `stockfish` by default) driven over a socket pair
// for `:evaluation` / `:moveevaluation` (CQL-Position-List "position:evaluation",
// seed 000 "Schlüsselwörter für die Stellungs- und Zugbeurteilung").
//
// Lifetime: one UciEngine per worker thread; the process starts at the first analyse() and
// is killed (SIGKILL, then reaped) by stop() or the destructor. It runs in its own process
// group, so a terminal Ctrl-C reaches cqldb (which cancels the query) and not the engine.
// Every read waits with poll() and a deadline: a missing, crashing or hanging engine throws
// EngineError, never blocks the query.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "cql/vocabulary.h"

namespace analysis {

/// An engine failure that ends the query: not found, could not start, exited or crashed,
/// did not answer in time, or spoke something that is not UCI.
class EngineError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Thrown out of an engine wait when the query was cancelled (Ctrl-C) or abandoned because
/// another worker failed. The engine process has been killed; not an error of its own.
class EngineCancelled : public std::exception {
 public:
  const char* what() const noexcept override { return "engine analysis cancelled"; }
};

/// An engine score from the side to move's point of view, as UCI reports it.
struct EngineScore {
  enum class Kind : uint8_t { kCentipawns, kMate };
  Kind kind = Kind::kCentipawns;
  /// kCentipawns: centipawns (100 = one pawn). kMate: moves to mate, UCI sign: n > 0 the side
  /// to move mates in n moves, n < 0 it is mated in -n moves, 0 it is mated now.
  int32_t value = 0;

  /// Plies until mate (kMate only): 2n - 1 for a win in n moves, 2|n| for a loss.
  int mate_plies() const { return value > 0 ? 2 * value - 1 : -2 * value; }
  friend bool operator==(const EngineScore&, const EngineScore&) = default;
};

/// Centipawn value of a mate score's bound: a mate is worth +-(kMateCentipawns - plies to
/// mate), 20,000 pawns, beyond any pawn bound a query can mean (SPEC Analysis keywords), so a
/// move evaluation that finds a new mate differs by more than 10,000 pawns (reference).
inline constexpr int64_t kMateCentipawns = 2'000'000;

/// `s` on one centipawn scale, side to move's view: centipawns as they are, mates as above.
int64_t centipawns(const EngineScore& s);

/// How an engine is run.
struct EngineConfig {
  std::string path;                    ///< the executable (resolve_engine() gives one)
  int hash_mb = 16;                    ///< UCI Hash option, megabytes
  int64_t start_timeout_ms = 15000;    ///< `uci`..`uciok` and `isready`..`readyok`
  int64_t depth_timeout_ms = 300000;   ///< a `go depth d` search before it counts as hung
  int64_t movetime_margin_ms = 5000;   ///< added to `go movetime ms` before it counts as hung
  const std::atomic<bool>* cancel = nullptr;  ///< Ctrl-C: stop waiting, throw EngineCancelled
  const std::atomic<bool>* abandon = nullptr; ///< another worker failed: likewise
};

/// The executable for `name`: a name with a '/' is taken as a path (it must be an
/// executable file); a bare name is searched on PATH, then in /usr/games and
/// /usr/local/games (Debian installs stockfish to /usr/games). Throws EngineError naming
/// `--engine` and CQLDB_ENGINE when nothing is found.
std::string resolve_engine(const std::string& name);

/// One UCI engine process. Not thread-safe: one per worker thread.
class UciEngine {
 public:
  explicit UciEngine(EngineConfig config);
  ~UciEngine();
  UciEngine(const UciEngine&) = delete;
  UciEngine& operator=(const UciEngine&) = delete;

  /// Searches `fen` (full FEN; the board must have a legal move; `chess960` sets
  /// UCI_Chess960) to `limit` (`go depth value` in plies or `go movetime value` in
  /// milliseconds) from a cleared state
  /// (`ucinewgame`, so a result does not depend on earlier searches) and returns the last
  /// exact score the engine reported. Starts the process on first use. Throws EngineError
  /// (the process is killed) or EngineCancelled. When `pv` is given it receives the
  /// principal variation (UCI moves separated by blanks) and `depth` the depth in plies of
  /// the line that gave the returned score (the web's engine line).
  EngineScore analyse(std::string_view fen, bool chess960, cql::EngineLimit limit, int64_t value,
                      std::string* pv = nullptr, int* depth = nullptr);

  /// Kills and reaps the process, if running. Safe to call at any time.
  void stop() noexcept;
  /// The process id while running, else -1 (tests kill it to simulate a crash).
  pid_t pid() const { return pid_; }
  /// The engine's `id name`, once started.
  const std::string& name() const { return name_; }

 private:
  using Clock = std::chrono::steady_clock;
  void start();
  void send(std::string_view text);
  /// The next line (without the line end) into `line`; waits until `deadline`. Throws
  /// EngineError on end of stream / timeout (`waiting_for` names what was awaited, `fen`
  /// the position being analysed, may be empty), EngineCancelled on cancellation.
  void read_line(std::string& line, Clock::time_point deadline, std::string_view waiting_for,
                 std::string_view fen);
  /// Kills the process and throws EngineError with `what` and how the process ended.
  [[noreturn]] void fail(const std::string& what);

  EngineConfig config_;
  pid_t pid_ = -1;
  int fd_ = -1;         // our end of the socket pair (engine stdin and stdout)
  std::string buffer_;  // bytes read, not yet returned as lines
  std::string name_;
  std::string command_;  // scratch for send()
  bool chess960_ = false;  // UCI_Chess960 as last set
};

}  // namespace analysis
