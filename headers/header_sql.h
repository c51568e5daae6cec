// SQL functions used by HeaderFilter's WHERE clauses, registered per SQLite connection:
//
//   cqldb_contains(needle, text)  1 if `needle` occurs in `text` ignoring case, else 0
//   cqldb_pattern(pattern, text)  1 if `text` matches the Pattern-Matching `pattern`, else 0
//   cqldb_player_pattern(pattern, name)  1 if the player spelling `name` or its player key
//                                 matches the Pattern-Matching `pattern` (headers/player_name.h)
//   cqldb_start_position(fen)     the Shuffle Chess number of a start FEN (NULL or empty =
//                                 the standard start, 518; 0 = no Shuffle Chess array), for
//                                 match:startposition / :ischess960 / :isshufflechess
//
// Both return 0 when `text` is NULL. Arguments are UTF-8 text (header_pattern.h). A
// compiled pattern is cached per statement while its argument stays the same.
#pragma once

struct sqlite3;

namespace headers {

inline constexpr const char* kSqlContains = "cqldb_contains";  ///< unquoted word argument
inline constexpr const char* kSqlPattern = "cqldb_pattern";    ///< double-quoted pattern
inline constexpr const char* kSqlPlayerPattern = "cqldb_player_pattern";  ///< quoted player name
inline constexpr const char* kSqlStartPosition = "cqldb_start_position";  ///< games.fen -> number

/// Registers the functions on `db`. Any connection that runs HeaderFilter::where_sql()
/// needs them. Throws db::SqliteError when SQLite refuses.
void register_header_functions(sqlite3* db);

}  // namespace headers
