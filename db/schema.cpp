#include "db/schema.h"

#include <string>

#include "db/errors.h"
#include "db/record_format.h"
#include "db/sqlite_statement.h"
#include "db/sqlite_transaction.h"
#include "db/tag_list.h"

namespace db::schema {

namespace {

constexpr const char* kCreateTables = R"sql(
CREATE TABLE meta(key TEXT PRIMARY KEY, value NOT NULL) WITHOUT ROWID;
CREATE TABLE files(id INTEGER PRIMARY KEY, path TEXT NOT NULL, imported_at INTEGER NOT NULL);
CREATE TABLE players(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE events(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE sites(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE games(
  id INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL REFERENCES files(id),
  ordinal INTEGER NOT NULL,
  white_id INTEGER NOT NULL REFERENCES players(id),
  black_id INTEGER NOT NULL REFERENCES players(id),
  event_id INTEGER NOT NULL REFERENCES events(id),
  site_id INTEGER NOT NULL REFERENCES sites(id),
  date TEXT,
  year INTEGER,
  month INTEGER,
  day INTEGER,
  round TEXT NOT NULL,
  result INTEGER NOT NULL,
  white_elo INTEGER,
  black_elo INTEGER,
  eco TEXT,
  plies INTEGER NOT NULL,
  fen TEXT,
  variant TEXT,
  flags INTEGER NOT NULL DEFAULT 0,
  site_suffix TEXT,
  opening_eco TEXT,
  opening_id INTEGER REFERENCES openings(id));
CREATE VIRTUAL TABLE comment_text USING fts5(text, tokenize = 'trigram', detail = 'none');
CREATE TABLE markers(
  game_id INTEGER NOT NULL,
  marker TEXT NOT NULL,
  PRIMARY KEY(game_id, marker)) WITHOUT ROWID;
CREATE TABLE import_log(
  id INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL REFERENCES files(id),
  ordinal INTEGER NOT NULL,
  line INTEGER NOT NULL,
  move TEXT NOT NULL,
  reason TEXT NOT NULL,
  kind TEXT NOT NULL CHECK(kind IN ('rejected', 'warning')));
CREATE TABLE imports(
  id INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL REFERENCES files(id),
  started INTEGER NOT NULL,
  finished INTEGER NOT NULL,
  games_read INTEGER NOT NULL,
  imported INTEGER NOT NULL,
  rejected INTEGER NOT NULL,
  warnings INTEGER NOT NULL,
  skipped_duplicates INTEGER NOT NULL DEFAULT 0);
)sql";

// Issue 17 A: ECO classification and player data (additive: CREATE ... IF NOT EXISTS, so
// a database made before them gets them from its next writer; schema.h describes them).
constexpr const char* kCreatePlayerEcoTables = R"sql(
CREATE TABLE IF NOT EXISTS openings(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE VIEW IF NOT EXISTS game_openings(game_id, eco, opening_id) AS
  SELECT id, opening_eco, opening_id FROM games WHERE opening_eco IS NOT NULL;
CREATE TABLE IF NOT EXISTS player_data(
  id INTEGER PRIMARY KEY,
  fide_id INTEGER UNIQUE,
  name TEXT NOT NULL,
  full_key TEXT NOT NULL,
  key TEXT NOT NULL,
  country TEXT,
  sex TEXT,
  title TEXT,
  birth INTEGER,
  death INTEGER);
CREATE INDEX IF NOT EXISTS player_data_full_key ON player_data(full_key);
CREATE INDEX IF NOT EXISTS player_data_key ON player_data(key);
CREATE TABLE IF NOT EXISTS game_players(
  game_id INTEGER NOT NULL,
  side INTEGER NOT NULL,
  fide_id INTEGER,
  title TEXT,
  player_data_id INTEGER,
  country TEXT,
  sex TEXT,
  birth INTEGER,
  death INTEGER,
  PRIMARY KEY(game_id, side)) WITHOUT ROWID;
)sql";

// Secondary indexes for header filters (players). They slow down inserts,
// so bulk loads drop them and build them once at the end (GameWriter::finish), in one
// transaction. games.result has no index on purpose: with four values, a result filter
// keeps a quarter to a half of the games, where a table scan beats any index. games.eco
// (the tag as written) has none since issue 16: every ECO filter reads the classified code
// of game_openings (headers/filter_terms.cpp, header_filter.cpp), and the index cost 12
// bytes a game; databases made before lose it at their next writer (ensure_match_tables).
// The classified code's index is on games.opening_eco since game_openings became a view
// (fold_game_openings); game_openings_eco was the index of the table before. Issue 42: the
// year, Elo and classified-code filters read per-value bitmaps instead
// (db/header_bitmaps.h); the indexes games_year, games_white_elo, games_black_elo and
// games_opening_eco (14.1 MB at players-344k) are no longer built, and a database that has
// them loses them once its bitmaps cover every game (drop_bitmap_indexes).
// The player indexes games_seg_white(id >> 18, white_id, black_id, plies) and
// games_seg_black(id >> 18, black_id) of issue 16 (10.0 MB at players-344k) are gone too since
// issue 42's session 7: name filters and the duplicate lookup of `--skip-duplicates` read the
// header bitmaps' player columns; drop_bitmap_indexes drops them with the four above. Their
// predecessors games_white_black, games_black, games_white (and the duplicate_keys table)
// are dropped here.
constexpr const char* kCreateIndexes = R"sql(
DROP INDEX IF EXISTS games_white_black;
DROP INDEX IF EXISTS games_white;
DROP INDEX IF EXISTS games_black;
DROP INDEX IF EXISTS games_eco;
)sql";

constexpr const char* kDropIndexes = R"sql(
DROP INDEX IF EXISTS games_white;
DROP INDEX IF EXISTS games_white_black;
DROP INDEX IF EXISTS games_black;
DROP INDEX IF EXISTS games_seg_white;
DROP INDEX IF EXISTS games_seg_black;
DROP INDEX IF EXISTS games_year;
DROP INDEX IF EXISTS games_white_elo;
DROP INDEX IF EXISTS games_black_elo;
DROP INDEX IF EXISTS games_eco;
DROP INDEX IF EXISTS games_opening_eco;
)sql";

}  // namespace

bool has_tables(sqlite::Connection& db) {
  sqlite::Statement query(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'");
  return query.step();
}

bool is_empty(sqlite::Connection& db) {
  sqlite::Statement query(db, "SELECT 1 FROM sqlite_master");
  return !query.step();
}

void create_tables(sqlite::Connection& db) {
  // journal_mode cannot change inside a transaction; it is persistent once set.
  db.exec("PRAGMA journal_mode=WAL");
  sqlite::Transaction txn(db, sqlite::Begin::kImmediate);
  db.exec(kCreateTables);
  db.exec(kCreatePackedTagTables);  // issue 23: other tags packed, one row a game
  db.exec(kCreatePackedTagsView);
  db.exec(kCreatePlayerEcoTables);
  sqlite::Statement insert(db, "INSERT INTO meta(key, value) VALUES(?1, ?2)");
  insert.bind(1, kMetaFormatVersion);
  insert.bind(2, int64_t(kFormatVersion));
  insert.run();
  insert.bind(1, kMetaRecordFormatVersion);
  insert.bind(2, int64_t(kRecordFormatVersion));
  insert.run();
  insert.bind(1, kMetaCommittedGames);
  insert.bind(2, int64_t(0));
  insert.run();
  insert.bind(1, kMetaMatchData);
  insert.bind(2, int64_t(1));
  insert.run();
  insert.bind(1, kMetaSiteSuffixes);
  insert.bind(2, int64_t(1));
  insert.run();
  txn.commit();
  create_indexes(db);
}

void ensure_match_tables(sqlite::Connection& db) {
  bool has_flags = false;
  {
    sqlite::Statement columns(db, "SELECT 1 FROM pragma_table_info('games') WHERE name = 'flags'");
    has_flags = columns.step();
  }
  if (!has_flags) db.exec("ALTER TABLE games ADD COLUMN flags INTEGER NOT NULL DEFAULT 0");
  bool has_skipped = false;  // issue 16
  {
    sqlite::Statement columns(
        db, "SELECT 1 FROM pragma_table_info('imports') WHERE name = 'skipped_duplicates'");
    has_skipped = columns.step();
  }
  if (!has_skipped)
    db.exec("ALTER TABLE imports ADD COLUMN skipped_duplicates INTEGER NOT NULL DEFAULT 0");
  // Issue 40: resuming an interrupted import of the same file. One column at a time: each
  // ALTER commits on its own, and a writer killed between them leaves only the first.
  for (const char* column : {"size INTEGER", "head_hash TEXT"}) {
    const std::string name(column, std::string_view(column).find(' '));
    bool has = false;
    {
      sqlite::Statement columns(db, "SELECT 1 FROM pragma_table_info('files') WHERE name = ?1");
      columns.bind(1, name);
      has = columns.step();
    }
    if (!has) db.exec(("ALTER TABLE files ADD COLUMN " + std::string(column)).c_str());
  }
  db.exec("DROP INDEX IF EXISTS games_eco");  // unused (kCreateIndexes)
  db.exec(
      "CREATE VIRTUAL TABLE IF NOT EXISTS comment_text USING fts5(text, tokenize = 'trigram', detail = 'none');"
      "CREATE TABLE IF NOT EXISTS markers(game_id INTEGER NOT NULL, marker TEXT NOT NULL, "
      "PRIMARY KEY(game_id, marker)) WITHOUT ROWID;");
  add_site_suffix(db);
  migrate_tags_to_lists(db);  // tags rows (before issue 23's size target) -> game_tag_lists
  fold_game_openings(db);     // game_openings rows -> games columns (issue 23's size target)
}

bool has_opening_columns(sqlite::Connection& db) {
  sqlite::Statement columns(db, "SELECT 1 FROM pragma_table_info('games') WHERE name = 'opening_id'");
  return columns.step();
}

bool fold_game_openings(sqlite::Connection& db) {
  if (!has_opening_columns(db)) {
    // ALTER TABLE ... ADD COLUMN edits the schema only; one statement, so both or neither.
    sqlite::Transaction txn(db, sqlite::Begin::kImmediate);
    db.exec("ALTER TABLE games ADD COLUMN opening_eco TEXT");
    db.exec("ALTER TABLE games ADD COLUMN opening_id INTEGER REFERENCES openings(id)");
    txn.commit();
  }
  std::string type;
  {
    sqlite::Statement q(db, "SELECT type FROM sqlite_master WHERE name = 'game_openings'");
    if (q.step()) type = std::string(q.column_text(0));
  }
  if (type != "table") return false;
  sqlite::Transaction txn(db, sqlite::Begin::kImmediate);
  db.exec(
      "UPDATE games SET opening_eco = go.eco, opening_id = go.opening_id "
      "FROM game_openings go WHERE go.game_id = games.id");
  db.exec("DROP TABLE game_openings");  // and its index game_openings_eco
  db.exec(
      "CREATE VIEW game_openings(game_id, eco, opening_id) AS "
      "SELECT id, opening_eco, opening_id FROM games WHERE opening_eco IS NOT NULL");
  txn.commit();
  return true;
}

bool has_site_suffix(sqlite::Connection& db) {
  sqlite::Statement columns(db, "SELECT 1 FROM pragma_table_info('games') WHERE name = 'site_suffix'");
  return columns.step();
}

void add_site_suffix(sqlite::Connection& db) {
  // ALTER TABLE ... ADD COLUMN only edits the schema: the old rows read NULL (whole names).
  if (!has_site_suffix(db)) db.exec("ALTER TABLE games ADD COLUMN site_suffix TEXT");
}

bool has_player_eco_tables(sqlite::Connection& db) {
  sqlite::Statement query(db,
                          "SELECT COUNT(*) FROM sqlite_master WHERE type IN ('table', 'view') AND name IN "
                          "('openings', 'game_openings', 'player_data', 'game_players')");
  return query.step() && query.column_int64(0) == 4;
}

void create_player_eco_tables(sqlite::Connection& db) {
  fold_game_openings(db);  // the columns the game_openings view and its index read
  if (has_player_eco_tables(db)) return;  // no write transaction when nothing is missing
  sqlite::Transaction txn(db, sqlite::Begin::kImmediate);
  db.exec(kCreatePlayerEcoTables);
  txn.commit();
}

static_assert(kPlayerSegmentBits == 18, "kCreateSegWhiteIndexSql, kCreateIndexes spell id >> 18");

std::string player_segment_sql(std::string_view games_alias) {
  const std::string prefix = games_alias.empty() ? "" : std::string(games_alias) + ".";
  return "(" + prefix + "id >> " + std::to_string(kPlayerSegmentBits) + ")";
}

std::string player_segments_sql(std::string_view max_id_sql) {
  return "(WITH RECURSIVE cqldb_segments(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM "
         "cqldb_segments WHERE n < ((" + std::string(max_id_sql) + ") >> " +
         std::to_string(kPlayerSegmentBits) + ")) SELECT n FROM cqldb_segments)";
}

void create_indexes(sqlite::Connection& db) {
  sqlite::Transaction txn(db);
  db.exec(kCreateIndexes);
  txn.commit();
}

bool drop_bitmap_indexes(sqlite::Connection& db) {
  {
    sqlite::Statement any(db,
                          "SELECT 1 FROM sqlite_master WHERE type = 'index' AND name IN "
                          "('games_year', 'games_white_elo', 'games_black_elo', 'games_opening_eco', "
                          "'games_seg_white', 'games_seg_black')");
    if (!any.step()) return false;
  }
  sqlite::Transaction txn(db, sqlite::Begin::kImmediate);
  db.exec(
      "DROP INDEX IF EXISTS games_year; DROP INDEX IF EXISTS games_white_elo; "
      "DROP INDEX IF EXISTS games_black_elo; DROP INDEX IF EXISTS games_opening_eco; "
      "DROP INDEX IF EXISTS games_seg_white; DROP INDEX IF EXISTS games_seg_black;");
  txn.commit();
  return true;
}

void drop_indexes(sqlite::Connection& db) {
  sqlite::Transaction txn(db);
  db.exec(kDropIndexes);
  txn.commit();
}

std::optional<int64_t> read_meta(sqlite::Connection& db, std::string_view key) {
  sqlite::Statement query(db, "SELECT value FROM meta WHERE key = ?1");
  query.bind(1, key);
  if (!query.step()) return std::nullopt;
  return query.column_int64(0);
}

void check_format_version(std::optional<int64_t> found, int64_t expected, const std::string& what,
                          const std::string& upgrade_dir) {
  if (!found) throw FormatError(what + " has no format version: not a cqldb database");
  if (*found == expected) return;
  const std::string mismatch = what + " has format version " + std::to_string(*found) +
                               " but this cqldb reads version " + std::to_string(expected);
  if (!upgrade_dir.empty() && *found >= kOldestUpgradableFormatVersion && *found < expected)
    throw FormatError(mismatch + "; upgrade it with `cqldb reindex --db " + upgrade_dir + "`");
  throw FormatError(mismatch + "; import the PGN files again into a new database");
}

void check_record_format_version(std::optional<int64_t> found, const std::string& what) {
  if (found && *found >= kOldestRecordFormatVersion && *found <= kRecordFormatVersion) return;
  check_format_version(found, kRecordFormatVersion, what);
}

bool stamp_record_format_version(sqlite::Connection& db, uint32_t version) {
  const auto found = read_meta(db, kMetaRecordFormatVersion);
  if (!found || *found >= int64_t(version)) return false;
  sqlite::Statement update(db, "UPDATE meta SET value = ?2 WHERE key = ?1");
  update.bind(1, kMetaRecordFormatVersion);
  update.bind(2, int64_t(version));
  update.run();
  return true;
}

void checkpoint(sqlite::Connection& db) {
  // Without a busy timeout the checkpoint gives up at once where readers block it.
  db.exec("PRAGMA busy_timeout=0; PRAGMA wal_checkpoint(TRUNCATE)");
  const std::string restore = "PRAGMA busy_timeout=" + std::to_string(sqlite::kBusyTimeoutMs);
  db.exec(restore.c_str());
}

void configure_writer(sqlite::Connection& db) {
  db.exec(
      "PRAGMA synchronous=NORMAL;"
      "PRAGMA cache_size=-131072;"  // KiB: up to 128 MiB of page cache
      // Checkpoint every 64 MiB of WAL rather than 4 MiB: an append rewrites the pages of
      // the random-insert indexes in every commit, and each checkpoint writes them again
      // (issue 16, SPEC-NOTES); finish() checkpoints at the end.
      "PRAGMA wal_autocheckpoint=16384;"
      "PRAGMA temp_store=MEMORY;"
      "PRAGMA threads=2;");  // helper threads for the sorts of CREATE INDEX
}

}  // namespace db::schema
