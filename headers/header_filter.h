// HeaderFilter: the game-header conditions of a match list (`:player :elo :year :eco ...`) or
// of the shell's `filter` terms, as one SQL WHERE clause over headers.sqlite with bound
// parameters. HeaderStore (headers/header_store.h) runs it; semantics per keyword are at the
// top of header_filter.cpp (CQL-Match-List, SPEC "Player names", "Date ranges").
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cql/ast.h"
#include "db/header_bitmaps.h"
#include "db/sqlite_statement.h"

namespace headers {

/// A header bitmap term on the player columns whose values are found at query time: the
/// players rows that `ids_sql` selects (`SELECT id FROM players WHERE ...`, parameters
/// `params`), on White's column, Black's or either (db/header_bitmaps.h). HeaderStore turns
/// it into a db::BitmapTerm (no row: no game passes).
struct PlayerTerm {
  std::string ids_sql;
  std::vector<db::sqlite::Param> params;
  bool white = false;  ///< games.white_id among the rows
  bool black = false;  ///< games.black_id among the rows (both: either side)
  /// Terms ORed with this one (`(:or (:whiteplayer "A") (:blackplayer "B"))`): one bitmap
  /// term whose values are all of theirs.
  std::vector<PlayerTerm> alternatives;
};

/// The header conditions of one match list as an SQL WHERE clause over the `games` table
/// (joined with players/events/sites), with every user value bound as a parameter.
class HeaderFilter {
 public:
  /// A filter that accepts every game.
  HeaderFilter() = default;

  /// Builds the filter from the header keywords of `match` (items of the match list itself,
  /// not its position lists). With `color_flipped`, White and Black roles are swapped
  /// (`:whiteplayer` <-> `:blackplayer`, `:whiteelo` <-> `:blackelo`, results 1-0 <-> 0-1).
  /// Throws cql::CompileError for a match-list keyword that is not supported yet.
  static HeaderFilter compile(const cql::List& match, bool color_flipped);

  /// A filter from a clause built by WhereBuilder (headers/where_builder.h) and its
  /// parameters in placeholder order; an empty clause accepts every game.
  static HeaderFilter from_where(std::string where, std::vector<db::sqlite::Param> params) {
    HeaderFilter f;
    f.where_ = std::move(where);
    f.params_ = std::move(params);
    f.rest_where_ = f.where_;
    f.rest_params_ = f.params_;
    return f;
  }

  /// from_where(), and the same filter split for the header bitmaps (db/header_bitmaps.h):
  /// `terms`, each a condition of `where` the bitmaps answer exactly (or a superset of one
  /// that `rest_where` still tests), ANDed with `rest_where` (its parameters `rest_params`).
  /// `players` are further terms on the player columns, ANDed likewise.
  static HeaderFilter from_parts(std::string where, std::vector<db::sqlite::Param> params,
                                 std::vector<db::BitmapTerm> terms, std::string rest_where,
                                 std::vector<db::sqlite::Param> rest_params,
                                 std::vector<PlayerTerm> players = {}) {
    HeaderFilter f = from_where(std::move(where), std::move(params));
    f.bitmap_terms_ = std::move(terms);
    f.player_terms_ = std::move(players);
    f.rest_where_ = std::move(rest_where);
    f.rest_params_ = std::move(rest_params);
    return f;
  }

  /// True when there is no header condition (every game passes).
  bool accepts_all() const { return where_.empty(); }

  /// The WHERE clause as SQL with `?` placeholders (for explain); empty if accepts_all().
  const std::string& where_sql() const { return where_; }

  /// The values of the placeholders, in order.
  const std::vector<db::sqlite::Param>& params() const { return params_; }

  /// The filter as bitmap terms and player terms ANDed with rest_sql(): the top-level
  /// conditions on the year, the Elos and the classified ECO code (an intersection of
  /// unions of per-value bitmaps; a `:date` adds a superset on the year), and on player
  /// names (player_terms()). Both empty when none: then rest_sql() is where_sql().
  /// HeaderStore::candidates uses them when the database has the bitmaps.
  const std::vector<db::BitmapTerm>& bitmap_terms() const { return bitmap_terms_; }
  /// The top-level player name conditions (`:player`, `:white`, `:black`, `player=`...) as
  /// terms on the bitmaps' player columns.
  const std::vector<PlayerTerm>& player_terms() const { return player_terms_; }
  /// True when some condition is a bitmap or player term.
  bool has_bitmap_terms() const { return !bitmap_terms_.empty() || !player_terms_.empty(); }
  /// The conditions the bitmap terms leave (empty: none), with `?` placeholders.
  const std::string& rest_sql() const { return rest_where_; }
  /// The values of rest_sql()'s placeholders, in order.
  const std::vector<db::sqlite::Param>& rest_params() const { return rest_params_; }

  /// The data beyond the games table the clause reads (headers::MatchDataNeeds bits,
  /// headers/match_keywords.h); HeaderStore refuses a database that lacks it.
  uint32_t needs() const { return needs_; }

 private:
  std::string where_;                       // SQL condition over games g
  std::vector<db::sqlite::Param> params_;   // values for the `?` placeholders, in order
  uint32_t needs_ = 0;                      // MatchDataNeeds bits
  std::vector<db::BitmapTerm> bitmap_terms_;   // ANDed with rest_where_ (bitmap_terms())
  std::vector<PlayerTerm> player_terms_;       // likewise (player_terms())
  std::string rest_where_;                     // where_ without what the terms decide exactly
  std::vector<db::sqlite::Param> rest_params_; // rest_where_'s parameters
};

}  // namespace headers
