#include "headers/header_store.h"

#include <algorithm>
#include <iterator>
#include <numeric>
#include <optional>

#include "db/errors.h"
#include "db/game_header.h"
#include "db/schema.h"
#include "db/site_name.h"
#include "headers/match_keywords.h"
#include "db/sqlite_statement.h"
#include "db/sqlite_transaction.h"
#include "headers/header_sql.h"

namespace headers {

HeaderStore::HeaderStore(const std::filesystem::path& db_dir)
    : dir_(db_dir), sql_(db_dir / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadOnly) {
  register_header_functions(sql_.handle());
  // A database from before `cqldb mark` has no markers table: an empty one in the
  // connection's temp schema lets :hasmarker answer "no marker" (the read-only file stays).
  db::sqlite::Statement markers(sql_, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'markers'");
  if (!markers.step()) sql_.exec("CREATE TEMP TABLE markers(game_id INTEGER NOT NULL, marker TEXT NOT NULL)");
  has_match_data_ = db::schema::read_meta(sql_, db::schema::kMetaMatchData).has_value();
}

void HeaderStore::check_needs(const HeaderFilter& filter) const {
  if ((filter.needs() & kNeedsGameData) && !has_match_data_)
    throw db::FormatError(
        "this database was created by an older cqldb and does not record comments, NAGs and "
        "variations per game (:hascomments, :hasannotation, :hasvariations, :comment); import "
        "the PGN files again into a new database to use them");
}

const db::HeaderBitmaps* HeaderStore::bitmaps() {
  if (!bitmaps_opened_) {
    bitmaps_opened_ = true;
    bitmaps_ = db::HeaderBitmaps::open(dir_);  // throws db::FormatError when damaged
  }
  return bitmaps_ ? &*bitmaps_ : nullptr;
}

std::vector<uint32_t> HeaderStore::candidates(const HeaderFilter& filter, uint32_t game_count,
                                              const std::vector<uint32_t>* within) {
  std::vector<uint32_t> ids;
  check_needs(filter);
  if (filter.accepts_all()) {  // every committed game has its row: no need to ask SQLite
    if (within) return *within;
    ids.resize(game_count);
    std::iota(ids.begin(), ids.end(), 1u);
    return ids;
  }
  const db::HeaderBitmaps* b = use_bitmaps_ && filter.has_bitmap_terms() ? bitmaps() : nullptr;
  if (!b || b->covered() == 0) return sql_candidates(filter.where_sql(), filter.params(), game_count, within, 1);
  // The bitmaps decide their terms for games 1..covered; the rest of the filter is asked
  // only about the games they leave; games above the bitmaps (an import killed before its
  // catch-up) get the whole filter by SQL. A player term becomes the values of the players
  // rows its name selects.
  const uint32_t covered = std::min(b->covered(), game_count);
  std::vector<db::BitmapTerm> terms = filter.bitmap_terms();
  for (const PlayerTerm& p : filter.player_terms()) terms.push_back(player_bitmap_term(p));
  ids = b->select(terms, covered);
  if (within) {
    std::vector<uint32_t> both;
    std::set_intersection(ids.begin(), ids.end(), within->begin(), within->end(), std::back_inserter(both));
    ids.swap(both);
  }
  if (!filter.rest_sql().empty() && !ids.empty())
    ids = sql_candidates(filter.rest_sql(), filter.rest_params(), covered, &ids, 1);
  if (covered < game_count) {
    const std::vector<uint32_t> above =
        sql_candidates(filter.where_sql(), filter.params(), game_count, within, covered + 1);
    ids.insert(ids.end(), above.begin(), above.end());
  }
  return ids;
}

db::BitmapTerm HeaderStore::player_bitmap_term(const PlayerTerm& term) {
  db::BitmapTerm out;
  add_player_values(term, out);
  return out;
}

void HeaderStore::add_player_values(const PlayerTerm& term, db::BitmapTerm& out) {
  std::vector<int64_t> rows;
  db::sqlite::Statement q(sql_, term.ids_sql + " ORDER BY id");
  q.bind_all(term.params);
  while (q.step()) rows.push_back(q.column_int64(0));
  if (term.white) db::add_value_ranges(out, db::HeaderColumn::kWhitePlayer, rows);
  if (term.black) db::add_value_ranges(out, db::HeaderColumn::kBlackPlayer, rows);
  for (const PlayerTerm& alternative : term.alternatives) add_player_values(alternative, out);
}

std::vector<uint32_t> HeaderStore::sql_candidates(const std::string& where,
                                                  const std::vector<db::sqlite::Param>& params,
                                                  uint32_t game_count, const std::vector<uint32_t>* within,
                                                  uint32_t first_id) {
  std::vector<uint32_t> ids;
  // Few games to ask about: a temporary table of their ids joined by primary key, so SQLite
  // reads only their rows (the WHERE clause's subqueries still run once).
  if (within && within->size() * 16 < game_count) {
    sql_.exec("CREATE TEMP TABLE IF NOT EXISTS cqldb_within(id INTEGER PRIMARY KEY)");
    {
      db::sqlite::Transaction txn(sql_);
      sql_.exec("DELETE FROM temp.cqldb_within");
      db::sqlite::Statement insert(sql_, "INSERT INTO temp.cqldb_within(id) VALUES (?)");
      for (uint32_t id : *within) {
        insert.bind(1, int64_t(id));
        insert.step();
        insert.reset();
      }
      txn.commit();
    }
    db::sqlite::Statement query(sql_, "SELECT g.id FROM temp.cqldb_within c CROSS JOIN games g ON g.id = c.id WHERE (" +
                                          where + ") AND g.id BETWEEN ? AND ? ORDER BY g.id");
    const int next = query.bind_all(params);
    query.bind(next, int64_t(first_id));
    query.bind(next + 1, int64_t(game_count));
    while (query.step()) ids.push_back(uint32_t(query.column_int64(0)));
    return ids;
  }
  // From game 1 the id bounds select (nearly) every row: `+g.id` keeps SQLite from taking
  // them for a rowid range scan. g.result, in no index, keeps it from answering from a
  // covering index: for a player filter alone it read the Black side through the whole
  // segment of games_seg_white (covering) instead of seeking games_seg_black (56-86 ms
  // against 15-20 ms at 344k games; databases made before the player bitmaps have them).
  const std::string id_column = first_id <= 1 ? "+g.id" : "g.id";
  db::sqlite::Statement query(sql_, "SELECT g.id, g.result FROM games g WHERE (" + where + ") AND " + id_column +
                                        " BETWEEN ? AND ? ORDER BY g.id");
  const int next = query.bind_all(params);
  query.bind(next, int64_t(first_id));
  query.bind(next + 1, int64_t(game_count));
  while (query.step()) ids.push_back(uint32_t(query.column_int64(0)));
  if (within) {
    std::vector<uint32_t> both;
    std::set_intersection(ids.begin(), ids.end(), within->begin(), within->end(), std::back_inserter(both));
    ids.swap(both);
  }
  return ids;
}

std::vector<GameInfo> HeaderStore::game_info(uint32_t game_count, const std::vector<uint32_t>* only) {
  std::vector<GameInfo> info(size_t(game_count) + 1);
  auto elo = [](int64_t v) { return uint16_t(v < 0 ? 0 : v > 65535 ? 65535 : v); };
  auto fill = [&](GameInfo& g, db::sqlite::Statement& query, int first) {
    int64_t result = query.column_int64(first);
    g.result = uint8_t(result >= 0 && result <= 3 ? result : 0);
    g.white_elo = elo(query.column_int64(first + 1));
    g.black_elo = elo(query.column_int64(first + 2));
  };
  if (only) {
    db::sqlite::Statement query(sql_, "SELECT result, white_elo, black_elo FROM games WHERE id = ?1");
    for (uint32_t id : *only) {
      if (id < 1 || id > game_count) continue;
      query.bind(1, int64_t(id));
      if (query.step()) fill(info[id], query, 0);
      query.reset();
    }
    return info;
  }
  db::sqlite::Statement query(
      sql_, "SELECT id, result, white_elo, black_elo FROM games WHERE id <= ?1 ORDER BY id");
  query.bind(1, int64_t(game_count));
  while (query.step()) {
    int64_t id = query.column_int64(0);
    if (id < 1 || id > int64_t(game_count)) continue;
    fill(info[size_t(id)], query, 1);
  }
  return info;
}

std::vector<GameText> HeaderStore::game_text(uint32_t game_count, const std::vector<uint32_t>* only,
                                             const std::vector<std::string>& tag_names) {
  std::vector<GameText> text(size_t(game_count) + 1);
  const std::string columns =
      "SELECT g.id, (SELECT name FROM players WHERE id = g.white_id), (SELECT name FROM players WHERE id = g.black_id), "
      "(SELECT name FROM events WHERE id = g.event_id), " + db::site_name_sql("g") +
      ", g.date, g.year, g.month, g.day, IFNULL(g.eco, ''), g.round FROM games g ";
  auto fill = [&](db::sqlite::Statement& q) {
    const int64_t id = q.column_int64(0);
    if (id < 1 || id > int64_t(game_count)) return;
    GameText& t = text[size_t(id)];
    auto col = [&](int i) { return q.column_is_null(i) ? std::string() : std::string(q.column_text(i)); };
    t.white = col(1);
    t.black = col(2);
    t.event = col(3);
    t.site = col(4);
    db::DateParts parts;
    if (!q.column_is_null(6)) parts.year = int(q.column_int64(6));
    if (!q.column_is_null(7)) parts.month = int(q.column_int64(7));
    if (!q.column_is_null(8)) parts.day = int(q.column_int64(8));
    t.date = q.column_is_null(5) ? db::canonical_pgn_date(parts) : col(5);
    t.year = parts.year.value_or(0);
    t.eco = col(9);
    t.round = col(10);
  };
  // `tag "Name"`: the other tags of those names (the tags view unpacks game_tag_lists)
  std::string tag_sql;
  for (size_t i = 0; i < tag_names.size(); ++i) tag_sql += (i ? ", ?" : "?") + std::to_string(i + 2);
  tag_sql = "SELECT game_id, name, value FROM tags WHERE game_id BETWEEN ?1 AND ?" +
            std::to_string(tag_names.size() + 2) + " AND name IN (" + tag_sql + ") ORDER BY game_id, seq";
  std::optional<db::sqlite::Statement> tag_query;  // prepared once, run per game or once
  if (!tag_names.empty()) tag_query.emplace(sql_, tag_sql);
  auto read_tags = [&](uint32_t first, uint32_t last) {
    if (!tag_query) return;
    db::sqlite::Statement& q = *tag_query;
    q.reset();
    q.bind(1, int64_t(first));
    for (size_t i = 0; i < tag_names.size(); ++i) q.bind(int(i + 2), tag_names[i]);
    q.bind(int(tag_names.size() + 2), int64_t(last));
    while (q.step()) {
      const int64_t id = q.column_int64(0);
      if (id < 1 || id > int64_t(game_count)) continue;
      text[size_t(id)].tags.emplace_back(q.column_text(1), q.column_is_null(2) ? "" : q.column_text(2));
    }
  };
  if (only) {
    db::sqlite::Statement q(sql_, columns + "WHERE g.id = ?1");
    for (uint32_t id : *only) {
      q.bind(1, int64_t(id));
      if (q.step()) fill(q);
      q.reset();
      read_tags(id, id);
    }
    return text;
  }
  db::sqlite::Statement q(sql_, columns + "WHERE g.id <= ?1 ORDER BY g.id");
  q.bind(1, int64_t(game_count));
  while (q.step()) fill(q);
  read_tags(1, game_count);
  return text;
}

void HeaderStore::scan_rows(uint32_t game_count, const std::function<void(const GameRow&)>& row,
                            uint32_t first_id) {
  db::sqlite::Statement q(
      sql_,
      "SELECT id, result, white_elo, black_elo, year, date, month, day FROM games WHERE id BETWEEN ? AND ? ORDER BY id");
  q.bind(1, int64_t(first_id));
  q.bind(2, int64_t(game_count));
  GameRow r;
  auto elo = [](int64_t v) { return uint16_t(v < 0 ? 0 : v > 65535 ? 65535 : v); };
  while (q.step()) {
    r.id = uint32_t(q.column_int64(0));
    const int64_t result = q.column_int64(1);
    r.result = uint8_t(result >= 0 && result <= 3 ? result : 0);
    r.white_elo = elo(q.column_int64(2));
    r.black_elo = elo(q.column_int64(3));
    r.year = q.column_is_null(4) ? std::nullopt : std::optional<int>(int(q.column_int64(4)));
    // A NULL date is the canonical text of year/month/day (db/schema.h), which is rebuilt.
    if (!q.column_is_null(5)) {
      r.date = std::string(q.column_text(5));
    } else {
      db::DateParts parts;
      parts.year = r.year;
      if (!q.column_is_null(6)) parts.month = int(q.column_int64(6));
      if (!q.column_is_null(7)) parts.day = int(q.column_int64(7));
      r.date = db::canonical_pgn_date(parts);
    }
    row(r);
  }
}

std::vector<std::pair<std::string, uint64_t>> HeaderStore::warning_kinds() {
  db::sqlite::Statement q(sql_,
                          "SELECT substr(reason, 1, instr(reason, ':') - 1) AS k, count(*) "
                          "FROM import_log WHERE kind = 'warning' GROUP BY k ORDER BY k");
  std::vector<std::pair<std::string, uint64_t>> out;
  while (q.step()) out.emplace_back(std::string(q.column_text(0)), uint64_t(q.column_int64(1)));
  return out;
}

std::vector<ImportLogEntry> HeaderStore::import_log(int64_t limit) {
  db::sqlite::Statement q(sql_,
                          "SELECT f.path, l.ordinal, l.line, l.reason, l.kind "
                          "FROM import_log l LEFT JOIN files f ON f.id = l.file_id "
                          "ORDER BY l.kind = 'warning', l.id LIMIT ?");
  q.bind(1, limit);
  std::vector<ImportLogEntry> out;
  while (q.step()) {
    ImportLogEntry e;
    e.file = std::string(q.column_text(0));
    e.ordinal = q.column_int64(1);
    e.line = q.column_int64(2);
    e.reason = std::string(q.column_text(3));
    e.kind = std::string(q.column_text(4));
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace headers
