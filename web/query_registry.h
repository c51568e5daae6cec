// The queries of `cqldb serve` (issue 19): each POST /api/query becomes a QueryRun, run on its
// own thread by the one query pipeline (query::Query::compile + query::execute, with the
// header filter fields as `within`), kept for paging and sorting after it finished, and
// cancelled on DELETE, when its client stops asking about it, or at shutdown.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "query/executor.h"

namespace query {
class Store;
}

namespace web {

/// What a client asks to run.
struct QueryRequest {
  std::string cql;                        ///< the CQL script (one (match ...) list)
  std::vector<std::string> filter_terms;  ///< header filter terms, e.g. "elo>=2500"
                                          ///< (headers/filter_terms.h)
  uint64_t limit = 0;                     ///< keep this many matches; 0 = all
  /// The order `limit` keeps the first of (a headers::parse_sort_order name, "" = ids): the
  /// first N of the sorted answer (issue 40).
  std::string sort;
  std::string dialect = "auto";           ///< "auto", "cqls" or "cql6" (query::parse_dialect)
};

/// Where a run is.
enum class RunState { kRunning, kDone, kCancelled, kFailed };

/// "running", "done", "cancelled", "failed".
const char* run_state_name(RunState state);

/// One query run. The counters are written by the run's thread and read by anyone; the
/// rest is guarded by `mutex`.
struct QueryRun {
  std::string id;                          ///< "q1", "q2"...: the handle clients use
  QueryRequest request;
  std::atomic<bool> cancel{false};         ///< set to stop the run
  std::atomic<uint64_t> searched{0}, total{0}, found{0};  ///< progress figures
  std::atomic<int64_t> last_seen_ms{0};    ///< when a client last asked (steady clock, ms)
  std::atomic<bool> finished{false};       ///< the thread has ended

  mutable std::mutex mutex;
  std::condition_variable finished_signal; ///< notified (under `mutex`) when `finished` is set
  RunState state = RunState::kRunning;
  std::string error;                       ///< kFailed: what went wrong
  query::Result result;                    ///< when finished: the matches (ascending ids), figures
  std::string plan;                        ///< query::explain_plan of the query
  /// Orders of `result.matches` asked so far, by sort name ("-date"): indexes into matches.
  std::map<std::string, std::vector<uint32_t>> orders;

  /// Waits until the run has finished or `timeout` has passed; true when finished. The
  /// answer comes as soon as the run's thread ends (no polling interval).
  bool wait_finished(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex);
    return finished_signal.wait_for(lock, timeout, [this] { return finished.load(); });
  }
};

/// Limits and timings of the registry.
struct RegistryOptions {
  size_t max_running = 4;       ///< concurrent runs; start() refuses more
  size_t max_kept = 256;        ///< finished runs kept for paging (those asked about least
                                ///< recently dropped first)
  int idle_cancel_seconds = 20; ///< a running query nobody asked about for this long is cancelled
  unsigned threads = 0;         ///< worker threads per run (0 = all cores)
  bool analysis_cache = false;  ///< keep engine results in the database directory (a write)
};

/// The registry of runs over one open database or sharded database (ids global).
class QueryRegistry {
 public:
  QueryRegistry(const query::Store& store, RegistryOptions options);
  /// Cancels every run and waits for their threads.
  ~QueryRegistry();
  QueryRegistry(const QueryRegistry&) = delete;
  QueryRegistry& operator=(const QueryRegistry&) = delete;

  /// Compiles `request` and starts it. Throws query::QueryError for a script that does not
  /// compile, std::invalid_argument for a bad filter term or a script naming a file (:pgn,
  /// :output: the web takes no file-system path). Returns nullptr when max_running runs are
  /// already running (HTTP 429).
  std::shared_ptr<QueryRun> start(const QueryRequest& request);
  /// The run `id`, marked as seen; nullptr when unknown (or dropped).
  std::shared_ptr<QueryRun> find(const std::string& id);
  /// Cancels run `id`; false when unknown.
  bool cancel(const std::string& id);
  /// Cancels running runs idle for idle_cancel_seconds, joins finished threads and drops the
  /// finished runs beyond max_kept that were asked about least recently. Called by the
  /// server about every second.
  void sweep();
  /// Runs running now.
  size_t running() const;
  /// The order `sort` ("date", "-elo", "plies", ... or "" = id) of `run`'s matches as indexes
  /// into result.matches, computed once per sort name. Requires a finished run; throws
  /// std::invalid_argument for an unknown sort name. Locks run.mutex itself.
  std::vector<uint32_t> order(QueryRun& run, const std::string& sort);


 private:
  void run(std::shared_ptr<QueryRun> run, std::shared_ptr<void> compiled);

  const query::Store& store_;
  RegistryOptions options_;
  mutable std::mutex mutex_;
  uint64_t next_id_ = 1;
  struct Entry {
    std::shared_ptr<QueryRun> run;
    std::thread thread;
    uint64_t serial = 0;
  };
  std::map<std::string, Entry> runs_;
};

/// Milliseconds of the steady clock (for QueryRun::last_seen_ms).
int64_t steady_ms();

}  // namespace web
