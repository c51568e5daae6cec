// Shared by the parts of the Python module cqldb._cqldb (issue 38): its exception classes, the
// Ctrl-C handling while C++ work runs without the GIL, Python callbacks called from that work,
// the translation of storage errors, and the directories open in this process.
#pragma once

#include <pybind11/pybind11.h>

#include <atomic>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <signal.h>

#include "query/query.h"

namespace pycqldb {

namespace py = pybind11;

/// cqldb.QueryError and cqldb.DatabaseError, created once in PYBIND11_MODULE and kept for the
/// process's life.
extern PyObject* g_query_error;
extern PyObject* g_database_error;

/// Raises DatabaseError(message).
[[noreturn]] void raise_database_error(const std::string& message);

/// While alive (and only on Python's main thread, where SIGINT is handled), SIGINT sets
/// `flag` instead of Python's handler; the destructor puts Python's handler back. After the
/// C++ side returns, raise_if_interrupted() hands the signal to Python, which raises
/// KeyboardInterrupt (or runs the handler the program installed).
class SigintScope {
 public:
  explicit SigintScope(std::atomic<bool>& flag);
  ~SigintScope() { restore(); }
  /// Puts Python's handler back; true when SIGINT arrived meanwhile.
  bool restore();
  SigintScope(const SigintScope&) = delete;
  SigintScope& operator=(const SigintScope&) = delete;

 private:
  bool installed_ = false;
  struct sigaction previous_ {};
};

/// Runs Python's SIGINT handling for a Ctrl-C that arrived while `scope` was installed:
/// throws error_already_set (KeyboardInterrupt) unless the program's own handler returns.
void raise_if_interrupted(SigintScope& scope);

/// A Python callable that cqldb calls from C++ while the GIL is released: the call takes the
/// GIL, and an exception it raises (or a set `cancel` event) stops the work through `flag`;
/// the exception is raised again once the work returned (rethrow()).
class Callback {
 public:
  Callback(py::object progress, py::object cancel, std::atomic<bool>& flag)
      : progress_(std::move(progress)), cancel_(std::move(cancel)), flag_(flag) {}
  bool active() const { return !progress_.is_none() || !cancel_.is_none(); }
  template <class... Args>
  void operator()(Args&&... args) {
    py::gil_scoped_acquire gil;
    if (error_) return;
    try {
      if (!progress_.is_none()) progress_(std::forward<Args>(args)...);
      if (!cancel_.is_none() && py::bool_(cancel_.attr("is_set")())) flag_.store(true);
    } catch (py::error_already_set& e) {
      error_ = std::make_unique<py::error_already_set>(std::move(e));
      flag_.store(true);
    }
  }
  void rethrow() {
    if (error_) throw *error_;
  }

 private:
  py::object progress_, cancel_;
  std::atomic<bool>& flag_;
  std::unique_ptr<py::error_already_set> error_;
};

/// Runs `f` and turns the storage errors of cqldb into DatabaseError (a QueryError and a
/// Python exception pass through).
template <class F>
auto guarded(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const query::QueryError&) {
    throw;
  } catch (const py::error_already_set&) {
    throw;
  } catch (const std::out_of_range& e) {
    throw py::index_error(e.what());
  } catch (const std::runtime_error& e) {
    raise_database_error(e.what());
  }
}


/// Records `path` (canonical form in `key`) as open in this process; false when it already
/// is (an LMDB rule: a directory is opened once per process at a time).
bool claim_directory(const std::string& path, std::string& key);
/// Forgets `key` (claim_directory's).
void release_directory(const std::string& key);

/// cqldb.import_pgn's C++ side (import.cpp): the importer's summary as a dict.
py::dict import_pgn(const std::string& db_path, std::vector<std::string> files, py::object progress,
                    bool skip_duplicates, unsigned threads, uint64_t shard_size);

}  // namespace pycqldb
