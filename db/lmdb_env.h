// Thin RAII wrapper over an LMDB environment (one memory-mapped file).
//
// Lifetime rules for the db::lmdb wrappers (Env, Txn, Cursor):
// - An Env outlives every Txn begun on it; a Txn outlives every Cursor opened in it.
// - Bytes returned by Txn::get / Cursor point into the memory map and are valid only until
//   the transaction ends (commit, abort, reset or destruction) or, in a write transaction,
//   until the next write. Copy them out if they must live longer.
// - A write Txn must be used and ended by the thread that began it. Read Txns are not tied
//   to a thread (the env is opened with MDB_NOTLS), so one thread may hold several.
// - Open a given file with at most one Env per process (an LMDB rule: a second Env on the
//   same file in one process breaks its locks).
//
// Map size: the data file is mapped with a fixed virtual size (default 1 TiB). Without
// MDB_WRITEMAP LMDB grows the file only as pages are written, so the reservation costs
// address space, not disk. Writing past it fails with MDB_MAP_FULL (LmdbError::code()).
#pragma once

#include <cstdint>
#include <filesystem>

struct MDB_env;

namespace db::lmdb {

/// How Env::open opens a file.
struct EnvOptions {
  uint64_t map_size = uint64_t(1) << 40;  ///< bytes of address space reserved for the map
  unsigned max_dbs = 8;                   ///< named sub-databases that may be opened
  unsigned max_readers = 1024;            ///< concurrent read transactions, all processes
  bool read_only = false;                 ///< MDB_RDONLY: no write transactions
};

/// An open LMDB environment on a single file (MDB_NOSUBDIR; the lock file is
/// "<file>-lock"). Move-only; closed by the destructor.
class Env {
 public:
  /// Opens or (unless read-only) creates `file`. Clears reader slots left by dead
  /// processes. Throws LmdbError naming the failing mdb_env_* function, FormatError
  /// naming the file when it is shorter than the pages its meta page counts as used (a
  /// truncated file, which would otherwise raise SIGBUS on first read; issue 14).
  static Env open(const std::filesystem::path& file, const EnvOptions& options = {});

  Env(Env&& other) noexcept;
  Env& operator=(Env&& other) noexcept;
  Env(const Env&) = delete;
  Env& operator=(const Env&) = delete;
  ~Env();

  /// The C handle, for the other wrappers.
  MDB_env* handle() const { return env_; }
  /// True when opened with EnvOptions::read_only.
  bool read_only() const { return read_only_; }
  /// Bytes of the map currently reserved.
  uint64_t map_size() const;
  /// Bytes of the data file in use (last used page + 1, times the page size).
  uint64_t used_bytes() const;

 private:
  explicit Env(MDB_env* env, bool read_only) : env_(env), read_only_(read_only) {}

  MDB_env* env_ = nullptr;  // owned; null after a move
  bool read_only_ = false;  // opened with MDB_RDONLY
};

}  // namespace db::lmdb
