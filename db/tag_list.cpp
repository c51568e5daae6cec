#include "db/tag_list.h"

#include <sqlite3.h>

#include <cstring>
#include <new>

#include "db/name_table.h"
#include "db/record_codec.h"
#include "db/sqlite_transaction.h"

namespace db {

const char* const kCreatePackedTagTables = R"sql(
CREATE TABLE IF NOT EXISTS tag_names(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS tag_values(
  name_id INTEGER NOT NULL,
  code INTEGER NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY(name_id, code)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS game_tag_lists(game_id INTEGER PRIMARY KEY, packed BLOB NOT NULL);
)sql";

const char* const kCreatePackedTagsView = R"sql(
CREATE VIEW tags(game_id, seq, name, value) AS
  SELECT l.game_id, t.seq, t.name, t.value FROM game_tag_lists l, cqldb_tag_list(l.packed) t;
)sql";

// ---- writing

TagValueCodes::TagValueCodes(sqlite::Connection& db)
    : select_(db, "SELECT code, value FROM tag_values WHERE name_id = ?1"),
      insert_(db, "INSERT INTO tag_values(name_id, code, value) VALUES(?1, ?2, ?3)") {}

std::optional<uint32_t> TagValueCodes::code(int64_t name_id, std::string_view value) {
  auto [it, added] = names_.try_emplace(name_id);
  NameCodes& name = it->second;
  if (added) {
    select_.bind(1, name_id);
    while (select_.step()) {
      const uint32_t code = uint32_t(select_.column_int64(0));
      name.codes.emplace(select_.column_text(1), code);
      if (code >= name.next) name.next = code + 1;
    }
    select_.reset();
  }
  if (auto found = name.codes.find(value); found != name.codes.end()) return found->second;
  if (name.next >= kMaxCodes) return std::nullopt;
  const uint32_t code = name.next++;
  insert_.bind(1, name_id);
  insert_.bind(2, int64_t(code));
  insert_.bind(3, value);
  insert_.run();
  name.codes.emplace(value, code);
  return code;
}

std::optional<uint32_t> time_of_day_code(std::string_view v) {
  if (v.size() != 8 || v[2] != ':' || v[5] != ':') return std::nullopt;
  auto two = [&](size_t at, int limit) -> int {
    const char a = v[at], b = v[at + 1];
    if (a < '0' || a > '9' || b < '0' || b > '9') return -1;
    const int n = (a - '0') * 10 + (b - '0');
    return n < limit ? n : -1;
  };
  const int h = two(0, 24), m = two(3, 60), s = two(6, 60);
  if (h < 0 || m < 0 || s < 0) return std::nullopt;
  return TagValueCodes::kMaxCodes + uint32_t(h * 3600 + m * 60 + s);
}

void pack_tags(const std::vector<std::pair<std::string, std::string>>& tags, NameTable& names,
               TagValueCodes& codes, std::string& packed) {
  for (const auto& [name, value] : tags) {
    const int64_t name_id = names.id(name);
    std::optional<uint32_t> code = time_of_day_code(value);
    if (!code) code = codes.code(name_id, value);
    codec::put_varint(packed, uint32_t(name_id << 1) | (code ? 1 : 0));
    if (code) {
      codec::put_varint(packed, *code);
    } else {
      codec::put_varint(packed, uint32_t(value.size()));
      packed += value;
    }
  }
}

bool read_packed_tag(const uint8_t*& p, const uint8_t* end, PackedTag& out) {
  uint32_t head = 0, n = 0;
  if (!codec::get_varint(p, end, head) || !codec::get_varint(p, end, n)) return false;
  out.name_id = head >> 1;
  if ((head & 1) && n >= TagValueCodes::kMaxCodes) {
    const uint32_t seconds = n - TagValueCodes::kMaxCodes;
    if (seconds >= 86400) return false;
    const uint32_t parts[3] = {seconds / 3600, seconds / 60 % 60, seconds % 60};
    for (int i = 0; i < 3; ++i) {
      out.time_text[3 * i] = char('0' + parts[i] / 10);
      out.time_text[3 * i + 1] = char('0' + parts[i] % 10);
      if (i < 2) out.time_text[3 * i + 2] = ':';
    }
    out.code.reset();
    out.value = {out.time_text, 8};
    return true;
  }
  if (head & 1) {
    out.code = n;
    out.value = {};
    return true;
  }
  if (uint64_t(end - p) < n) return false;
  out.code.reset();
  out.value = {reinterpret_cast<const char*>(p), n};
  p += n;
  return true;
}

// ---- cqldb_tag_list(packed): an eponymous-only virtual table

namespace {

enum Column { kSeq, kName, kValue, kPacked };

/// The names and coded values of the connection's database, read from tag_names and
/// tag_values when an entry needs one it does not have. Rows of both tables never change
/// once committed (they are only appended), so what was read stays right, except after a
/// rollback of this connection's own inserts: the copy is dropped whenever the connection
/// has changed rows since it was read (sqlite3_total_changes64).
struct TagListTable : sqlite3_vtab {
  sqlite3* db = nullptr;
  std::vector<std::string> names;                // by tag_names.id ("" = unknown id)
  std::vector<bool> has_name;                    // by tag_names.id
  std::vector<std::vector<std::string>> values;  // by tag_names.id, then code
  std::vector<std::vector<bool>> has_value;      // by tag_names.id, then code
  sqlite3_int64 changes = -1;                    // total changes when read (-1 = not read)

  /// Reads both tables again; an SQLite result code.
  int load() {
    names.clear();
    has_name.clear();
    values.clear();
    has_value.clear();
    changes = sqlite3_total_changes64(db);
    auto run = [&](const char* sql, auto&& row) {
      sqlite3_stmt* stmt = nullptr;
      int rc = sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr);
      while (rc == SQLITE_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        const sqlite3_int64 id = sqlite3_column_int64(stmt, 0);
        if (id < 0 || id > (1 << 24)) {
          rc = SQLITE_CORRUPT;
          break;
        }
        row(size_t(id), stmt);
        rc = SQLITE_OK;
      }
      sqlite3_finalize(stmt);
      return rc == SQLITE_DONE ? SQLITE_OK : rc;
    };
    auto text = [](sqlite3_stmt* stmt, int col) {
      const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt, col));
      return p ? std::string(p, size_t(sqlite3_column_bytes(stmt, col))) : std::string();
    };
    int rc = run("SELECT id, name FROM tag_names", [&](size_t id, sqlite3_stmt* stmt) {
      if (id >= names.size()) {
        names.resize(id + 1);
        has_name.resize(id + 1);
      }
      names[id] = text(stmt, 1);
      has_name[id] = true;
    });
    if (rc != SQLITE_OK) return rc;
    rc = run("SELECT name_id, code, value FROM tag_values", [&](size_t id, sqlite3_stmt* stmt) {
      const sqlite3_int64 code = sqlite3_column_int64(stmt, 1);
      if (code < 0 || code >= sqlite3_int64(TagValueCodes::kMaxCodes)) return;
      if (id >= values.size()) {
        values.resize(id + 1);
        has_value.resize(id + 1);
      }
      if (size_t(code) >= values[id].size()) {
        values[id].resize(size_t(code) + 1);
        has_value[id].resize(size_t(code) + 1);
      }
      values[id][size_t(code)] = text(stmt, 2);
      has_value[id][size_t(code)] = true;
    });
    return rc;
  }
  bool knows(const PackedTag& t) const {
    const size_t id = size_t(t.name_id);
    if (id >= has_name.size() || !has_name[id]) return false;
    return !t.code || (id < has_value.size() && *t.code < has_value[id].size() && has_value[id][*t.code]);
  }
};

/// A cursor over the entries of one packed list (a copy of the argument's bytes).
struct TagListCursor : sqlite3_vtab_cursor {
  std::string packed;          // the list being read
  const uint8_t* p = nullptr;  // next unread entry
  const uint8_t* end = nullptr;
  PackedTag tag;               // the current entry
  int64_t seq = -1;            // its place (0-based)
  bool eof = true;
};

int set_error(sqlite3_vtab_cursor* cursor, int rc, const char* message) {
  sqlite3_free(cursor->pVtab->zErrMsg);
  cursor->pVtab->zErrMsg = sqlite3_mprintf("%s", message);
  return rc;
}

/// Reads the next entry (or sets eof).
int advance(TagListCursor* c) {
  if (c->p == c->end) {
    c->eof = true;
    return SQLITE_OK;
  }
  if (!read_packed_tag(c->p, c->end, c->tag)) return set_error(c, SQLITE_CORRUPT, "malformed tag list");
  auto* table = static_cast<TagListTable*>(c->pVtab);
  if (!table->knows(c->tag)) {
    if (int rc = table->load(); rc != SQLITE_OK) return set_error(c, rc, "cannot read tag_names or tag_values");
    if (!table->knows(c->tag)) return set_error(c, SQLITE_CORRUPT, "tag list with an unknown name or code");
  }
  ++c->seq;
  c->eof = false;
  return SQLITE_OK;
}

int tl_connect(sqlite3* db, void*, int, const char* const*, sqlite3_vtab** out, char**) {
  const int rc = sqlite3_declare_vtab(db, "CREATE TABLE x(seq INTEGER, name TEXT, value TEXT, packed HIDDEN)");
  if (rc != SQLITE_OK) return rc;
  auto* table = new (std::nothrow) TagListTable();
  if (!table) return SQLITE_NOMEM;
  table->db = db;
  sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
  *out = table;
  return SQLITE_OK;
}

int tl_disconnect(sqlite3_vtab* table) {
  sqlite3_free(table->zErrMsg);
  delete static_cast<TagListTable*>(table);
  return SQLITE_OK;
}

int tl_best_index(sqlite3_vtab*, sqlite3_index_info* info) {
  // The list must be given: `packed = ?` is the function's argument.
  for (int i = 0; i < info->nConstraint; ++i) {
    const auto& c = info->aConstraint[i];
    if (c.iColumn != kPacked || c.op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
    if (!c.usable) return SQLITE_CONSTRAINT;
    info->aConstraintUsage[i].argvIndex = 1;
    info->aConstraintUsage[i].omit = 1;
    info->estimatedCost = 10;
    info->estimatedRows = 8;
    info->idxNum = 1;
    return SQLITE_OK;
  }
  return SQLITE_CONSTRAINT;
}

int tl_open(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
  auto* cursor = new (std::nothrow) TagListCursor();
  if (!cursor) return SQLITE_NOMEM;
  *out = cursor;
  return SQLITE_OK;
}

int tl_close(sqlite3_vtab_cursor* cursor) {
  delete static_cast<TagListCursor*>(cursor);
  return SQLITE_OK;
}

int tl_filter(sqlite3_vtab_cursor* cursor, int, const char*, int argc, sqlite3_value** argv) {
  auto* c = static_cast<TagListCursor*>(cursor);
  auto* table = static_cast<TagListTable*>(c->pVtab);
  if (table->changes >= 0 && sqlite3_total_changes64(table->db) != table->changes) table->changes = -1;
  if (table->changes < 0) {
    table->names.clear();  // read again at the first entry (load())
    table->has_name.clear();
  }
  c->packed.clear();
  if (argc == 1 && sqlite3_value_type(argv[0]) != SQLITE_NULL) {
    const void* bytes = sqlite3_value_blob(argv[0]);
    c->packed.assign(static_cast<const char*>(bytes), size_t(sqlite3_value_bytes(argv[0])));
  }
  c->p = reinterpret_cast<const uint8_t*>(c->packed.data());
  c->end = c->p + c->packed.size();
  c->seq = -1;
  return advance(c);
}

int tl_next(sqlite3_vtab_cursor* cursor) { return advance(static_cast<TagListCursor*>(cursor)); }

int tl_eof(sqlite3_vtab_cursor* cursor) { return static_cast<TagListCursor*>(cursor)->eof; }

int tl_column(sqlite3_vtab_cursor* cursor, sqlite3_context* ctx, int column) {
  const auto* c = static_cast<TagListCursor*>(cursor);
  const auto* table = static_cast<const TagListTable*>(c->pVtab);
  const size_t id = size_t(c->tag.name_id);
  switch (column) {
    case kSeq: sqlite3_result_int64(ctx, c->seq); break;
    case kName: {
      const std::string& name = table->names[id];  // advance() checked it
      sqlite3_result_text(ctx, name.data(), int(name.size()), SQLITE_TRANSIENT);
      break;
    }
    case kValue: {
      const std::string_view value = c->tag.code ? std::string_view(table->values[id][*c->tag.code]) : c->tag.value;
      sqlite3_result_text(ctx, value.data() ? value.data() : "", int(value.size()), SQLITE_TRANSIENT);
      break;
    }
    default: sqlite3_result_blob(ctx, c->packed.data(), int(c->packed.size()), SQLITE_TRANSIENT); break;
  }
  return SQLITE_OK;
}

int tl_rowid(sqlite3_vtab_cursor* cursor, sqlite3_int64* rowid) {
  *rowid = static_cast<TagListCursor*>(cursor)->seq;
  return SQLITE_OK;
}

const sqlite3_module kTagListModule = {
    0,               // iVersion
    nullptr,         // xCreate: eponymous-only
    tl_connect,      // xConnect
    tl_best_index,   // xBestIndex
    tl_disconnect,   // xDisconnect
    nullptr,         // xDestroy
    tl_open,         // xOpen
    tl_close,        // xClose
    tl_filter,       // xFilter
    tl_next,         // xNext
    tl_eof,          // xEof
    tl_column,       // xColumn
    tl_rowid,        // xRowid
    nullptr,         // xUpdate
    nullptr,         // xBegin
    nullptr,         // xSync
    nullptr,         // xCommit
    nullptr,         // xRollback
    nullptr,         // xFindFunction
    nullptr,         // xRename
    nullptr,         // xSavepoint
    nullptr,         // xRelease
    nullptr,         // xRollbackTo
    nullptr,         // xShadowName
};

}  // namespace

void register_tag_list_module(sqlite3* db) {
  const int rc = sqlite3_create_module_v2(db, "cqldb_tag_list", &kTagListModule, nullptr, nullptr);
  if (rc != SQLITE_OK) throw sqlite::make_error(db, "sqlite3_create_module_v2", rc);
}

// ---- migration

bool migrate_tags_to_lists(sqlite::Connection& db) {
  auto object_type = [&](const char* name) {
    sqlite::Statement q(db, "SELECT type FROM sqlite_master WHERE name = ?1");
    q.bind(1, std::string_view(name));
    return q.step() ? std::string(q.column_text(0)) : std::string();
  };
  const std::string tags_type = object_type("tags");
  const bool old_table = tags_type == "table";          // before issue 23's tag names
  const bool old_rows = object_type("game_tags") == "table";  // tag_names + game_tags rows
  if (!old_table && !old_rows && !tags_type.empty()) return false;
  sqlite::Transaction txn(db, sqlite::Begin::kImmediate);
  db.exec(kCreatePackedTagTables);
  {
    NameTable names(db, NameKind::kTagName);
    TagValueCodes codes(db);
    sqlite::Statement rows(
        db, old_table ? "SELECT game_id, name, value FROM tags ORDER BY game_id, seq"
            : old_rows ? "SELECT t.game_id, n.name, t.value FROM game_tags t "
                         "JOIN tag_names n ON n.id = t.name_id ORDER BY t.game_id, t.seq"
                       : "SELECT NULL, NULL, NULL WHERE 0");
    sqlite::Statement insert(db, "INSERT INTO game_tag_lists(game_id, packed) VALUES(?1, ?2)");
    std::vector<std::pair<std::string, std::string>> tags;
    std::string packed;
    int64_t game = 0;
    auto flush = [&] {
      if (tags.empty()) return;
      packed.clear();
      pack_tags(tags, names, codes, packed);
      insert.bind(1, game);
      insert.bind_blob(2, packed);
      insert.run();
      tags.clear();
    };
    while (rows.step()) {
      const int64_t id = rows.column_int64(0);
      if (id != game) {
        flush();
        game = id;
      }
      tags.emplace_back(rows.column_text(1), rows.column_text(2));
    }
    flush();
  }
  if (old_table) db.exec("DROP TABLE tags");
  if (old_rows) db.exec("DROP VIEW IF EXISTS tags; DROP TABLE game_tags");
  db.exec(kCreatePackedTagsView);
  txn.commit();
  return true;
}

}  // namespace db
