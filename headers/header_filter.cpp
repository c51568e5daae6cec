// HeaderFilter: match-list header keywords -> one SQL WHERE clause over headers.sqlite.
//
// Semantics (CQL-Match-List, CQL-Range-Specifiers, SPEC; decisions marked "decision"):
//   :result r,...   games.result is one of the codes; 1/2 = 1/2-1/2; 0-0 never matches
//                   (no stored game has it); `*` = unknown result. Flipped: 1-0 <-> 0-1.
//   :player w       either player's name; :whiteplayer / :blackplayer one side (swapped
//                   when flipped). Unquoted = case-insensitive substring, quoted = pattern
//                   (header_pattern.h). Same for :event and :site. Issue 17 A: a quoted
//                   player pattern also matches when it matches the player key
//                   (player_name.h), so "Kasparov, G*" finds "Kasparov,G".
//   :elo r          at least one player's Elo lies in r; :whiteelo / :blackelo one side.
//                   Decision: a missing Elo counts as 0, so `:elo 0` finds games where a
//                   player has no Elo (the page's special case), and any range containing
//                   0 (e.g. `<2000`) admits unrated players, exactly as the position-list
//                   keywords do with GameInfo (Elo 0 = none). `*` = has an Elo (> 0),
//                   `-` = has none; for :elo "at least one player" again.
//   :year r         games.year in r; a game without a year matches only `-`.
//   :date ...       decision: a partial game date ("1985.??.??", "1985.03.??") stands for
//                   all the days it covers, and matches only when every one of them lies
//                   in the query's interval (header_date.h), i.e. when the game certainly
//                   was played in the range. A game without a year matches only `-`;
//                   `*` = the year is known.
//   :eco e,...      issue 17 A: the classified code (game_openings): the opening table's
//                   code of the deepest named position of the main line, else the first
//                   three characters of [ECO] when they are A-E and two digits (Scid's
//                   "B90a" counts as B90). `*` = has a code, `-` = has none.
//   :plycount r     games.plies (main-line plies) in r.
//   :gamenumber r   the game id in r.
//   :round r        decision: the round number is the leading decimal digits of [Round]
//                   ("11.16" -> 11, "3 (tiebreak)" -> 3); a round without leading digits
//                   ("?", "-", "", "Final") is number 0 = no round specification, so
//                   `:round 0` finds those. `*` = number > 0, `-` = number 0.
//   `*` / `-` of :plycount / :gamenumber: every game / no game (both are always present).
// Every condition is written to be true or false, never SQL NULL, so that a caller may
// negate it. All header keywords of one match list are ANDed.
#include "headers/header_filter.h"

#include <algorithm>
#include <iterator>
#include <numeric>
#include <string>
#include <utility>

#include "cql/error.h"
#include "cql/game_keyword_values.h"
#include "cql/keywords.h"
#include "db/game_header.h"
#include "db/schema.h"
#include "db/site_name.h"
#include "headers/header_date.h"
#include "headers/header_sql.h"
#include "headers/match_keywords.h"
#include "headers/player_keywords.h"
#include "headers/where_builder.h"

namespace headers {

std::string interval_sql(WhereBuilder& b, const std::string& expr, const cql::Range& r,
                         const cql::KeywordItem& item) {
  if (r.percent || (r.lo && r.lo->from_end) || (r.hi && r.hi->from_end))
    throw cql::CompileError(item.loc, "percentages and 'end' are not allowed for " +
                                     cql::keyword_spelling(item.keyword));
  std::string sql;
  if (r.lo) sql += expr + (r.lo_strict ? " > " : " >= ") + b.number(r.lo->value);
  if (r.hi) {
    if (!sql.empty()) sql += " AND ";
    sql += expr + (r.hi_strict ? " < " : " <= ") + b.number(r.hi->value);
  }
  return sql.empty() ? "1" : sql;
}

namespace {

using cql::Keyword;
using cql::KeywordItem;

/// Match-list keywords that are not header conditions: the logical keywords, tagging, the
/// colour transformation and the meaningless CQL 1.0 items. Program::compile handles them;
/// HeaderFilter::compile skips them. Every other keyword the keyword table accepts in a
/// match list is a header (game information or game data) keyword.
bool is_structural(Keyword k) {
  switch (k) {
    case Keyword::And:
    case Keyword::Cond:
    case Keyword::Not:
    case Keyword::Or:
    case Keyword::Xor:
    case Keyword::ForAny:
    case Keyword::EitherColor:
    case Keyword::Output:
    case Keyword::Pgn:
      return true;
    default:
      return false;
  }
}

// SQL expressions over `games g`.
constexpr const char* kRoundNumber =
    "(CASE WHEN g.round GLOB '[0-9]*' THEN CAST(g.round AS INTEGER) ELSE 0 END)";
constexpr const char* kFirstDayKey =
    "(g.year * 10000 + IFNULL(g.month, 1) * 100 + "
    "CASE WHEN g.month IS NULL THEN 1 ELSE IFNULL(g.day, 1) END)";
constexpr const char* kLastDayKey =
    "(g.year * 10000 + IFNULL(g.month, 12) * 100 + "
    "CASE WHEN g.month IS NULL THEN 31 ELSE IFNULL(g.day, 31) END)";

/// A game-information range over an always-present value (plies, game id):
/// `*` every game, `-` none.
std::string present_range_sql(WhereBuilder& b, const std::string& expr, const cql::Range& r,
                              const KeywordItem& item) {
  if (r.kind == cql::Range::Kind::Any) return "1";
  if (r.kind == cql::Range::Kind::Missing) return "0";
  return interval_sql(b, expr, r, item);
}

/// One side's Elo column (`g.white_elo`) against `r`, a missing Elo counting as 0.
std::string elo_sql(WhereBuilder& b, const std::string& column, const cql::Range& r,
                    const KeywordItem& item) {
  std::string value = "IFNULL(" + column + ", 0)";
  if (r.kind == cql::Range::Kind::Any) return value + " > 0";
  if (r.kind == cql::Range::Kind::Missing) return value + " = 0";
  if (r.contains(0)) return interval_sql(b, value, r, item);
  // The plain column keeps the Elo index usable; IS NOT NULL keeps the result non-NULL.
  return column + " IS NOT NULL AND " + interval_sql(b, column, r, item);
}

std::string year_sql(WhereBuilder& b, const cql::Range& r, const KeywordItem& item) {
  if (r.kind == cql::Range::Kind::Any) return "g.year IS NOT NULL";
  if (r.kind == cql::Range::Kind::Missing) return "g.year IS NULL";
  return "g.year IS NOT NULL AND " + interval_sql(b, "g.year", r, item);
}

std::string date_sql(WhereBuilder& b, const cql::DateRange& r) {
  if (r.kind == cql::DateRange::Kind::Any) return "g.year IS NOT NULL";
  if (r.kind == cql::DateRange::Kind::Missing) return "g.year IS NULL";
  DayKeyInterval days = day_key_interval(r);
  std::string sql = "g.year IS NOT NULL";
  if (days.lo)
    sql += std::string(" AND ") + kFirstDayKey + (days.lo_strict ? " > " : " >= ") +
           b.number(*days.lo);
  if (days.hi)
    sql +=
        std::string(" AND ") + kLastDayKey + (days.hi_strict ? " < " : " <= ") + b.number(*days.hi);
  return sql;
}

/// The ECO code text of an encoded code (0 = "A00", 500 = "F00").
std::string eco_text(int code) {
  std::string s(3, '0');
  s[0] = char('A' + code / 100);
  s[1] = char('0' + code % 100 / 10);
  s[2] = char('0' + code % 10);
  return s;
}

/// `:eco` (issue 17 A): the classified code of game_openings (db/schema.h: the opening
/// table's code of the deepest named position, else the tag's code), always three
/// characters; games without a code have no row.
std::string eco_sql(WhereBuilder& b, const cql::EcoArgs& args) {
  const std::string classified = "g.id IN (SELECT game_id FROM game_openings";
  if (args.special == cql::Range::Kind::Any) return classified + ")";
  if (args.special == cql::Range::Kind::Missing) return "NOT " + classified + ")";
  std::string ranges;
  for (const cql::EcoRange& e : args.ranges) {
    if (!ranges.empty()) ranges += " OR ";
    // Separate statements: the placeholders must be pushed in text order.
    ranges += "(eco >= " + b.text(eco_text(e.first));
    ranges += " AND eco < " + b.text(eco_text(e.last + 1)) + ")";
  }
  if (ranges.empty()) return "0";
  return classified + " WHERE " + ranges + ")";
}

std::string result_sql(WhereBuilder& b, const cql::ResultArgs& args, bool flipped) {
  std::string codes;
  for (cql::GameResult r : args.values) {
    db::ResultCode code = db::ResultCode::kUnknown;
    switch (r) {
      case cql::GameResult::WhiteWins:
        code = flipped ? db::ResultCode::kBlackWins : db::ResultCode::kWhiteWins;
        break;
      case cql::GameResult::BlackWins:
        code = flipped ? db::ResultCode::kWhiteWins : db::ResultCode::kBlackWins;
        break;
      case cql::GameResult::Draw:
        code = db::ResultCode::kDraw;
        break;
      case cql::GameResult::Unknown:
        code = db::ResultCode::kUnknown;
        break;
      case cql::GameResult::BothLose:
        continue;  // never stored
    }
    if (!codes.empty()) codes += ", ";
    codes += b.number(int64_t(code));
  }
  return codes.empty() ? "0" : "g.result IN (" + codes + ")";
}

/// `id_column` names a row of `table` whose name matches the text argument of `item`.
std::string name_sql(WhereBuilder& b, const std::string& id_column, const char* table,
                     const KeywordItem& item) {
  const cql::TextPattern& p = item.as<cql::TextArgs>().patterns.at(0);
  return headers::name_sql(b, id_column, table, p.text, p.quoted);
}

/// Adds the condition of one supported header keyword; false if `item` is not supported.
bool add_condition(WhereBuilder& b, const KeywordItem& item, bool flipped) {
  const char* white = flipped ? "g.black" : "g.white";  // prefix of the `:white...` columns
  const char* black = flipped ? "g.white" : "g.black";
  switch (item.keyword) {
    case Keyword::Result:
      b.add(result_sql(b, item.as<cql::ResultArgs>(), flipped));
      return true;
    case Keyword::Player: {
      std::string w = name_sql(b, "g.white_id", "players", item);
      b.add(w + " OR " + name_sql(b, "g.black_id", "players", item));
      return true;
    }
    case Keyword::WhitePlayer:
      b.add(name_sql(b, std::string(white) + "_id", "players", item));
      return true;
    case Keyword::BlackPlayer:
      b.add(name_sql(b, std::string(black) + "_id", "players", item));
      return true;
    case Keyword::Event:
      b.add(name_sql(b, "g.event_id", "events", item));
      return true;
    case Keyword::Site:
      b.add(name_sql(b, "g.site_id", "sites", item));
      return true;
    case Keyword::Elo: {
      const cql::Range& r = item.as<cql::CountArgs>().ranges.at(0);
      std::string w = elo_sql(b, "g.white_elo", r, item);
      b.add("(" + w + ") OR (" + elo_sql(b, "g.black_elo", r, item) + ")");
      return true;
    }
    case Keyword::WhiteElo:
      b.add(elo_sql(b, std::string(white) + "_elo", item.as<cql::CountArgs>().ranges.at(0), item));
      return true;
    case Keyword::BlackElo:
      b.add(elo_sql(b, std::string(black) + "_elo", item.as<cql::CountArgs>().ranges.at(0), item));
      return true;
    case Keyword::Year:
      b.add(year_sql(b, item.as<cql::CountArgs>().ranges.at(0), item));
      return true;
    case Keyword::Date:
      b.add(date_sql(b, item.as<cql::DateArgs>().range));
      return true;
    case Keyword::Eco:
      b.add(eco_sql(b, item.as<cql::EcoArgs>()));
      return true;
    case Keyword::PlyCount:
      b.add(present_range_sql(b, "g.plies", item.as<cql::CountArgs>().ranges.at(0), item));
      return true;
    case Keyword::GameNumber:
      b.add(present_range_sql(b, "g.id", item.as<cql::CountArgs>().ranges.at(0), item));
      return true;
    case Keyword::Round: {
      const cql::Range& r = item.as<cql::CountArgs>().ranges.at(0);
      if (r.kind == cql::Range::Kind::Interval)
        b.add(interval_sql(b, kRoundNumber, r, item));
      else  // `*`: has a round number, `-`: has none
        b.add(std::string(kRoundNumber) + (r.kind == cql::Range::Kind::Any ? " > 0" : " = 0"));
      return true;
    }
    case Keyword::Rating:
    case Keyword::WhiteRating:
    case Keyword::BlackRating: {
      // `ELO` reads the Elo columns; other systems their tags (headers/match_keywords.cpp).
      const auto& a = item.as<cql::RatingArgs>();
      if (a.system != cql::RatingSystem::Elo) return add_match_keyword(b, item, flipped);
      if (item.keyword == Keyword::Rating)
        b.add("(" + elo_sql(b, "g.white_elo", a.range, item) + ") OR (" +
              elo_sql(b, "g.black_elo", a.range, item) + ")");
      else
        b.add(elo_sql(b, std::string(item.keyword == Keyword::WhiteRating ? white : black) + "_elo", a.range, item));
      return true;
    }
    case Keyword::IsChess960:
    case Keyword::IsShuffleChess:
    case Keyword::StartPosition:
    case Keyword::Variant: {
      // The game keywords of the position list (eval/game_keywords.h), asked of the stored
      // start FEN and variant instead of the replayed start position.
      const cql::GameKeywordValues v = cql::game_keyword_values(item, item.keyword);
      std::string sql;
      if (v.is_variant) {
        const char* chess960 = "COALESCE(g.variant, '') = 'chess960'";
        const unsigned bits = v.variant_bits & 3;
        sql = bits == 3 ? "1" : (bits & cql::kVariantChess960) ? chess960
              : (bits & cql::kVariantStandard) ? std::string("NOT ") + chess960 : "0";
      } else {
        for (const auto& [lo, hi] : v.start_ranges) {
          if (!sql.empty()) sql += " OR ";
          sql += std::string(kSqlStartPosition) + "(g.fen) BETWEEN " + std::to_string(lo) + " AND " +
                 std::to_string(hi);
        }
        if (sql.empty()) sql = "0";
      }
      b.add(sql);
      return true;
    }
    default:
      // Issue 17 A: :country :gender :birthyear :deathyear :title (and white/black forms);
      // issue 17 B: tags, stored game, derived values, markers.
      return add_player_data_condition(b, item, flipped) || add_match_keyword(b, item, flipped);
  }
}

}  // namespace

std::string name_sql(WhereBuilder& b, std::string_view id_column, std::string_view table, std::string text,
                     bool pattern) {
  // Player names follow the one name rule (headers/player_name.h): a pattern may also match
  // the player key.
  const char* function = !pattern ? kSqlContains : table == "players" ? kSqlPlayerPattern : kSqlPattern;
  if (table == "sites" && id_column.ends_with(".site_id")) {
    const std::string_view games = id_column.substr(0, id_column.size() - 8);
    // Each `?` has its own parameter, in the order of the SQL text (on_name first).
    const std::string on_name = std::string(function) + "(" + b.text(text) + ", name)";
    return site_condition_sql(games, on_name,
                              std::string(function) + "(" + b.text(std::move(text)) + ", " +
                                  db::site_name_sql(games) + ")");
  }
  if (table != "players")
    return std::string(id_column) + " IN (SELECT id FROM " + std::string(table) + " WHERE " + function + "(" +
           b.text(std::move(text)) + ", name))";
  // No index on the player columns since the header bitmaps took them over (issue 42): the
  // SQL route scans the games table, where naming the player index's segments (as before)
  // only cost time (`:or` of two players at 344k games: 0.29 s with them, 0.12 s without).
  return std::string(id_column) + " IN (" + player_ids_sql(b, std::move(text), pattern) + ")";
}

std::string player_ids_sql(WhereBuilder& b, std::string text, bool pattern) {
  return std::string("SELECT id FROM players WHERE ") + (pattern ? kSqlPlayerPattern : kSqlContains) + "(" +
         b.text(std::move(text)) + ", name)";
}

std::string site_condition_sql(std::string_view games_alias, const std::string& on_name,
                               const std::string& on_full_name) {
  const std::string g(games_alias);
  return "(CASE WHEN " + g + ".site_suffix IS NULL THEN " + g + ".site_id IN (SELECT id FROM sites WHERE " +
         on_name + ") ELSE " + on_full_name + " END)";
}

namespace {

std::string list_condition(std::vector<db::sqlite::Param>& params, const cql::List& match,
                           bool color_flipped, bool nested);

/// The SQL of a logical keyword over sub-match lists (`:and :or :xor :cond :not`); every
/// condition is 0 or 1, never NULL, so the combinations are plain arithmetic and logic.
/// Parameters are generated in text order. Empty when `item` is not one of them.
std::string logic_condition(std::vector<db::sqlite::Param>& params, const KeywordItem& item,
                            bool color_flipped) {
  const auto* args = std::get_if<cql::SubListArgs>(&item.args);
  if (!args || args->lists.empty()) return {};
  std::vector<std::string> parts;
  for (const cql::List& l : args->lists) parts.push_back(list_condition(params, l, color_flipped, true));
  auto join = [&](const char* op) {
    std::string out;
    for (const std::string& c : parts) out += (out.empty() ? "(" : std::string(op) + "(") + c + ")";
    return out;
  };
  switch (item.keyword) {
    case Keyword::And: return join(" AND ");
    case Keyword::Or: return join(" OR ");
    case Keyword::Xor: return "(" + join(" + ") + ") = 1";
    case Keyword::Not: return "NOT (" + parts[0] + ")";
    case Keyword::Cond: {
      // :cond (c1) (e1) (c2) (e2) ... [(default)]: the first matching clause decides.
      std::string out = "CASE";
      size_t i = 0;
      for (; i + 1 < parts.size(); i += 2) out += " WHEN (" + parts[i] + ") THEN (" + parts[i + 1] + ")";
      out += i < parts.size() ? " ELSE (" + parts[i] + ") END" : " ELSE 0 END";
      return out;
    }
    default: return {};
  }
}

/// The header conditions of `match` ANDed ("1" when none); a nested list's bare `:not`
/// negates it (the top-level one is applied by the search).
std::string list_condition(std::vector<db::sqlite::Param>& params, const cql::List& match,
                           bool color_flipped, bool nested) {
  WhereBuilder builder(params);
  for (const cql::KeywordItem* item : match.keywords()) {
    if (!(item->info().lists & cql::kInMatch)) continue;
    if (is_structural(item->keyword)) {
      std::string logic = logic_condition(params, *item, color_flipped);
      if (!logic.empty()) builder.add(logic);
      continue;
    }
    if (!add_condition(builder, *item, color_flipped))
      throw cql::CompileError(item->loc, "not yet supported: " + cql::keyword_spelling(item->keyword));
  }
  std::string where = builder.take();
  if (!nested) return where;
  if (where.empty()) where = "1";
  return match.negated ? "NOT (" + where + ")" : where;
}

}  // namespace

namespace {

/// `v` within the values a column can hold (kMinValue..kMaxValue).
int32_t clamp_value(int64_t v) { return int32_t(std::clamp<int64_t>(v, db::kMinValue, db::kMaxValue)); }

/// The values of `column` in the interval of `r` (kind Interval, no percentage or `end`:
/// interval_sql() has refused those).
db::ValueRange interval_range(db::HeaderColumn column, const cql::Range& r) {
  db::ValueRange v{column, db::kMinValue, db::kMaxValue};
  const int64_t lo = r.lo ? r.lo->value + (r.lo_strict ? 1 : 0) : int64_t(db::kMinValue);
  const int64_t hi = r.hi ? r.hi->value - (r.hi_strict ? 1 : 0) : int64_t(db::kMaxValue);
  if (lo > hi || lo > db::kMaxValue || hi < db::kMinValue) return {column, 1, 0};  // empty
  v.lo = clamp_value(lo);
  v.hi = clamp_value(hi);
  return v;
}

/// One side's Elo in `r` as elo_sql() decides it (a missing Elo counts as 0).
void add_elo_ranges(db::BitmapTerm& term, db::HeaderColumn column, const cql::Range& r) {
  switch (r.kind) {
    case cql::Range::Kind::Any:
      term.push_back({column, 1, db::kMaxValue});
      return;
    case cql::Range::Kind::Missing:
      term.push_back({column, db::kNoValue, db::kNoValue});
      term.push_back({column, 0, 0});
      return;
    case cql::Range::Kind::Interval:
      term.push_back(interval_range(column, r));
      if (r.contains(0)) term.push_back({column, db::kNoValue, db::kNoValue});
      return;
  }
}

/// The year in `r` as year_sql() decides it.
db::BitmapTerm year_term(const cql::Range& r) {
  constexpr db::HeaderColumn kYear = db::HeaderColumn::kYear;
  if (r.kind == cql::Range::Kind::Any) return {{kYear, db::kMinValue, db::kMaxValue}};
  if (r.kind == cql::Range::Kind::Missing) return {{kYear, db::kNoValue, db::kNoValue}};
  return {interval_range(kYear, r)};
}

/// Floor of a / 10000 (day keys are year * 10000 + month * 100 + day).
int64_t year_of_day_key(int64_t key) { return key >= 0 ? key / 10000 : -((-key + 9999) / 10000); }

/// The bitmap term of a top-level header keyword `item`, when the bitmaps can answer it:
/// true with `exact` when the term decides it alone, false when it has none. `:date`'s term
/// is the years its days can lie in (a superset: the SQL still decides the days).
bool bitmap_term(const KeywordItem& item, bool flipped, db::BitmapTerm& term, bool& exact) {
  using db::HeaderColumn;
  const HeaderColumn white = flipped ? HeaderColumn::kBlackElo : HeaderColumn::kWhiteElo;
  const HeaderColumn black = flipped ? HeaderColumn::kWhiteElo : HeaderColumn::kBlackElo;
  exact = true;
  switch (item.keyword) {
    case Keyword::Year:
      term = year_term(item.as<cql::CountArgs>().ranges.at(0));
      return true;
    case Keyword::Elo: {
      const cql::Range& r = item.as<cql::CountArgs>().ranges.at(0);
      add_elo_ranges(term, HeaderColumn::kWhiteElo, r);
      add_elo_ranges(term, HeaderColumn::kBlackElo, r);
      return true;
    }
    case Keyword::WhiteElo:
      add_elo_ranges(term, white, item.as<cql::CountArgs>().ranges.at(0));
      return true;
    case Keyword::BlackElo:
      add_elo_ranges(term, black, item.as<cql::CountArgs>().ranges.at(0));
      return true;
    case Keyword::Rating:
    case Keyword::WhiteRating:
    case Keyword::BlackRating: {
      const auto& a = item.as<cql::RatingArgs>();
      if (a.system != cql::RatingSystem::Elo) return false;
      if (item.keyword != Keyword::BlackRating) add_elo_ranges(term, item.keyword == Keyword::Rating ? HeaderColumn::kWhiteElo : white, a.range);
      if (item.keyword != Keyword::WhiteRating) add_elo_ranges(term, item.keyword == Keyword::Rating ? HeaderColumn::kBlackElo : black, a.range);
      return true;
    }
    case Keyword::Eco: {
      const auto& args = item.as<cql::EcoArgs>();
      constexpr HeaderColumn kEco = HeaderColumn::kOpeningEco;
      if (args.special == cql::Range::Kind::Any) term.push_back({kEco, db::kMinValue, db::kMaxValue});
      else if (args.special == cql::Range::Kind::Missing) term.push_back({kEco, db::kNoValue, db::kNoValue});
      else
        for (const cql::EcoRange& e : args.ranges) term.push_back({kEco, int32_t(e.first), int32_t(e.last)});
      return true;
    }
    case Keyword::Date: {
      const cql::DateRange& r = item.as<cql::DateArgs>().range;
      if (r.kind != cql::DateRange::Kind::Interval) return false;
      const DayKeyInterval days = day_key_interval(r);
      db::ValueRange years{HeaderColumn::kYear, db::kMinValue, db::kMaxValue};
      if (days.lo) years.lo = clamp_value(year_of_day_key(*days.lo));
      if (days.hi) years.hi = clamp_value(year_of_day_key(*days.hi));
      term.push_back(years);
      exact = false;
      return true;
    }
    default:
      return false;
  }
}

/// The player term of a top-level `:player`, `:whiteplayer` or `:blackplayer` (colours
/// swapped when `flipped`); false for other keywords.
bool player_term(const KeywordItem& item, bool flipped, PlayerTerm& term) {
  if (item.keyword != Keyword::Player && item.keyword != Keyword::WhitePlayer && item.keyword != Keyword::BlackPlayer)
    return false;
  const cql::TextPattern& p = item.as<cql::TextArgs>().patterns.at(0);
  WhereBuilder b(term.params);
  term.ids_sql = player_ids_sql(b, p.text, p.quoted);
  const bool white = item.keyword == Keyword::WhitePlayer, black = item.keyword == Keyword::BlackPlayer;
  term.white = item.keyword == Keyword::Player || (flipped ? black : white);
  term.black = item.keyword == Keyword::Player || (flipped ? white : black);
  return true;
}

/// The player term of a top-level `:or` whose every sub-list is one name keyword alone
/// (`(:or (:player "Carlsen") (:player "Anand"))`): their terms as alternatives of one.
bool or_of_player_terms(const KeywordItem& item, bool flipped, PlayerTerm& term) {
  const auto* args = std::get_if<cql::SubListArgs>(&item.args);
  if (item.keyword != Keyword::Or || !args || args->lists.empty()) return false;
  std::vector<PlayerTerm> terms;
  for (const cql::List& l : args->lists) {
    const std::vector<const KeywordItem*> items = l.keywords();
    if (l.elements.size() != 1 || items.size() != 1) return false;
    PlayerTerm t;
    if (!player_term(*items[0], flipped, t)) return false;
    terms.push_back(std::move(t));
  }
  term = std::move(terms[0]);
  for (size_t i = 1; i < terms.size(); ++i) term.alternatives.push_back(std::move(terms[i]));
  return true;
}

}  // namespace

HeaderFilter HeaderFilter::compile(const cql::List& match, bool color_flipped) {
  HeaderFilter filter;
  filter.where_ = list_condition(filter.params_, match, color_flipped, false);
  filter.needs_ = match_data_needs(match);
  // The same conditions again, item by item, for the header bitmaps: what they decide
  // exactly leaves the rest's SQL. Only the match list's own items: a logical keyword's
  // sub-lists stay SQL.
  std::vector<db::BitmapTerm> terms;
  std::vector<PlayerTerm> players;
  std::vector<db::sqlite::Param> rest_params;
  WhereBuilder rest(rest_params);
  for (const cql::KeywordItem* item : match.keywords()) {
    if (!(item->info().lists & cql::kInMatch)) continue;
    PlayerTerm player;
    if (is_structural(item->keyword) ? or_of_player_terms(*item, color_flipped, player)
                                     : player_term(*item, color_flipped, player)) {
      players.push_back(std::move(player));
      continue;
    }
    db::BitmapTerm term;
    bool exact = false;
    if (!is_structural(item->keyword) && bitmap_term(*item, color_flipped, term, exact)) {
      terms.push_back(std::move(term));
      if (exact) continue;
    }
    if (is_structural(item->keyword)) {
      std::string logic = logic_condition(rest_params, *item, color_flipped);
      if (!logic.empty()) rest.add(logic);
    } else {
      add_condition(rest, *item, color_flipped);
    }
  }
  if (!terms.empty() || !players.empty()) {
    filter.bitmap_terms_ = std::move(terms);
    filter.player_terms_ = std::move(players);
    filter.rest_where_ = rest.take();
    filter.rest_params_ = std::move(rest_params);
  } else {
    filter.rest_where_ = filter.where_;
    filter.rest_params_ = filter.params_;
  }
  return filter;
}

}  // namespace headers
