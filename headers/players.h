// Player data (issue 17 A): the player list imported by `cqldb players import` (FIDE's
// fixed-width TXT rating list or a simple CSV), the link of each game side to a list entry,
// and the player listing of `cqldb players`. Tables: player_data and game_players
// (db/schema.h).
//
// Link rule: a game side joins the list entry whose FIDE id equals the side's
// [WhiteFideId] / [BlackFideId] tag when it has one; else the entry whose full folded name
// equals the side's (player_name.h full_name_key), when exactly one entry has it; else the
// entry whose player key equals the side's (player_key), when exactly one has it. A name
// shared by several entries links to none (counted as ambiguous). The side's title is its
// [WhiteTitle] / [BlackTitle] tag (upper-cased; lichess "BOT" = a program), else the list's.
#pragma once

#include <cstdint>
#include <istream>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "db/sqlite_db.h"

namespace headers::players {

/// One entry of a player list.
struct PlayerRecord {
  std::string name;               ///< "Kasparov, Garry" (UTF-8)
  std::optional<int64_t> fide_id; ///< FIDE ID number
  std::string country;            ///< federation, upper case ("RUS"); empty = unknown
  std::string sex;                ///< "m", "f" or empty (unknown)
  std::string title;              ///< "GM", "WIM", ...; empty = none
  std::optional<int> birth;       ///< birth year
  std::optional<int> death;       ///< death year
};

/// A bad line of a player list: 1-based line number and what is wrong.
struct ListError {
  size_t line = 0;
  std::string message;
};

/// Reads FIDE's fixed-width TXT list: a header line naming the columns ("ID Number", "Name",
/// "Fed", "Sex", "Tit", "WTit", "OTit", "FOA", rating columns, "B-day", "Flag"); each field
/// is the text under its column label up to the next label. Title = Tit, else WTit; sex
/// from Sex ("M"/"F"), else "w" in Flag; birth = B-day when not 0. Lines without an ID
/// number or a name go to `errors`. Throws std::runtime_error when the header lacks
/// "ID Number" or "Name".
std::vector<PlayerRecord> read_fide_txt(std::istream& in, std::vector<ListError>& errors);

/// Reads the CSV form: header `name,fide_id,country,sex,title,birth,death` (columns in
/// any order, only `name` required), RFC 4180 quotes ("Kasparov, Garry" quoted). Sex m/f
/// (also male/female/w); empty fields are unknown. Bad lines go to `errors`. Throws
/// std::runtime_error when the header has no `name` column.
std::vector<PlayerRecord> read_players_csv(std::istream& in, std::vector<ListError>& errors);

/// Reads a list file in either form (FIDE TXT when the first line starts with "ID Number",
/// else CSV). Throws std::runtime_error when the file cannot be opened or has no header.
std::vector<PlayerRecord> read_player_list(const std::string& path, std::vector<ListError>& errors);

/// What link_games did.
struct LinkCounts {
  int64_t games = 0;            ///< games looked at
  int64_t sides_by_fide_id = 0; ///< sides linked through a FIDE id tag
  int64_t sides_by_name = 0;    ///< sides linked through the name
  int64_t sides_with_title = 0; ///< sides with a title (tag or list)
  int64_t ambiguous_names = 0;  ///< distinct spellings whose name fits several entries
  double seconds = 0;           ///< wall time
};

/// Stores `records` in player_data (an entry with a FIDE id replaces the one with that id;
/// one without replaces the id-less entry of the same full name), in one transaction.
/// Returns the number stored. The caller holds the writer lock.
int64_t store_player_list(db::sqlite::Connection& sql, const std::vector<PlayerRecord>& records);

/// Which games link_games() links.
enum class LinkScope {
  /// The games added since the last link (meta.linked_games, db/schema.h; every game when
  /// it is missing): what an import of games needs. Costs O(new games and their players).
  kNewGames,
  /// Every game, rebuilding game_players: what a changed player list needs.
  kAllGames,
};

/// Builds game_players for the games of `scope` (see the link rule above) and records the
/// last linked game id in meta.linked_games, in one transaction.
LinkCounts link_games(db::sqlite::Connection& sql, LinkScope scope);

/// One player of `cqldb players`: the spellings merged under one player key.
struct PlayerSummary {
  std::string key;                                       ///< player key (player_name.h)
  std::vector<std::pair<std::string, int64_t>> spellings;  ///< spelling, games; most games first
  int64_t games = 0;                                     ///< games as White or Black
  int elo_min = 0, elo_max = 0;                          ///< Elo range in those games (0 = none)
  int first_year = 0, last_year = 0;                     ///< years of the games (0 = none)
};

/// The players whose spelling or key matches `pattern` by the name rule (PlayerMatcher:
/// `quoted` = pattern, else substring; an empty unquoted pattern lists everyone), most games
/// first, then by key.
std::vector<PlayerSummary> list_players(db::sqlite::Connection& sql, std::string_view pattern, bool quoted);
/// list_players over a read-only connection of its own to the header store of the database
/// in `db_dir` (what `cqldb players` lists).
std::vector<PlayerSummary> list_players(const std::filesystem::path& db_dir, std::string_view pattern, bool quoted);

/// What import_player_list did.
struct PlayerListImport {
  int64_t stored = 0;        ///< entries stored (store_player_list)
  double store_seconds = 0;  ///< wall time of storing them
  LinkCounts link;           ///< the link of every game that followed
};

/// `cqldb players import`: over a read-write connection of its own to the header store of
/// the database in `db_dir`, creates the player tables when missing, stores `records`
/// (store_player_list), links every game (link_games, LinkScope::kAllGames) and checkpoints
/// the WAL. The caller holds the writer lock.
PlayerListImport import_player_list(const std::filesystem::path& db_dir, const std::vector<PlayerRecord>& records);

}  // namespace headers::players
