#include "db/name_table.h"

namespace db {

namespace {

// Table names cannot be bound as parameters, so each kind has its fixed SQL text.
const char* select_sql(NameKind kind) {
  switch (kind) {
    case NameKind::kPlayer:
      return "SELECT id FROM players WHERE name = ?1";
    case NameKind::kEvent:
      return "SELECT id FROM events WHERE name = ?1";
    case NameKind::kSite:
      return "SELECT id FROM sites WHERE name = ?1";
    case NameKind::kOpening:
      return "SELECT id FROM openings WHERE name = ?1";
  }
  return nullptr;
}

const char* insert_sql(NameKind kind) {
  switch (kind) {
    case NameKind::kPlayer:
      return "INSERT INTO players(name) VALUES(?1) RETURNING id";
    case NameKind::kEvent:
      return "INSERT INTO events(name) VALUES(?1) RETURNING id";
    case NameKind::kSite:
      return "INSERT INTO sites(name) VALUES(?1) RETURNING id";
    case NameKind::kOpening:
      return "INSERT INTO openings(name) VALUES(?1) RETURNING id";
  }
  return nullptr;
}

}  // namespace

NameTable::NameTable(sqlite::Connection& db, NameKind kind)
    : select_(db, select_sql(kind)), insert_(db, insert_sql(kind)) {}

int64_t NameTable::id(std::string_view name) {
  if (auto it = ids_.find(name); it != ids_.end()) return it->second;
  select_.bind(1, name);
  const bool found = select_.step();
  int64_t id = found ? select_.column_int64(0) : 0;
  select_.reset();
  if (!found) {
    insert_.bind(1, name);
    insert_.step();  // one row: the new id
    id = insert_.column_int64(0);
    insert_.reset();
  }
  if (ids_.size() >= kMaxCached) ids_.clear();
  ids_.emplace(name, id);
  return id;
}

}  // namespace db
