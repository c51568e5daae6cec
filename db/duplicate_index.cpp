#include "db/duplicate_index.h"

#include <algorithm>
#include <string_view>

#include "db/database.h"
#include "db/date_sql.h"
#include "db/game_reader.h"
#include "db/schema.h"

namespace db {

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

std::vector<std::vector<uint32_t>> duplicate_groups(GameReader& reader, sqlite::Connection& sql) {
  const uint32_t count = reader.game_count();
  std::vector<std::vector<uint32_t>> groups;
  // The games of one (white_id, black_id, plies), split into classes of equal fields.
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
  sqlite::Statement games(sql,
                          "SELECT id, white_id, black_id, plies FROM games WHERE id <= ?1 "
                          "ORDER BY white_id, black_id, plies, id");
  games.bind(1, int64_t(count));
  std::vector<uint32_t> ids;
  int64_t current[3] = {0, 0, -1};
  while (games.step()) {
    const int64_t row[3] = {games.column_int64(1), games.column_int64(2), games.column_int64(3)};
    if (!std::equal(row, row + 3, current)) {
      if (ids.size() > 1) confirm(ids);
      ids.clear();
      std::copy(row, row + 3, current);
    }
    ids.push_back(uint32_t(games.column_int64(0)));
  }
  if (ids.size() > 1) confirm(ids);
  std::sort(groups.begin(), groups.end());
  return groups;
}

DuplicateLookup::DuplicateLookup(sqlite::Connection& sql)
    // The date as GameReader reads it (db/date_sql.h).
    // One seek per segment up to max_id's (db/schema.h kPlayerSegmentBits); the segments
    // ascend with the ids, but the plan does not promise that order, so the rows are
    // sorted (a handful per lookup).
    : select_(sql, std::string("SELECT g.id, ") + kPgnDateSql + ", g.result FROM games g WHERE " +
                       schema::player_segment_sql("g") + " IN " + schema::player_segments_sql("?4") +
                       " AND g.white_id = ?1 AND g.black_id = ?2 AND g.plies = ?3 AND g.id BETWEEN ?5 AND ?4 "
                       "ORDER BY g.id"),
      by_id_(sql, std::string("SELECT g.plies, ") + kPgnDateSql + ", g.result FROM games g WHERE g.id = ?1") {}

bool DuplicateLookup::header_equal(const DuplicateFields& fields, uint32_t id) {
  by_id_.bind(1, int64_t(id));
  bool equal = false;
  try {
    equal = by_id_.step() && by_id_.column_int64(0) == int64_t(fields.moves.size()) &&
            by_id_.column_text(1) == fields.date && by_id_.column_int64(2) == int64_t(fields.result);
  } catch (...) {
    by_id_.reset();
    throw;
  }
  by_id_.reset();
  return equal;
}

void DuplicateLookup::header_matches(const DuplicateFields& fields, int64_t white_id,
                                     int64_t black_id, uint32_t min_id, uint32_t max_id,
                                     std::vector<uint32_t>& ids) {
  select_.bind(1, white_id);
  select_.bind(2, black_id);
  select_.bind(3, int64_t(fields.moves.size()));
  select_.bind(4, int64_t(max_id));
  select_.bind(5, int64_t(min_id));
  try {
    while (select_.step()) {
      const int64_t id = select_.column_int64(0);
      if (select_.column_text(1) == fields.date && select_.column_int64(2) == int64_t(fields.result))
        ids.push_back(uint32_t(id));
    }
  } catch (...) {
    select_.reset();
    throw;
  }
  select_.reset();
}

std::vector<std::vector<uint32_t>> duplicate_groups(Database& database) {
  GameReader reader = database.reader();
  sqlite::Connection sql(database.path() / schema::kHeadersFile, sqlite::OpenMode::kReadOnly);
  return duplicate_groups(reader, sql);
}

}  // namespace db
