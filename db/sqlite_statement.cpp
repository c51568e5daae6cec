#include "db/sqlite_statement.h"

#include <sqlite3.h>

#include <string>
#include <utility>

namespace db::sqlite {

namespace {

SqliteError error(sqlite3_stmt* stmt, const char* function, int rc) {
  return make_error(sqlite3_db_handle(stmt), function, rc, sqlite3_sql(stmt));
}

}  // namespace

Statement::Statement(Connection& connection, std::string_view sql) {
  int rc = sqlite3_prepare_v3(connection.handle(), sql.data(), int(sql.size()),
                              SQLITE_PREPARE_PERSISTENT, &stmt_, nullptr);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(std::exchange(stmt_, nullptr));
    throw make_error(connection.handle(), "sqlite3_prepare_v3", rc, sql);
  }
}

Statement::Statement(Statement&& other) noexcept : stmt_(std::exchange(other.stmt_, nullptr)) {}

Statement& Statement::operator=(Statement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(stmt_);
    stmt_ = std::exchange(other.stmt_, nullptr);
  }
  return *this;
}

Statement::~Statement() {
  sqlite3_finalize(stmt_);
}

void Statement::bind(int index, int64_t value) {
  if (int rc = sqlite3_bind_int64(stmt_, index, value); rc != SQLITE_OK)
    throw error(stmt_, "sqlite3_bind_int64", rc);
}

void Statement::bind(int index, std::string_view text) {
  // A non-null pointer even for "" so that empty text binds as '' rather than NULL.
  const char* data = text.data() ? text.data() : "";
  if (int rc = sqlite3_bind_text(stmt_, index, data, int(text.size()), SQLITE_STATIC);
      rc != SQLITE_OK)
    throw error(stmt_, "sqlite3_bind_text", rc);
}

void Statement::bind_blob(int index, std::string_view bytes) {
  // A non-null pointer even when empty: a zero-length BLOB, not NULL.
  const char* data = bytes.data() ? bytes.data() : "";
  if (int rc = sqlite3_bind_blob(stmt_, index, data, int(bytes.size()), SQLITE_STATIC); rc != SQLITE_OK)
    throw error(stmt_, "sqlite3_bind_blob", rc);
}

int Statement::bind_all(const std::vector<Param>& params, int first) {
  for (const Param& p : params) {
    if (p.is_text)
      bind(first++, std::string_view(p.text));
    else
      bind(first++, p.number);
  }
  return first;
}

void Statement::bind_null(int index) {
  if (int rc = sqlite3_bind_null(stmt_, index); rc != SQLITE_OK)
    throw error(stmt_, "sqlite3_bind_null", rc);
}

void Statement::bind(int index, std::optional<int64_t> value) {
  if (value)
    bind(index, *value);
  else
    bind_null(index);
}

bool Statement::step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  SqliteError e = error(stmt_, "sqlite3_step", rc);  // before reset() replaces the message
  sqlite3_reset(stmt_);
  throw e;
}

int64_t Statement::inserted_rowid() const {
  sqlite3* db = sqlite3_db_handle(stmt_);
  return sqlite3_changes64(db) == 0 ? 0 : sqlite3_last_insert_rowid(db);
}

void Statement::run() {
  if (step()) {
    reset();
    throw SqliteError(
        std::string("Statement::run: the statement returns rows (SQL: ") + sqlite3_sql(stmt_) + ")",
        SQLITE_MISUSE);
  }
  reset();
}

void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

int64_t Statement::column_int64(int col) const {
  return sqlite3_column_int64(stmt_, col);
}

std::string_view Statement::column_text(int col) const {
  const unsigned char* text = sqlite3_column_text(stmt_, col);
  if (!text) return {};
  return {reinterpret_cast<const char*>(text), size_t(sqlite3_column_bytes(stmt_, col))};
}

std::string_view Statement::column_blob(int col) const {
  const void* bytes = sqlite3_column_blob(stmt_, col);
  if (!bytes) return {};
  return {static_cast<const char*>(bytes), size_t(sqlite3_column_bytes(stmt_, col))};
}

bool Statement::column_is_null(int col) const {
  return sqlite3_column_type(stmt_, col) == SQLITE_NULL;
}

}  // namespace db::sqlite
