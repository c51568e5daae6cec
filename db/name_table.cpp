#include "db/name_table.h"

#include <stdexcept>

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
    case NameKind::kTagName:
      return "SELECT id FROM tag_names WHERE name = ?1";
  }
  return nullptr;
}

const char* insert_sql(NameKind kind) {
  switch (kind) {
    case NameKind::kPlayer:
      return "INSERT INTO players(name) VALUES(?1) ON CONFLICT(name) DO NOTHING";
    case NameKind::kEvent:
      return "INSERT INTO events(name) VALUES(?1) ON CONFLICT(name) DO NOTHING";
    case NameKind::kSite:
      return "INSERT INTO sites(name) VALUES(?1) ON CONFLICT(name) DO NOTHING";
    case NameKind::kOpening:
      return "INSERT INTO openings(name) VALUES(?1) ON CONFLICT(name) DO NOTHING";
    case NameKind::kTagName:
      return "INSERT INTO tag_names(name) VALUES(?1) ON CONFLICT(name) DO NOTHING";
  }
  return nullptr;
}

}  // namespace

NameTable::NameTable(sqlite::Connection& db, NameKind kind)
    : select_(db, select_sql(kind)), insert_(db, insert_sql(kind)) {}

std::optional<int64_t> NameTable::find(std::string_view name) {
  if (auto it = ids_.find(name); it != ids_.end()) return it->second;
  select_.bind(1, name);
  const bool found = select_.step();
  const int64_t id = found ? select_.column_int64(0) : 0;
  select_.reset();
  if (!found) return std::nullopt;
  if (ids_.size() >= kMaxCached) ids_.clear();
  ids_.emplace(name, id);
  return id;
}

int64_t NameTable::id(std::string_view name) {
  if (last_id_ && name == last_name_) return last_id_;
  if (auto it = ids_.find(name); it != ids_.end()) return remember(name, it->second);
  // A name missing from the cache is looked up first when the last such name was stored
  // already (appending to a database), else inserted first (a fresh import; a per-game
  // name such as a lichess game URL): one statement in the common case of each.
  auto try_select = [&](int64_t& id) {
    select_.bind(1, name);
    const bool found = select_.step();
    if (found) id = select_.column_int64(0);
    select_.reset();
    return found;
  };
  auto try_insert = [&](int64_t& id) {
    insert_.bind(1, name);
    insert_.run();  // ON CONFLICT DO NOTHING: no row when the name is stored already
    id = insert_.inserted_rowid();
    return id != 0;
  };
  int64_t id = 0;
  if (insert_first_) {
    if (!try_insert(id)) {
      insert_first_ = false;
      if (!try_select(id))
        throw std::logic_error("NameTable: a name neither inserted nor found: " + std::string(name));
    }
  } else if (try_select(id)) {
  } else {
    insert_first_ = true;
    if (!try_insert(id))
      throw std::logic_error("NameTable: a name neither found nor inserted: " + std::string(name));
  }
  if (ids_.size() >= kMaxCached) ids_.clear();
  ids_.emplace(name, id);
  return remember(name, id);
}

int64_t NameTable::remember(std::string_view name, int64_t id) {
  last_name_.assign(name);
  last_id_ = id;
  return id;
}

}  // namespace db
