// Thin RAII wrapper over a SQLite connection (sqlite3*). The C header stays out of this
// header. Errors throw SqliteError "<sqlite3 function>: <sqlite3_errmsg> (SQL: ...)".
#pragma once

#include <cstdint>
#include <filesystem>
#include <string_view>

#include "db/errors.h"

struct sqlite3;

namespace db::sqlite {

/// How a Connection opens its file.
enum class OpenMode {
  kReadOnly,         ///< SQLITE_OPEN_READONLY; the file must exist
  kReadWrite,        ///< SQLITE_OPEN_READWRITE; the file must exist
  kReadWriteCreate,  ///< SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
};

/// How long a connection waits for a lock held by another connection before SQLITE_BUSY.
inline constexpr int kBusyTimeoutMs = 10000;

/// One SQLite connection, to be used by one thread at a time (opened SQLITE_OPEN_NOMUTEX).
/// Move-only; closed by the destructor. Statements prepared on it must be destroyed first.
class Connection {
 public:
  /// Opens `file` with a busy timeout of `busy_timeout_ms` (waits that long for locks held
  /// by other connections before failing with SQLITE_BUSY).
  Connection(const std::filesystem::path& file, OpenMode mode,
             int busy_timeout_ms = kBusyTimeoutMs);
  Connection(Connection&& other) noexcept;
  Connection& operator=(Connection&& other) noexcept;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;
  ~Connection();

  /// Runs one or more `;`-separated statements that take no parameters and return no rows
  /// (DDL, PRAGMAs, BEGIN/COMMIT). Never use it with text that came from input.
  void exec(const char* sql);
  /// Rolls back the open transaction, if any, ignoring errors (for cleanup paths).
  void rollback() noexcept;
  /// True while a transaction is open (not in autocommit mode).
  bool in_transaction() const;
  /// The C handle, for Statement.
  sqlite3* handle() const { return db_; }

 private:
  sqlite3* db_ = nullptr;  // owned; null after a move
};

/// The exception for the failed call `function` (e.g. "sqlite3_step") on `db`, with
/// sqlite3_errmsg and `sql` when given. Shared by Connection and Statement.
SqliteError make_error(sqlite3* db, const char* function, int rc, std::string_view sql = {});

}  // namespace db::sqlite
