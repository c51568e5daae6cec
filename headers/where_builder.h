// WhereBuilder: the one builder of SQL WHERE clauses over headers.sqlite's `games g` row,
// used by the match list's header keywords (headers/header_filter.cpp) and by the shell's
// `filter` terms (headers/filter_terms.cpp). Every user value becomes a bound `?` parameter,
// never SQL text (SQLiteCpp practice, STYLE.md).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cql/ast.h"
#include "db/sqlite_statement.h"

namespace headers {

/// Collects ANDed conditions and their parameters in placeholder order.
class WhereBuilder {
 public:
  explicit WhereBuilder(std::vector<db::sqlite::Param>& params) : params_(params) {}

  /// A `?` bound to `value`.
  std::string number(int64_t value) {
    db::sqlite::Param p;
    p.number = value;
    params_.push_back(std::move(p));
    return "?";
  }
  /// A `?` bound to `text`.
  std::string text(std::string value) {
    db::sqlite::Param p;
    p.is_text = true;
    p.text = std::move(value);
    params_.push_back(std::move(p));
    return "?";
  }
  /// ANDs `condition` (a complete SQL boolean expression, never NULL).
  void add(const std::string& condition) {
    if (!where_.empty()) where_ += " AND ";
    where_ += "(" + condition + ")";
  }
  /// The clause so far ("" when nothing was added); the builder is empty afterwards.
  std::string take() { return std::move(where_); }

 private:
  std::vector<db::sqlite::Param>& params_;
  std::string where_;
};

/// `id_column` (e.g. "g.white_id") names a row of `table` ("players", "events", "sites")
/// whose name contains `text`, ignoring case (CQL's unquoted string), or, with `pattern`,
/// whose whole name matches the pattern (headers/header_pattern.h). For "sites" with an
/// id_column "<alias>.site_id" the name is the whole site name, suffix included
/// (site_condition_sql below; db/site_name.h).
std::string name_sql(WhereBuilder& b, std::string_view id_column, std::string_view table, std::string text,
                     bool pattern);

/// `SELECT id FROM players WHERE ...`: the players rows whose name contains `text`
/// (ignoring case) or, with `pattern`, matches the pattern or whose player key does
/// (headers/player_name.h), as name_sql() tests them; the text bound through `b`.
std::string player_ids_sql(WhereBuilder& b, std::string text, bool pattern);

/// A condition on the site name of the game row `games_alias` (e.g. "g"), which may be
/// cut into a `sites` prefix and a games.site_suffix (db/site_name.h): `on_name` tests a
/// `sites` row's column `name` (games without a suffix: one scan of `sites` for the whole
/// query), `on_full_name` the same on db::site_name_sql(games_alias) (games with one). Both
/// must be 0/1 conditions of the same test.
std::string site_condition_sql(std::string_view games_alias, const std::string& on_name,
                               const std::string& on_full_name);

/// `expr` within the interval of `r` as SQL with bound numbers ("1" when unbounded);
/// precondition: `r` is an interval. Throws cql::CompileError at `item` for percentages and
/// `end`, which header values do not have. Defined in headers/header_filter.cpp; the
/// match-list keywords of headers/match_keywords.cpp use it too.
std::string interval_sql(WhereBuilder& b, const std::string& expr, const cql::Range& r,
                         const cql::KeywordItem& item);

}  // namespace headers
