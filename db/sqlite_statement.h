// Thin RAII wrapper over a prepared SQLite statement (sqlite3_stmt*). Statements are
// prepared once (SQLITE_PREPARE_PERSISTENT) and re-run with reset(); parameters are always
// bound, never spliced into the SQL text.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "db/sqlite_db.h"

struct sqlite3_stmt;

namespace db::sqlite {

/// One value for a `?` placeholder, built before the statement exists (e.g. by a WHERE
/// clause builder) and bound with Statement::bind_all.
struct Param {
  bool is_text = false;  ///< text (else integer)
  int64_t number = 0;    ///< the integer value
  std::string text;      ///< the text value
};

/// One prepared statement. Move-only; must be destroyed before its Connection.
///
/// Lifetimes: text bound with bind() is not copied (SQLITE_STATIC) and must stay valid
/// until the statement is reset() (or the parameter re-bound). Text returned by
/// column_text() is valid until the next step() or reset().
class Statement {
 public:
  /// Prepares `sql` (one statement). Throws SqliteError("sqlite3_prepare_v3").
  Statement(Connection& connection, std::string_view sql);
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement();

  /// Binds an integer to 1-based parameter `index`.
  void bind(int index, int64_t value);
  /// Binds text (not copied; see the lifetime note above) to 1-based parameter `index`.
  void bind(int index, std::string_view text);
  /// Binds the bytes of `bytes` as a BLOB (not copied, like text) to 1-based parameter `index`.
  void bind_blob(int index, std::string_view bytes);
  /// Binds NULL to 1-based parameter `index`.
  void bind_null(int index);
  /// Binds `value`, or NULL when it is empty.
  void bind(int index, std::optional<int64_t> value);
  /// Binds `params` in order to the parameters from 1-based `first` on (text not copied:
  /// `params` must outlive the run). Returns the index after the last one bound.
  int bind_all(const std::vector<Param>& params, int first = 1);

  /// Runs the statement one step. Returns true when a row is available, false when done.
  /// Throws SqliteError("sqlite3_step") on failure.
  bool step();
  /// Runs a statement that returns no rows to completion, then reset()s it.
  void run();
  /// Rewinds the statement and clears its bindings so it can run again.
  void reset();
  /// After run() of an INSERT: the rowid of the row it inserted, or 0 when it inserted none
  /// (e.g. ON CONFLICT DO NOTHING); cheaper than RETURNING (no ephemeral table). Reads the
  /// connection's sqlite3_changes / sqlite3_last_insert_rowid, so ask before the next write.
  int64_t inserted_rowid() const;

  /// Integer value of 0-based result column `col` (0 for NULL).
  int64_t column_int64(int col) const;
  /// Text of 0-based result column `col` ("" for NULL); valid until the next step/reset.
  std::string_view column_text(int col) const;
  /// Bytes of 0-based result column `col` as a BLOB (empty for NULL); valid like column_text.
  std::string_view column_blob(int col) const;
  /// True when 0-based result column `col` is NULL.
  bool column_is_null(int col) const;

 private:
  sqlite3_stmt* stmt_ = nullptr;  // owned; null after a move
};

}  // namespace db::sqlite
