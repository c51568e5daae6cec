#include "db/game_markers.h"

#include <stdexcept>

#include "db/schema.h"
#include "db/sqlite_db.h"
#include "db/sqlite_statement.h"

namespace db {

void set_game_marker(const std::filesystem::path& dir, uint32_t game_id, std::string_view marker, bool clear) {
  if (!(clear && marker.empty()) && (marker.size() != 1 || kGameMarkers.find(marker[0]) == std::string_view::npos))
    throw std::invalid_argument("unknown game marker '" + std::string(marker) + "' (one of " +
                                std::string(kGameMarkers) + ")");
  sqlite::Connection sql(dir / schema::kHeadersFile, sqlite::OpenMode::kReadWrite);
  const int64_t committed = schema::read_meta(sql, schema::kMetaCommittedGames).value_or(0);
  if (game_id < 1 || int64_t(game_id) > committed)
    throw std::invalid_argument("no game " + std::to_string(game_id) + " (the database has games 1.." +
                                std::to_string(committed) + ")");
  schema::ensure_match_tables(sql);
  if (clear && marker.empty()) {
    sqlite::Statement del(sql, "DELETE FROM markers WHERE game_id = ?1");
    del.bind(1, int64_t(game_id));
    del.run();
    return;
  }
  sqlite::Statement change(sql, clear ? "DELETE FROM markers WHERE game_id = ?1 AND marker = ?2"
                                      : "INSERT OR IGNORE INTO markers(game_id, marker) VALUES(?1, ?2)");
  change.bind(1, int64_t(game_id));
  change.bind(2, marker);
  change.run();
}

std::string game_markers(const std::filesystem::path& dir, uint32_t game_id) {
  sqlite::Connection sql(dir / schema::kHeadersFile, sqlite::OpenMode::kReadOnly);
  std::string found;
  {
    sqlite::Statement has(sql, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'markers'");
    if (!has.step()) return {};
  }
  sqlite::Statement q(sql, "SELECT marker FROM markers WHERE game_id = ?1");
  q.bind(1, int64_t(game_id));
  while (q.step()) found += std::string(q.column_text(0));
  std::string ordered;
  for (char c : kGameMarkers)
    if (found.find(c) != std::string::npos) ordered += c;
  return ordered;
}

}  // namespace db
