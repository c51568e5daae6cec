// Match-list keywords of issue 17 B -> SQL over `games g` (see match_keywords.h and
// SPEC-NOTES "Match-list keywords (issue 17 B)"). Tag values are read with a lookup in the
// `tags` table by game id (its primary key starts with game_id, so each lookup reads only
// that game's few tags); tag names compare ignoring case. Every condition is 0 or 1, never
// NULL, so the logical keywords may combine and negate it.
#include "headers/match_keywords.h"

#include <sqlite3.h>

#include <string>
#include <string_view>
#include <vector>

#include "cql/error.h"
#include "cql/keywords.h"
#include "db/game_markers.h"
#include "db/site_name.h"
#include "db/sqlite_db.h"
#include "headers/header_date.h"
#include "headers/header_sql.h"
#include "headers/match_values.h"

namespace headers {

namespace {

using cql::Keyword;
using cql::KeywordItem;
using cql::Range;

/// The value of tag `name` of game g (NULL when the game has no such tag). `name` is a
/// constant of this file, never user text.
std::string tag_sql(const std::string& name) {
  return "(SELECT t.value FROM tags t WHERE t.game_id = g.id AND t.name = '" + name +
         "' COLLATE NOCASE LIMIT 1)";
}

constexpr const char* kEventName = "(SELECT e.name FROM events e WHERE e.id = g.event_id)";
/// The whole site name, prefix and suffix (db/site_name.h).
const std::string kSiteName = db::site_name_sql("g");
constexpr const char* kRoundNumber =
    "(CASE WHEN g.round GLOB '[0-9]*' THEN CAST(g.round AS INTEGER) ELSE 0 END)";

/// A value where 0 means "none": `*` = not 0, `-` = 0, an interval as written (0 included
/// when the interval contains it, as :elo does).
std::string zero_is_none_sql(WhereBuilder& b, const std::string& expr, const Range& r,
                             const KeywordItem& item) {
  if (r.kind == Range::Kind::Any) return expr + " > 0";
  if (r.kind == Range::Kind::Missing) return expr + " = 0";
  return interval_sql(b, expr, r, item);
}

/// The tag name suffix of a rating system other than Elo ("WhiteDWZ").
const char* rating_tag(cql::RatingSystem s) {
  switch (s) {
    case cql::RatingSystem::Elo: return "Elo";
    case cql::RatingSystem::Dwz: return "DWZ";
    case cql::RatingSystem::Ecf: return "ECF";
    case cql::RatingSystem::Acf: return "ACF";
    case cql::RatingSystem::Uscf: return "USCF";
    case cql::RatingSystem::Rapid: return "Rapid";
    case cql::RatingSystem::Blitz: return "Blitz";
    case cql::RatingSystem::Iccf: return "ICCF";
    case cql::RatingSystem::Edo: return "Edo";
  }
  return "Elo";
}

/// One side's rating in system `s` as an integer, 0 = none. `side` is "white" or "black"
/// (already swapped for a colour flip).
std::string rating_sql(const std::string& side, cql::RatingSystem s) {
  if (s == cql::RatingSystem::Elo) return "IFNULL(g." + side + "_elo, 0)";
  const std::string tag = (side == "white" ? "White" : "Black") + std::string(rating_tag(s));
  return "MAX(0, IFNULL(CAST(" + tag_sql(tag) + " AS INTEGER), 0))";
}

/// True when side `side` ("White"/"Black") is an engine: [WhiteType] starts with "program"
/// or [WhiteTitle] is lichess's "BOT".
std::string computer_sql(const std::string& side) {
  return "(IFNULL(" + tag_sql(side + "Type") + ", '') LIKE 'program%' OR IFNULL(" + tag_sql(side + "Title") +
         ", '') LIKE 'bot')";
}

/// The text argument condition: unquoted = substring ignoring case, quoted = pattern.
std::string text_sql(WhereBuilder& b, const cql::TextPattern& p, const std::string& value) {
  return std::string(p.quoted ? kSqlPattern : kSqlContains) + "(" + b.text(p.text) + ", " + value + ")";
}

template <class E>
std::string code_list(WhereBuilder& b, const std::vector<E>& values) {
  std::string out;
  for (E v : values) out += (out.empty() ? "" : ", ") + b.number(int64_t(v));
  return out;
}

std::string eventdate_sql(WhereBuilder& b, const cql::DateRange& r) {
  const std::string v = tag_sql("EventDate");
  const std::string first = "cqldb_date_first(" + v + ")";
  if (r.kind == cql::DateRange::Kind::Any) return first + " IS NOT NULL";
  if (r.kind == cql::DateRange::Kind::Missing) return first + " IS NULL";
  const DayKeyInterval days = day_key_interval(r);
  std::string sql = first + " IS NOT NULL";
  if (days.lo) sql += " AND " + first + (days.lo_strict ? " > " : " >= ") + b.number(*days.lo);
  if (days.hi)
    sql += " AND cqldb_date_last(" + v + ")" + (days.hi_strict ? " < " : " <= ") + b.number(*days.hi);
  return sql;
}

/// FIDE category of each event (name, site, year) from the mean of its rated players'
/// Elo (each player's highest Elo in the event): category n covers 2251 + 25(n-1) ..
/// 2275 + 25(n-1); events below 2251 or without rated players have none (0).
/// The site is its `sites` id with its suffix ('' for none): one key per site name, as a
/// name is cut the same way in every game of a database (db/site_name.h).
constexpr const char* kEventCategories =
    "SELECT event_id, site_id, suffix, year, "
    "CAST((ROUND(AVG(r)) - 2251) / 25 AS INTEGER) + 1 AS category FROM ("
    "SELECT event_id, site_id, suffix, year, p, MAX(elo) AS r FROM ("
    "SELECT event_id, site_id, IFNULL(site_suffix, '') AS suffix, IFNULL(year, 0) AS year, "
    "white_id AS p, white_elo AS elo FROM games NOT INDEXED WHERE white_elo IS NOT NULL UNION ALL "
    "SELECT event_id, site_id, IFNULL(site_suffix, ''), IFNULL(year, 0), black_id, black_elo "
    "FROM games NOT INDEXED WHERE black_elo IS NOT NULL) GROUP BY event_id, site_id, suffix, year, p) "
    "GROUP BY event_id, site_id, suffix, year HAVING ROUND(AVG(r)) >= 2251";

std::string eventcategory_sql(WhereBuilder& b, const Range& r, const KeywordItem& item) {
  const std::string key = "(g.event_id, g.site_id, IFNULL(g.site_suffix, ''), IFNULL(g.year, 0))";
  const std::string events = std::string("SELECT event_id, site_id, suffix, year FROM (") + kEventCategories + ")";
  if (r.kind == Range::Kind::Any) return key + " IN (" + events + ")";
  if (r.kind == Range::Kind::Missing) return key + " NOT IN (" + events + ")";
  // Category 0 (none) is every event missing from the table.
  if (r.contains(0)) return key + " NOT IN (" + events + " WHERE NOT (" + interval_sql(b, "category", r, item) + "))";
  return key + " IN (" + events + " WHERE " + interval_sql(b, "category", r, item) + ")";
}

/// The game's import-log warnings whose kind (the reason's text before ':') is one of
/// `kinds` (quoted SQL list), as a condition; all warnings when `kinds` is empty.
std::string warning_sql(const std::string& kinds) {
  std::string sql =
      "(g.file_id, g.ordinal) IN (SELECT l.file_id, l.ordinal FROM import_log l WHERE l.kind = 'warning'";
  if (!kinds.empty()) sql += " AND substr(l.reason, 1, instr(l.reason, ':') - 1) IN (" + kinds + ")";
  return sql + ")";
}

/// :error: None = no import warning; the decoding errors of the page mapped onto the import
/// log's warning kinds (import/pgn_diagnostic.cpp issue_name()).
std::string error_sql(const cql::DecodeErrorArgs& args) {
  std::string out;
  for (cql::DecodeError e : args.values) {
    std::string one;
    switch (e) {
      case cql::DecodeError::None: one = "NOT " + warning_sql(""); break;
      case cql::DecodeError::IllegalStartPosition: one = warning_sql("'castling rights dropped'"); break;
      case cql::DecodeError::CannotDecodeMove:
        one = warning_sql("'unexpected character', 'bad NAG', 'unknown symbol', 'non-standard token'");
        break;
      case cql::DecodeError::UnexpectedEndOfStream:
        one = warning_sql("'unterminated comment', 'missing result', 'unbalanced parenthesis'");
        break;
      case cql::DecodeError::GameDataCorrupted:
        one = warning_sql("'control bytes', 'tag syntax', 'blank line in tags', "
                          "'bracket line without a tag', 'text after result'");
        break;
      case cql::DecodeError::DecodingFailed:
      case cql::DecodeError::ChecksumError:
        one = "0";  // ChessBase decoding only; a PGN import never has them
        break;
    }
    out += (out.empty() ? "(" : " OR (") + one + ")";
  }
  return out.empty() ? "0" : out;
}

std::string marker_sql(WhereBuilder& b, const cql::CodeListArgs& args, const KeywordItem& item) {
  std::string sql = "g.id IN (SELECT m.game_id FROM markers m";
  if (args.codes.empty()) return sql + ")";
  std::string list;
  for (const std::string& code : args.codes) {
    if (code.size() != 1 || db::kGameMarkers.find(code[0]) == std::string_view::npos)
      throw cql::CompileError(item.loc, "unknown game marker '" + code + "' (one of " + std::string(db::kGameMarkers) + ")");
    list += (list.empty() ? "" : ", ") + b.text(code);
  }
  return sql + " WHERE m.marker IN (" + list + "))";
}

std::string comment_sql(WhereBuilder& b, const cql::TextPattern& p) {
  std::string sql = "g.id IN (SELECT c.rowid FROM comment_text c WHERE ";
  // LIKE on a trigram FTS5 table is answered from its index (ASCII case ignored).
  for (const std::string& run : comment_literal_runs(p.text)) sql += "c.text LIKE " + b.text("%" + run + "%") + " AND ";
  return sql + "cqldb_comment(" + b.text(p.text) + ", c.text))";
}

/// :goodgame, the page's definition (CQL-Match-List "goodgame"). Decision: a game whose
/// time mode is unknown counts as normal (most databases have no TimeControl tags), and
/// the titles are read from [WhiteTitle]/[BlackTitle].
std::string goodgame_sql() {
  auto title = [](const char* side) {
    return "UPPER(IFNULL(" + tag_sql(std::string(side) + "Title") + ", '')) IN ('IM','GM','WIM','WGM','CIM','CGM')";
  };
  auto rated = [](cql::RatingSystem s, int min) {
    const std::string m = std::to_string(min);
    return "(" + rating_sql("white", s) + " >= " + m + " OR " + rating_sql("black", s) + " >= " + m + ")";
  };
  using R = cql::RatingSystem;
  // Cheap column tests first: SQLite stops evaluating AND / OR early.
  return "g.plies >= 16 AND (g.result != 3 OR g.plies >= 40) AND (" + rated(R::Elo, 2350) + " OR " +
         title("White") + " OR " + title("Black") + " OR " + rated(R::Dwz, 2350) + " OR " + rated(R::Acf, 2350) +
         " OR " + rated(R::Ecf, 220) + " OR " + rated(R::Iccf, 2350) + " OR " + rated(R::Uscf, 2375) +
         ") AND cqldb_timemode(" + tag_sql("TimeControl") + ", " + kEventName + ") IN (" +
         std::to_string(int(cql::TimeMode::Unknown)) + ", " + std::to_string(int(cql::TimeMode::Normal)) + ", " +
         std::to_string(int(cql::TimeMode::Correspondence)) + ") AND cqldb_eventtype(" + tag_sql("EventType") +
         ", " + kEventName + ") != " + std::to_string(int(cql::EventType::Simultaneous));
}

}  // namespace

bool add_match_keyword(WhereBuilder& b, const KeywordItem& item, bool flipped) {
  const std::string white = flipped ? "black" : "white";  // the `:white...` side
  const std::string black = flipped ? "white" : "black";
  const std::string White = flipped ? "Black" : "White";
  const std::string Black = flipped ? "White" : "Black";
  switch (item.keyword) {
    case Keyword::Annotator:
      b.add(text_sql(b, item.as<cql::TextArgs>().patterns.at(0), "IFNULL(" + tag_sql("Annotator") + ", '')"));
      return true;
    case Keyword::Termination: {
      std::string list = code_list(b, item.as<cql::TerminationArgs>().values);
      b.add("cqldb_termination(" + tag_sql("Termination") + ") IN (" + list + ")");
      return true;
    }
    case Keyword::TimeMode: {
      std::string list = code_list(b, item.as<cql::TimeModeArgs>().values);
      b.add("cqldb_timemode(" + tag_sql("TimeControl") + ", " + kEventName + ") IN (" + list + ")");
      return true;
    }
    case Keyword::EventType: {
      std::string list = code_list(b, item.as<cql::EventTypeArgs>().values);
      b.add("cqldb_eventtype(" + tag_sql("EventType") + ", " + kEventName + ") IN (" + list + ")");
      return true;
    }
    case Keyword::EventMode: {
      std::string list = code_list(b, item.as<cql::EventModeArgs>().values);
      b.add("cqldb_eventmode(" + tag_sql("Mode") + ", " + kSiteName + ") IN (" + list + ")");
      return true;
    }
    case Keyword::EventDate:
      b.add(eventdate_sql(b, item.as<cql::DateArgs>().range));
      return true;
    case Keyword::EventCountry: {
      std::vector<std::string> codes;
      for (const std::string& code : item.as<cql::CodeListArgs>().codes) {
        std::optional<std::string> ioc = ioc_country(code);
        if (!ioc) throw cql::CompileError(item.loc, "unknown country code '" + code + "' (IOC, ISO 3166 or UNK)");
        codes.push_back(*ioc);
      }
      // The list twice, each `?` with its own parameter in the order of the SQL text.
      auto list = [&] {
        std::string out;
        for (const std::string& code : codes) out += (out.empty() ? "" : ", ") + b.text(code);
        return out;
      };
      const std::string on_name = "cqldb_site_country(name) IN (" + list() + ")";
      b.add(site_condition_sql("g", on_name, "cqldb_site_country(" + kSiteName + ") IN (" + list() + ")"));
      return true;
    }
    case Keyword::EventCategory:
      b.add(eventcategory_sql(b, item.as<cql::CountArgs>().ranges.at(0), item));
      return true;
    case Keyword::Subround: {
      const Range& r = item.as<cql::CountArgs>().ranges.at(0);
      const std::string sub = "cqldb_subround(g.round)";
      // Games without a round specification never match (the page).
      std::string cond = r.kind == Range::Kind::Any       ? sub + " > 0"
                         : r.kind == Range::Kind::Missing ? sub + " = 0"
                                                          : interval_sql(b, sub, r, item);
      b.add(std::string(kRoundNumber) + " > 0 AND (" + cond + ")");
      return true;
    }
    case Keyword::Tag: {
      const auto& p = item.as<cql::TextArgs>().patterns;
      std::string sql = "EXISTS (SELECT 1 FROM tags t WHERE t.game_id = g.id";
      if (p.at(0).quoted || p.at(0).text != "*") sql += " AND t.name = " + b.text(p.at(0).text) + " COLLATE NOCASE";
      if (p.size() > 1) sql += " AND " + text_sql(b, p[1], "t.value");
      b.add(sql + ")");
      return true;
    }
    case Keyword::WhiteId:
    case Keyword::BlackId: {
      const std::string& side = item.keyword == Keyword::WhiteId ? White : Black;
      b.add("TRIM(IFNULL(" + tag_sql(side + "FideId") + ", '')) = " + b.text(item.as<cql::TextArgs>().patterns.at(0).text));
      return true;
    }
    case Keyword::IsComputer: b.add(computer_sql("White") + " OR " + computer_sql("Black")); return true;
    case Keyword::IsHuman: b.add("NOT " + computer_sql("White") + " OR NOT " + computer_sql("Black")); return true;
    case Keyword::WhiteIsComputer: b.add(computer_sql(White)); return true;
    case Keyword::BlackIsComputer: b.add(computer_sql(Black)); return true;
    case Keyword::WhiteIsHuman: b.add("NOT " + computer_sql(White)); return true;
    case Keyword::BlackIsHuman: b.add("NOT " + computer_sql(Black)); return true;
    case Keyword::Rating:
    case Keyword::WhiteRating:
    case Keyword::BlackRating: {
      const auto& a = item.as<cql::RatingArgs>();
      std::string sql;
      if (item.keyword != Keyword::BlackRating)
        sql = "(" + zero_is_none_sql(b, rating_sql(item.keyword == Keyword::Rating ? "white" : white, a.system), a.range, item) + ")";
      if (item.keyword != Keyword::WhiteRating)
        sql += (sql.empty() ? "(" : " OR (") +
               zero_is_none_sql(b, rating_sql(item.keyword == Keyword::Rating ? "black" : black, a.system), a.range, item) + ")";
      b.add(sql);
      return true;
    }
    case Keyword::RatingDifference:
    case Keyword::AverageRating:
    case Keyword::AverageRatingStar: {
      const auto& a = item.as<cql::RatingArgs>();
      const std::string w = rating_sql("white", a.system), bl = rating_sql("black", a.system);
      const std::string both = "(" + w + " > 0 AND " + bl + " > 0)";
      if (item.keyword == Keyword::AverageRating) {
        const std::string avg = "(CASE WHEN " + w + " > 0 AND " + bl + " > 0 THEN (" + w + " + " + bl +
                                ") / 2.0 ELSE " + w + " + " + bl + " END)";
        b.add(zero_is_none_sql(b, avg, a.range, item));
        return true;
      }
      if (a.range.kind != Range::Kind::Interval) {
        b.add(a.range.kind == Range::Kind::Any ? both : "NOT " + both);
        return true;
      }
      const std::string value = item.keyword == Keyword::RatingDifference ? "ABS(" + w + " - " + bl + ")"
                                                                          : "(" + w + " + " + bl + ") / 2.0";
      b.add(both + " AND " + interval_sql(b, value, a.range, item));
      return true;
    }
    case Keyword::HasComments: b.add("(g.flags & 1) != 0"); return true;
    case Keyword::HasAnnotation: b.add("(g.flags & 2) != 0"); return true;
    case Keyword::HasVariations: b.add("(g.flags & 4) != 0"); return true;
    case Keyword::Comment: b.add(comment_sql(b, item.as<cql::TextArgs>().patterns.at(0))); return true;
    case Keyword::HasMarker: b.add(marker_sql(b, item.as<cql::CodeListArgs>(), item)); return true;
    case Keyword::HasSpecialMarker:
      // cqldb never deletes, changes or session-adds games, and rejects games with illegal
      // moves at import: no stored game carries a special marker.
      b.add("0");
      return true;
    case Keyword::Error: b.add(error_sql(item.as<cql::DecodeErrorArgs>())); return true;
    case Keyword::GoodGame: b.add(goodgame_sql()); return true;
    default:
      return false;
  }
}

uint32_t match_data_needs(const cql::List& match) {
  uint32_t needs = 0;
  for (const KeywordItem* item : match.keywords()) {
    switch (item->keyword) {
      case Keyword::HasComments:
      case Keyword::HasAnnotation:
      case Keyword::HasVariations:
      case Keyword::Comment:
        needs |= kNeedsGameData;
        break;
      default:
        break;
    }
    if (const auto* sub = std::get_if<cql::SubListArgs>(&item->args))
      for (const cql::List& l : sub->lists) needs |= match_data_needs(l);
  }
  return needs;
}

namespace {

std::string_view arg_text(sqlite3_value* v) {
  const auto* p = reinterpret_cast<const char*>(sqlite3_value_text(v));
  return p ? std::string_view(p, size_t(sqlite3_value_bytes(v))) : std::string_view();
}

void timemode_fn(sqlite3_context* c, int, sqlite3_value** a) {
  sqlite3_result_int(c, int(classify_time_mode(arg_text(a[0]), arg_text(a[1]))));
}
void termination_fn(sqlite3_context* c, int, sqlite3_value** a) {
  sqlite3_result_int(c, int(classify_termination(arg_text(a[0]))));
}
void eventtype_fn(sqlite3_context* c, int, sqlite3_value** a) {
  sqlite3_result_int(c, int(classify_event_type(arg_text(a[0]), arg_text(a[1]))));
}
void eventmode_fn(sqlite3_context* c, int, sqlite3_value** a) {
  sqlite3_result_int(c, int(classify_event_mode(arg_text(a[0]), arg_text(a[1]))));
}
void site_country_fn(sqlite3_context* c, int, sqlite3_value** a) {
  const std::string code = site_country(arg_text(a[0]));
  sqlite3_result_text(c, code.data(), int(code.size()), SQLITE_TRANSIENT);
}
void subround_fn(sqlite3_context* c, int, sqlite3_value** a) {
  sqlite3_result_int64(c, subround_number(arg_text(a[0])));
}
void date_first_fn(sqlite3_context* c, int, sqlite3_value** a) {
  if (auto k = pgn_date_first_key(arg_text(a[0]))) sqlite3_result_int64(c, *k);
  else sqlite3_result_null(c);
}
void date_last_fn(sqlite3_context* c, int, sqlite3_value** a) {
  if (auto k = pgn_date_last_key(arg_text(a[0]))) sqlite3_result_int64(c, *k);
  else sqlite3_result_null(c);
}
void comment_fn(sqlite3_context* c, int, sqlite3_value** a) {
  sqlite3_result_int(c, comment_matches(arg_text(a[0]), arg_text(a[1])) ? 1 : 0);
}

void create(sqlite3* db, const char* name, int args, void (*fn)(sqlite3_context*, int, sqlite3_value**)) {
  const int rc = sqlite3_create_function_v2(db, name, args, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nullptr, fn,
                                            nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) throw db::sqlite::make_error(db, "sqlite3_create_function_v2", rc);
}

}  // namespace

void register_match_functions(sqlite3* db) {
  create(db, "cqldb_timemode", 2, timemode_fn);
  create(db, "cqldb_termination", 1, termination_fn);
  create(db, "cqldb_eventtype", 2, eventtype_fn);
  create(db, "cqldb_eventmode", 2, eventmode_fn);
  create(db, "cqldb_site_country", 1, site_country_fn);
  create(db, "cqldb_subround", 1, subround_fn);
  create(db, "cqldb_date_first", 1, date_first_fn);
  create(db, "cqldb_date_last", 1, date_last_fn);
  create(db, "cqldb_comment", 2, comment_fn);
}

}  // namespace headers
