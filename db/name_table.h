// NameTable: interning of player, event and site names during a GameWriter's life.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "db/sqlite_db.h"
#include "db/sqlite_statement.h"

namespace db {

/// Which name table a NameTable interns into.
enum class NameKind { kPlayer, kEvent, kSite, kOpening };

/// Maps names to row ids of one of the tables players / events / sites / openings, inserting unknown
/// names. Keeps every name in an in-memory hash map so that a batch of games needs no
/// SELECTs: the map is loaded from the table once at construction and then kept in step
/// with the inserts. Ids handed out inside a transaction that is rolled back are invalid,
/// so a NameTable must be discarded together with a failed batch (GameWriter does).
class NameTable {
 public:
  /// Loads the existing rows of the table for `kind` through `db`.
  NameTable(sqlite::Connection& db, NameKind kind);
  /// The id of `name` (exact bytes), inserting it into the table if it is new.
  int64_t id(std::string_view name);
  /// Number of names known.
  size_t size() const { return ids_.size(); }

 private:
  /// Transparent hash so lookups by string_view do not build a std::string.
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };

  sqlite::Statement insert_;  // INSERT INTO <table>(name) ... RETURNING id
  std::unordered_map<std::string, int64_t, Hash, std::equal_to<>> ids_;  // name -> id
};

}  // namespace db
