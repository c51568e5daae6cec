// HeaderFilter: the game-header conditions of a match list (`:player :elo :year :eco ...`),
// evaluated by SQLite over headers.sqlite, and GameInfo, the per-game header values that
// position-list keywords (`:result :elo :whiteelo :blackelo`) read.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "cql/ast.h"
#include "db/sqlite_statement.h"

namespace eval {

/// The header conditions of one match list as an SQL WHERE clause over the `games` table
/// (joined with players/events/sites), with every user value bound as a parameter.
class HeaderFilter {
 public:
  /// A filter that accepts every game.
  HeaderFilter() = default;

  /// Builds the filter from the header keywords of `match` (items of the match list itself,
  /// not its position lists). With `color_flipped`, White and Black roles are swapped
  /// (`:whiteplayer` <-> `:blackplayer`, `:whiteelo` <-> `:blackelo`, results 1-0 <-> 0-1).
  /// Throws eval::CompileError for a match-list keyword that is not supported yet.
  static HeaderFilter compile(const cql::List& match, bool color_flipped);

  /// True when there is no header condition (every game passes).
  bool accepts_all() const { return where_.empty(); }

  /// The WHERE clause as SQL with `?` placeholders (for --explain); empty if accepts_all().
  const std::string& where_sql() const { return where_; }

  /// The ids (ascending) of games 1..game_count satisfying the conditions, read from the
  /// database in `db_dir` (its headers.sqlite) in one query. With `within` (ascending ids),
  /// only those games are asked about: a few are looked up by id, many are intersected.
  std::vector<uint32_t> candidates(const std::filesystem::path& db_dir, uint32_t game_count,
                                   const std::vector<uint32_t>* within = nullptr) const;

  /// One bound parameter value.
  using Param = db::sqlite::Param;

 private:
  std::string where_;          // SQL condition over games g, players w/b, events e, sites s
  std::vector<Param> params_;  // values for the `?` placeholders, in order
};

/// Header values of one game used by position-list game-information keywords.
struct GameInfo {
  uint8_t result = 0;     ///< db::ResultCode: 0 unknown '*', 1 1-0, 2 0-1, 3 draw
  uint16_t white_elo = 0; ///< 0 = none
  uint16_t black_elo = 0; ///< 0 = none
};

/// Reads GameInfo of games 1..game_count from `db_dir` into a vector indexed by game id
/// (index 0 unused). One sequential SQL scan; with `only` (ids), a lookup per id and the
/// other entries left zero.
std::vector<GameInfo> load_game_info(const std::filesystem::path& db_dir, uint32_t game_count,
                                     const std::vector<uint32_t>* only = nullptr);

}  // namespace eval
