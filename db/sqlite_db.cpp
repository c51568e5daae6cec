#include "db/sqlite_db.h"

#include <sqlite3.h>

#include <string>
#include <utility>

#include "db/tag_list.h"

namespace db::sqlite {

SqliteError make_error(sqlite3* db, const char* function, int rc, std::string_view sql) {
  std::string message = std::string(function) + ": ";
  message += db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  if (!sql.empty()) message.append(" (SQL: ").append(sql).append(")");
  return SqliteError(message, db ? sqlite3_extended_errcode(db) : rc);
}

Connection::Connection(const std::filesystem::path& file, OpenMode mode, int busy_timeout_ms) {
  int flags = SQLITE_OPEN_NOMUTEX;
  switch (mode) {
    case OpenMode::kReadOnly:
      flags |= SQLITE_OPEN_READONLY;
      break;
    case OpenMode::kReadWrite:
      flags |= SQLITE_OPEN_READWRITE;
      break;
    case OpenMode::kReadWriteCreate:
      flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
      break;
  }
  const char* function = "sqlite3_open_v2";
  int rc = sqlite3_open_v2(file.c_str(), &db_, flags, nullptr);
  if (rc == SQLITE_OK) {
    sqlite3_extended_result_codes(db_, 1);
    function = "sqlite3_busy_timeout";
    rc = sqlite3_busy_timeout(db_, busy_timeout_ms);
  }
  if (rc == SQLITE_OK) {
    // The `tags` view reads the packed tag lists through cqldb_tag_list (db/tag_list.h):
    // every connection can read it.
    function = "sqlite3_create_module_v2";
    try {
      register_tag_list_module(db_);
    } catch (const SqliteError& e) {
      rc = e.code();
    }
  }
  if (rc != SQLITE_OK) {
    std::string message = std::string(function) + ": ";
    message += db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    message += " (" + file.string() + ")";
    sqlite3_close_v2(std::exchange(db_, nullptr));
    throw SqliteError(message, rc);
  }
}

Connection::Connection(Connection&& other) noexcept : db_(std::exchange(other.db_, nullptr)) {}

Connection& Connection::operator=(Connection&& other) noexcept {
  if (this != &other) {
    if (db_) sqlite3_close_v2(db_);
    db_ = std::exchange(other.db_, nullptr);
  }
  return *this;
}

Connection::~Connection() {
  if (db_) sqlite3_close_v2(db_);
}

void Connection::exec(const char* sql) {
  int rc = sqlite3_exec(db_, sql, nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) throw make_error(db_, "sqlite3_exec", rc, sql);
}

void Connection::rollback() noexcept {
  if (db_ && !sqlite3_get_autocommit(db_)) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
}

bool Connection::in_transaction() const {
  return sqlite3_get_autocommit(db_) == 0;
}

}  // namespace db::sqlite
