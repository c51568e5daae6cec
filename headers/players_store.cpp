// The player commands' connections to a database's header store (headers/players.h): cli/
// names a database directory, headers/ opens its SQLite file.
#include <chrono>

#include "db/schema.h"
#include "db/sqlite_db.h"
#include "headers/player_hints.h"
#include "headers/players.h"

namespace headers::players {

namespace {

db::sqlite::Connection open_headers(const std::filesystem::path& db_dir, db::sqlite::OpenMode mode) {
  return db::sqlite::Connection(db_dir / db::schema::kHeadersFile, mode);
}

}  // namespace

PlayerListImport import_player_list(const std::filesystem::path& db_dir, const std::vector<PlayerRecord>& records) {
  db::sqlite::Connection sql = open_headers(db_dir, db::sqlite::OpenMode::kReadWrite);
  db::schema::create_player_eco_tables(sql);
  PlayerListImport result;
  const auto started = std::chrono::steady_clock::now();
  result.stored = store_player_list(sql, records);
  result.store_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  result.link = link_games(sql, LinkScope::kAllGames);
  db::schema::checkpoint(sql);
  return result;
}

std::vector<PlayerSummary> list_players(const std::filesystem::path& db_dir, std::string_view pattern, bool quoted) {
  db::sqlite::Connection sql = open_headers(db_dir, db::sqlite::OpenMode::kReadOnly);
  return list_players(sql, pattern, quoted);
}

std::vector<std::string> quoted_name_hints(const std::filesystem::path& db_dir, const cql::Script& script) {
  db::sqlite::Connection sql = open_headers(db_dir, db::sqlite::OpenMode::kReadOnly);
  return quoted_name_hints(sql, script);
}

}  // namespace headers::players
