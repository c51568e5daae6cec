// Thin RAII wrapper over an LMDB cursor. The lifetime rules are in lmdb_env.h; in addition a
// Cursor must be destroyed before its Txn ends (LMDB frees write-transaction cursors at
// commit).
#pragma once

#include <string_view>

#include "db/lmdb_txn.h"

struct MDB_cursor;

namespace db::lmdb {

/// A cursor over one sub-database within one transaction. Move-only. Positioning calls
/// return false when there is no such entry ("not found" is not an error); on success they
/// set `key` and `value` to views valid until the transaction ends.
class Cursor {
 public:
  /// Opens a cursor on `dbi` inside `txn`.
  Cursor(const Txn& txn, Dbi dbi);
  Cursor(Cursor&& other) noexcept;
  Cursor& operator=(Cursor&& other) noexcept;
  Cursor(const Cursor&) = delete;
  Cursor& operator=(const Cursor&) = delete;
  ~Cursor();

  /// Moves to the first entry.
  bool first(std::string_view& key, std::string_view& value);
  /// Moves to the last entry.
  bool last(std::string_view& key, std::string_view& value);
  /// Moves to the next entry.
  bool next(std::string_view& key, std::string_view& value);
  /// Moves to the first entry whose key is >= `target` (MDB_SET_RANGE).
  bool seek(std::string_view target, std::string_view& key, std::string_view& value);
  /// Deletes the entry at the cursor (write transactions only).
  void del();

 private:
  bool get(std::string_view* target, std::string_view& key, std::string_view& value, int op);

  MDB_cursor* cursor_ = nullptr;  // owned; null after a move
};

}  // namespace db::lmdb
