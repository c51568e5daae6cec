#include "db/duplicate_index.h"

#include <algorithm>
#include <string_view>

#include "db/date_sql.h"
#include "db/errors.h"
#include "db/game_reader.h"

namespace db {

namespace {

/// FNV-1a over bytes, 64 bits; each field is preceded by its length so that field
/// boundaries count ("ab" + "c" differs from "a" + "bc").
class KeyHash {
 public:
  void bytes(const void* data, size_t size) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < size; ++i) h_ = (h_ ^ p[i]) * 0x100000001b3ULL;
  }
  void field(std::string_view text) {
    number(text.size());
    bytes(text.data(), text.size());
  }
  void number(uint64_t n) {
    unsigned char b[8];
    for (int i = 0; i < 8; ++i) b[i] = static_cast<unsigned char>(n >> (8 * i));
    bytes(b, sizeof b);
  }
  uint64_t value() const { return h_; }

 private:
  uint64_t h_ = 0xcbf29ce484222325ULL;
};

}  // namespace

void set_duplicate_moves(const RecordView& record, DuplicateFields& out) {
  out.start_fen.assign(record.start_fen());
  out.moves.resize(record.main_line_size());
  MainLineCursor moves(record);
  for (uint32_t i = 0; i < record.main_line_size(); ++i) out.moves[i] = moves.next().raw();
}

DuplicateFields duplicate_fields(const GameHeader& header, const RecordView& record) {
  DuplicateFields f;
  set_duplicate_moves(record, f);
  f.white = header.white;
  f.black = header.black;
  f.date = header.date;
  f.result = result_code(header.result);
  return f;
}

int32_t duplicate_key(const DuplicateFields& fields) {
  KeyHash h;
  h.field(fields.start_fen);
  h.field(fields.white);
  h.field(fields.black);
  h.field(fields.date);
  h.number(uint64_t(fields.result));
  h.number(fields.moves.size());
  for (uint16_t m : fields.moves) {
    const unsigned char b[2] = {static_cast<unsigned char>(m), static_cast<unsigned char>(m >> 8)};
    h.bytes(b, 2);
  }
  const uint64_t v = h.value();
  return static_cast<int32_t>(static_cast<uint32_t>(v ^ (v >> 32)));
}

bool create_duplicate_keys_table(sqlite::Connection& sql) {
  {
    sqlite::Statement query(
        sql, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'duplicate_keys'");
    if (query.step()) return false;
  }
  sql.exec(
      "CREATE TABLE IF NOT EXISTS duplicate_keys(key INTEGER NOT NULL, game_id INTEGER NOT NULL, "
      "PRIMARY KEY(key, game_id)) WITHOUT ROWID");
  return true;
}

std::vector<std::vector<uint32_t>> duplicate_groups(GameReader& reader, sqlite::Connection& sql) {
  {
    sqlite::Statement query(
        sql, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'duplicate_keys'");
    if (!query.step())
      throw FormatError(
          "the database has no duplicate index yet (made before it existed): the next "
          "`cqldb import` into it builds the index");
  }
  const uint32_t count = reader.game_count();
  std::vector<std::vector<uint32_t>> groups;
  // The games of one key, split into classes of equal fields.
  auto confirm = [&](const std::vector<uint32_t>& ids) {
    std::vector<std::pair<DuplicateFields, std::vector<uint32_t>>> classes;
    GameHeader header;
    RecordView view;
    for (uint32_t id : ids) {
      if (!reader.read_header(id, header) || !reader.record_view(id, view, false)) continue;
      DuplicateFields f = duplicate_fields(header, view);
      auto it = std::find_if(classes.begin(), classes.end(),
                             [&](const auto& c) { return c.first == f; });
      if (it == classes.end()) classes.push_back({std::move(f), {id}});
      else it->second.push_back(id);
    }
    for (auto& [fields, members] : classes)
      if (members.size() > 1) groups.push_back(std::move(members));
  };
  sqlite::Statement keys(sql, "SELECT key, game_id FROM duplicate_keys ORDER BY key, game_id");
  std::vector<uint32_t> ids;
  int64_t current = 0;
  while (keys.step()) {
    const int64_t key = keys.column_int64(0);
    const int64_t id = keys.column_int64(1);
    if (id < 1 || id > int64_t(count)) continue;  // beyond the reader's snapshot
    if (!ids.empty() && key != current) {
      if (ids.size() > 1) confirm(ids);
      ids.clear();
    }
    current = key;
    ids.push_back(uint32_t(id));
  }
  if (ids.size() > 1) confirm(ids);
  std::sort(groups.begin(), groups.end());
  return groups;
}

DuplicateKeys::DuplicateKeys(sqlite::Connection& sql)
    : insert_(sql, "INSERT INTO duplicate_keys(key, game_id) VALUES(?1, ?2)"),
      // The date as GameReader reads it (db/date_sql.h).
      select_(sql,
              std::string("SELECT g.id, w.name, b.name, ") + kPgnDateSql +
              ", g.result FROM duplicate_keys k JOIN games g ON g.id = k.game_id "
              "JOIN players w ON w.id = g.white_id JOIN players b ON b.id = g.black_id "
              "WHERE k.key = ?1 ORDER BY k.game_id") {}

void DuplicateKeys::add(int32_t key, uint32_t id) {
  insert_.bind(1, int64_t(key));
  insert_.bind(2, int64_t(id));
  insert_.run();
}

void DuplicateKeys::header_matches(const DuplicateFields& fields, uint32_t max_id,
                                   std::vector<uint32_t>& ids) {
  select_.bind(1, int64_t(duplicate_key(fields)));
  try {
    while (select_.step()) {
      const int64_t id = select_.column_int64(0);
      if (id > int64_t(max_id)) break;
      if (select_.column_text(1) == fields.white && select_.column_text(2) == fields.black &&
          select_.column_text(3) == fields.date &&
          select_.column_int64(4) == int64_t(fields.result))
        ids.push_back(uint32_t(id));
    }
  } catch (...) {
    select_.reset();
    throw;
  }
  select_.reset();
}

}  // namespace db
