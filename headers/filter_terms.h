// The shell `filter` command's header shorthands: `white=Carlsen elo>=2500 year=1990..2000 ...`.
//
// Each term is KEY OP VALUE; the keys are rows of a table (name, operators, value syntax,
// SQL builder) from which `help filter` is generated. A term becomes an SQL condition over
// `games g` with `?` placeholders; the values are bound as parameters, never pasted into
// the SQL text.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "db/sqlite_statement.h"
#include "headers/header_filter.h"

namespace headers {

/// One bound SQL parameter.
using SqlParam = db::sqlite::Param;

/// A header condition: SQL over the `games g` row (with `?` placeholders) and its values.
struct HeaderCondition {
  std::string sql;               ///< e.g. "g.year BETWEEN ? AND ?"
  std::vector<SqlParam> params;  ///< values for the placeholders, in order
  /// The same condition on the header bitmaps (db/header_bitmaps.h), ANDed terms, when
  /// they decide it exactly (year, Elo and ECO terms); empty otherwise.
  std::vector<db::BitmapTerm> bitmap;
  /// The same condition as a term on the bitmaps' player columns (player names); empty
  /// otherwise.
  std::vector<PlayerTerm> players;
};

/// Parses one term such as `player=carlsen`, `elo>=2500`, `year=1990..2000`, `eco=B20..B99`,
/// `result=1-0`, `event~olympiad`. Returns false with a message naming the term and what
/// was expected.
bool parse_filter_term(std::string_view term, HeaderCondition& condition, std::string& error);

/// The terms (each as parse_filter_term takes it) ANDed into one HeaderFilter, built by the
/// same WhereBuilder as the match list's header keywords. nullopt with `error` for a bad term.
std::optional<HeaderFilter> compile_filter_terms(const std::vector<std::string>& terms, std::string& error);

/// The keys, their operators and value syntax, one per line, for `help filter`.
std::string filter_key_help();

}  // namespace headers
