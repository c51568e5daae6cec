#include "db/name_table.h"

namespace db {

namespace {

// Table names cannot be bound as parameters, so each kind has its fixed SQL text.
const char* select_sql(NameKind kind) {
  switch (kind) {
    case NameKind::kPlayer:
      return "SELECT id, name FROM players";
    case NameKind::kEvent:
      return "SELECT id, name FROM events";
    case NameKind::kSite:
      return "SELECT id, name FROM sites";
    case NameKind::kOpening:
      return "SELECT id, name FROM openings";
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

NameTable::NameTable(sqlite::Connection& db, NameKind kind) : insert_(db, insert_sql(kind)) {
  sqlite::Statement select(db, select_sql(kind));
  while (select.step()) ids_.emplace(select.column_text(1), select.column_int64(0));
}

int64_t NameTable::id(std::string_view name) {
  if (auto it = ids_.find(name); it != ids_.end()) return it->second;
  insert_.bind(1, name);
  insert_.step();  // one row: the new id
  int64_t id = insert_.column_int64(0);
  insert_.reset();
  ids_.emplace(name, id);
  return id;
}

}  // namespace db
