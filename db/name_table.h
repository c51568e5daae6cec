// NameTable: interning of player, event, site, opening and tag names during a GameWriter's life.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "db/sqlite_db.h"
#include "db/sqlite_statement.h"

namespace db {

/// Which name table a NameTable interns into.
enum class NameKind { kPlayer, kEvent, kSite, kOpening, kTagName };

/// Maps names to row ids of one of the tables players / events / sites / openings / tag_names
/// (names of other tags, issue 23), inserting unknown
/// names. A name not in the cache is looked up through the table's UNIQUE index (one
/// SELECT) and inserted when missing, or inserted first while new names come (the UNIQUE
/// index refuses a stored one, which is then looked up). The cache holds at most kMaxCached names (it is
/// emptied when full), so memory does not grow with the database (issue 16): appending to
/// a database of millions of players costs the names of the new games, not of the stored
/// ones. Ids handed out inside a transaction that is rolled back are invalid, so a
/// NameTable must be discarded together with a failed batch (GameWriter does).
class NameTable {
 public:
  /// Names kept in the cache at most (about 100 bytes each).
  static constexpr size_t kMaxCached = 1 << 17;

  /// Prepares the statements on the table for `kind` through `db` (reads no rows).
  NameTable(sqlite::Connection& db, NameKind kind);
  /// The id of `name` (exact bytes), inserting it into the table if it is new.
  int64_t id(std::string_view name);
  /// The id of `name` (exact bytes) when the table has it, else std::nullopt; inserts
  /// nothing. A found name is cached.
  std::optional<int64_t> find(std::string_view name);
  /// Number of names in the cache.
  size_t cached() const { return ids_.size(); }

 private:
  /// Transparent hash so lookups by string_view do not build a std::string.
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };

  sqlite::Statement select_;  // SELECT id FROM <table> WHERE name = ?1
  sqlite::Statement insert_;  // INSERT INTO <table>(name) ... ON CONFLICT DO NOTHING
  bool insert_first_ = true;  // the last name missing from the cache was new
  std::unordered_map<std::string, int64_t, Hash, std::equal_to<>> ids_;  // name -> id
  /// Sets the last name and id below; returns `id`.
  int64_t remember(std::string_view name, int64_t id);
  // The last name id() returned and its id: consecutive games of a file mostly share their
  // event and site (and opening names repeat), so this skips the hash lookup for them.
  std::string last_name_;
  int64_t last_id_ = 0;
};

}  // namespace db
