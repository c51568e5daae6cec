// HeaderStore: every read statement against a database's headers.sqlite (the query
// pipeline's header stage, the game information of position-list keywords, the shell's list
// rows, sorting and statistics, the import log). Opened read-only with the header SQL
// functions registered (headers/header_sql.h). The schema and the import's writes belong
// to db/ (db/schema.h, db/game_writer.h), which owns the on-disk formats.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "db/header_bitmaps.h"
#include "db/sqlite_db.h"
#include "headers/game_info.h"
#include "headers/game_order.h"
#include "headers/header_filter.h"

namespace headers {

/// One game's row as the shell's `list`, `stats` and sorting read it.
struct GameRow {
  uint32_t id = 0;
  uint8_t result = 0;                ///< db::ResultCode
  uint16_t white_elo = 0;            ///< 0 = none
  uint16_t black_elo = 0;            ///< 0 = none
  std::optional<int> year;           ///< the date's year, if known
  std::string date;                  ///< as in the PGN ("1985.??.??"), rebuilt from year/month/day when stored as NULL
};

/// One entry of the import log (a rejected game or a warning).
struct ImportLogEntry {
  std::string kind;    ///< "rejected" or "warning"
  std::string file;    ///< source file path
  int64_t ordinal = 0; ///< 1-based game number in the file
  int64_t line = 0;    ///< line of the problem
  std::string reason;  ///< what was wrong
};

/// Read access to headers.sqlite of one database directory. One connection; use it from
/// one thread at a time. Errors throw db::SqliteError.
class HeaderStore {
 public:
  /// Opens `db_dir`/headers.sqlite read-only.
  explicit HeaderStore(const std::filesystem::path& db_dir);

  /// The ids (ascending) of games 1..game_count satisfying `filter`. Its bitmap and player
  /// terms (HeaderFilter::bitmap_terms, player_terms) are answered by the header bitmaps (db/header_bitmaps.h)
  /// when the database has them, and only the rest of the filter by SQL, asked about the
  /// games they leave; without the bitmaps (or for games above what they cover) the whole
  /// filter is SQL. With `within` (ascending ids), only those games are asked about: a few
  /// are joined by id through a temporary table, many are intersected after one scan.
  /// Throws db::FormatError when the bitmap file is damaged.
  std::vector<uint32_t> candidates(const HeaderFilter& filter, uint32_t game_count,
                                   const std::vector<uint32_t>* within = nullptr);

  /// With false, candidates() answers every filter by SQL alone (the route of a database
  /// without header bitmaps; tests compare both routes).
  void use_header_bitmaps(bool use) { use_bitmaps_ = use; }

  /// GameInfo of games 1..game_count, indexed by game id (index 0 unused). One sequential
  /// scan; with `only` (ids), a lookup per id and the other entries left zero.
  std::vector<GameInfo> game_info(uint32_t game_count, const std::vector<uint32_t>* only = nullptr);
  /// The header texts of games 1..game_count (index = id; only the ids in `only` when
  /// given): CQL 6 string values (issue 37). With `tag_names`, GameText::tags gets each
  /// game's tags of those names (the `tags` view: the tags outside the games table).
  std::vector<GameText> game_text(uint32_t game_count, const std::vector<uint32_t>* only = nullptr,
                                  const std::vector<std::string>& tag_names = {});

  /// `ids` in `order` (headers/game_order.h); one primary-key lookup per game.
  std::vector<uint32_t> sort_ids(std::vector<uint32_t> ids, SortOrder order);
  /// The sort values of `ids` for `order`, unsorted (sort_ids = these, then sort_entries).
  std::vector<SortEntry> sort_entries(const std::vector<uint32_t>& ids, SortOrder order);

  /// Calls `row` for every game first_id..game_count in id order (one scan).
  void scan_rows(uint32_t game_count, const std::function<void(const GameRow&)>& row, uint32_t first_id = 1);

  /// The import log's warnings counted by kind (the reason's text before its first ':'),
  /// in kind order.
  std::vector<std::pair<std::string, uint64_t>> warning_kinds();

  /// The first `limit` import-log entries, rejections first, each kind in log order.
  std::vector<ImportLogEntry> import_log(int64_t limit);

 private:
  /// Throws db::FormatError when the database lacks data `filter` reads (needs()).
  void check_needs(const HeaderFilter& filter) const;

  /// The games first_id..game_count satisfying the SQL `where` (with `params`), within
  /// `within` when given: candidates() without the bitmaps.
  std::vector<uint32_t> sql_candidates(const std::string& where, const std::vector<db::sqlite::Param>& params,
                                       uint32_t game_count, const std::vector<uint32_t>* within,
                                       uint32_t first_id);
  /// The bitmap term of `term`: its players rows' values on its columns (one query of the
  /// players table; no row: an empty term).
  db::BitmapTerm player_bitmap_term(const PlayerTerm& term);
  /// Adds the values of `term` and of its alternatives to `out` (a union).
  void add_player_values(const PlayerTerm& term, db::BitmapTerm& out);
  /// The header bitmaps of the database, opened on first use; null when it has none.
  const db::HeaderBitmaps* bitmaps();

  std::filesystem::path dir_;
  db::sqlite::Connection sql_;
  bool has_match_data_ = false;  // meta kMetaMatchData present (db/schema.h)
  bool use_bitmaps_ = true;      // use_header_bitmaps()
  bool bitmaps_opened_ = false;  // bitmaps() has tried to open them
  std::optional<db::HeaderBitmaps> bitmaps_;
};

}  // namespace headers
