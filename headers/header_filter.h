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
#include "db/sqlite_statement.h"

namespace headers {

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
    return f;
  }

  /// True when there is no header condition (every game passes).
  bool accepts_all() const { return where_.empty(); }

  /// The WHERE clause as SQL with `?` placeholders (for explain); empty if accepts_all().
  const std::string& where_sql() const { return where_; }

  /// The values of the placeholders, in order.
  const std::vector<db::sqlite::Param>& params() const { return params_; }

  /// The data beyond the games table the clause reads (headers::MatchDataNeeds bits,
  /// headers/match_keywords.h); HeaderStore refuses a database that lacks it.
  uint32_t needs() const { return needs_; }

 private:
  std::string where_;                       // SQL condition over games g
  std::vector<db::sqlite::Param> params_;   // values for the `?` placeholders, in order
  uint32_t needs_ = 0;                      // MatchDataNeeds bits
};

}  // namespace headers
