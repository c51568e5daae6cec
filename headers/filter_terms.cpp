#include "headers/filter_terms.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>

#include "db/game_header.h"
#include "db/sqlite_statement.h"
#include "headers/player_name.h"
#include "headers/where_builder.h"

namespace headers {

namespace {

/// The comparison of a term.
enum class Op { kEq, kContains, kGe, kLe, kGt, kLt };

/// Operator spellings, longest first so that ">=" is not read as ">".
constexpr std::pair<std::string_view, Op> kOps[] = {
    {">=", Op::kGe}, {"<=", Op::kLe}, {"~", Op::kContains},
    {"=", Op::kEq},  {">", Op::kGt},  {"<", Op::kLt},
};

/// One filter key: a row of the key table.
struct FilterKey {
  std::string_view name;    ///< as typed before the operator
  std::string_view syntax;  ///< operators and value, for help
  std::string_view help;    ///< what it selects
  /// Builds the condition; false with `error` for a value or operator it does not take.
  bool (*build)(const FilterKey& key, Op op, std::string_view value, HeaderCondition& c,
                std::string& error);
  std::string_view column;  ///< the games column the builder compares ("g.year", "g.white_id")
  std::string_view table;   ///< names: the table the column's ids point into ("players")
};

SqlParam number_param(int64_t v) {
  SqlParam p;
  p.number = v;
  return p;
}

SqlParam text_param(std::string_view v) {
  SqlParam p;
  p.is_text = true;
  p.text = std::string(v);
  return p;
}

std::optional<int64_t> parse_int(std::string_view s) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

/// A value `N`, `N..M`, `N..` or `..M` (bounds inclusive; a missing bound is open).
struct NumberRange {
  std::optional<int64_t> lo, hi;
};

bool parse_number_range(std::string_view value, NumberRange& r) {
  size_t dots = value.find("..");
  if (dots == std::string_view::npos) {
    r.lo = r.hi = parse_int(value);
    return r.lo.has_value();
  }
  std::string_view a = value.substr(0, dots), b = value.substr(dots + 2);
  if (a.empty() && b.empty()) return false;
  if (!a.empty() && !(r.lo = parse_int(a))) return false;
  if (!b.empty() && !(r.hi = parse_int(b))) return false;
  return !(r.lo && r.hi && *r.lo > *r.hi);
}

/// SQL comparing `column` with a number or range; appends the parameters.
bool number_sql(std::string_view column, Op op, std::string_view value, HeaderCondition& c,
                std::string& error) {
  NumberRange r;
  if (!parse_number_range(value, r) || (op != Op::kEq && r.lo != r.hi)) {
    if (op == Op::kEq && r.lo && r.hi && *r.lo > *r.hi)
      error = "the range " + std::string(value) + " runs backwards (write " + std::to_string(*r.hi) + ".." +
              std::to_string(*r.lo) + ")";
    else
      error = "expected a number" + std::string(op == Op::kEq ? " or a range N..M" : "");
    return false;
  }
  std::string col(column);
  switch (op) {
    case Op::kEq:
      if (r.lo && r.hi && *r.lo == *r.hi) {
        c.sql = col + " = ?";
        c.params.push_back(number_param(*r.lo));
      } else if (r.lo && r.hi) {
        c.sql = col + " BETWEEN ? AND ?";
        c.params.push_back(number_param(*r.lo));
        c.params.push_back(number_param(*r.hi));
      } else {
        c.sql = col + (r.lo ? " >= ?" : " <= ?");
        c.params.push_back(number_param(r.lo ? *r.lo : *r.hi));
      }
      return true;
    case Op::kGe:
      c.sql = col + " >= ?";
      break;
    case Op::kLe:
      c.sql = col + " <= ?";
      break;
    case Op::kGt:
      c.sql = col + " > ?";
      break;
    case Op::kLt:
      c.sql = col + " < ?";
      break;
    case Op::kContains:
      error = "'~' is for names";
      return false;
  }
  c.params.push_back(number_param(*r.lo));
  return true;
}

/// The values of a column that `op` `value` selects (number_sql() has accepted them).
db::ValueRange number_range(db::HeaderColumn column, Op op, std::string_view value) {
  NumberRange r;
  parse_number_range(value, r);
  int64_t lo = db::kMinValue, hi = db::kMaxValue;
  switch (op) {
    case Op::kEq:
      if (r.lo) lo = *r.lo;
      if (r.hi) hi = *r.hi;
      break;
    case Op::kGe: lo = *r.lo; break;
    case Op::kGt: lo = *r.lo + 1; break;
    case Op::kLe: hi = *r.lo; break;
    case Op::kLt: hi = *r.lo - 1; break;
    case Op::kContains: break;
  }
  if (lo > hi || lo > db::kMaxValue || hi < db::kMinValue) return {column, 1, 0};  // no game
  return {column, int32_t(std::max<int64_t>(lo, db::kMinValue)), int32_t(std::min<int64_t>(hi, db::kMaxValue))};
}

/// The header bitmap column of a games column, if it has one.
std::optional<db::HeaderColumn> bitmap_column(std::string_view column) {
  if (column == "g.year") return db::HeaderColumn::kYear;
  if (column == "g.white_elo") return db::HeaderColumn::kWhiteElo;
  if (column == "g.black_elo") return db::HeaderColumn::kBlackElo;
  return std::nullopt;
}

bool build_number(const FilterKey& key, Op op, std::string_view value, HeaderCondition& c,
                  std::string& error) {
  if (!number_sql(key.column, op, value, c, error)) return false;
  if (const std::optional<db::HeaderColumn> column = bitmap_column(key.column))
    c.bitmap = {{number_range(*column, op, value)}};
  return true;
}

/// Both players' Elo: the condition on white_elo AND on black_elo.
bool build_both_elo(const FilterKey&, Op op, std::string_view value, HeaderCondition& c,
                    std::string& error) {
  HeaderCondition w, b;
  if (!number_sql("g.white_elo", op, value, w, error)) return false;
  number_sql("g.black_elo", op, value, b, error);
  c.sql = "(" + w.sql + " AND " + b.sql + ")";
  c.params = w.params;
  c.params.insert(c.params.end(), b.params.begin(), b.params.end());
  c.bitmap = {{number_range(db::HeaderColumn::kWhiteElo, op, value)},
              {number_range(db::HeaderColumn::kBlackElo, op, value)}};
  return true;
}

/// Names (players, events, sites): case-insensitive substring.
bool build_name(const FilterKey& key, Op op, std::string_view value, HeaderCondition& c,
                std::string& error) {
  if (op != Op::kEq && op != Op::kContains) {
    error = "names take '=' or '~' (both: contains, ignoring case)";
    return false;
  }
  if (value.empty()) {
    error = "expected a name";
    return false;
  }
  WhereBuilder b(c.params);
  // Player names (issue 17 A, headers/player_name.h): the shell has removed any quotes, so
  // a value with a `*` or `?` wildcard is a pattern (as if quoted in a match list) that may
  // also match the player key; other values are substrings, like an unquoted `:player`.
  const bool pattern = key.table == "players" && !is_plain_name(value);
  if (key.table == "players") {  // also a term on the bitmaps' player columns
    PlayerTerm term;
    WhereBuilder ids(term.params);
    term.ids_sql = player_ids_sql(ids, std::string(value), pattern);
    term.white = key.column.empty() || key.column == "g.white_id";
    term.black = key.column.empty() || key.column == "g.black_id";
    c.players.push_back(std::move(term));
  }
  if (key.column.empty()) {  // `player`: either side
    std::string w = name_sql(b, "g.white_id", "players", std::string(value), pattern);
    c.sql = "(" + w + " OR " + name_sql(b, "g.black_id", "players", std::string(value), pattern) + ")";
    return true;
  }
  c.sql = name_sql(b, key.column, key.table, std::string(value), pattern);
  return true;
}

/// An ECO code or prefix ("B", "B2", "B20"), upper-cased and padded with `fill` to 3 chars.
bool eco_bound(std::string_view text, char fill, std::string& out) {
  if (text.empty() || text.size() > 3) return false;
  char letter = char(std::toupper(static_cast<unsigned char>(text[0])));
  if (letter < 'A' || letter > 'E') return false;
  out.assign(1, letter);
  for (char ch : text.substr(1)) {
    if (!std::isdigit(static_cast<unsigned char>(ch))) return false;
    out += ch;
  }
  out.resize(3, fill);
  return true;
}

bool build_eco(const FilterKey&, Op op, std::string_view value, HeaderCondition& c,
               std::string& error) {
  std::string lo, hi;
  size_t dots = value.find("..");
  bool ok = dots == std::string_view::npos
                ? eco_bound(value, '0', lo) && eco_bound(value, '9', hi)
                : eco_bound(value.substr(0, dots), '0', lo) &&
                      eco_bound(value.substr(dots + 2), '9', hi) && lo <= hi;
  if (!ok || op == Op::kContains || (op != Op::kEq && dots != std::string_view::npos)) {
    error = "expected an ECO code (A00..E99), a prefix (B, B2) or a range B20..B99";
    return false;
  }
  // The classified code (issue 17 A: game_openings, db/schema.h), not the tag as written.
  const char* kClassified = "g.id IN (SELECT game_id FROM game_openings WHERE ";
  // The same on the header bitmaps: codes as db::eco_key() numbers, classified games only.
  constexpr db::HeaderColumn kEco = db::HeaderColumn::kOpeningEco;
  const int32_t lo_key = db::eco_key(lo), hi_key = db::eco_key(hi);
  switch (op) {
    case Op::kEq: c.bitmap = {{{kEco, lo_key, hi_key}}}; break;
    case Op::kGe: c.bitmap = {{{kEco, lo_key, db::kMaxValue}}}; break;
    case Op::kGt: c.bitmap = {{{kEco, hi_key + 1, db::kMaxValue}}}; break;
    case Op::kLe: c.bitmap = {{{kEco, db::kMinValue, hi_key}}}; break;
    case Op::kLt: c.bitmap = {{{kEco, db::kMinValue, lo_key - 1}}}; break;
    case Op::kContains: break;
  }
  switch (op) {
    case Op::kEq:
      c.sql = kClassified + std::string("eco BETWEEN ? AND ?)");
      c.params = {text_param(lo), text_param(hi)};
      return true;
    case Op::kGe:
      c.sql = kClassified + std::string("eco >= ?)");
      c.params = {text_param(lo)};
      return true;
    case Op::kGt:
      c.sql = kClassified + std::string("eco > ?)");
      c.params = {text_param(hi)};
      return true;
    case Op::kLe:
      c.sql = kClassified + std::string("eco <= ?)");
      c.params = {text_param(hi)};
      return true;
    case Op::kLt:
      c.sql = kClassified + std::string("eco < ?)");
      c.params = {text_param(lo)};
      return true;
    case Op::kContains:
      break;
  }
  return false;
}

bool build_result(const FilterKey&, Op op, std::string_view value, HeaderCondition& c,
                  std::string& error) {
  std::optional<db::ResultCode> code;
  if (value == "1-0")
    code = db::ResultCode::kWhiteWins;
  else if (value == "0-1")
    code = db::ResultCode::kBlackWins;
  else if (value == "1/2-1/2" || value == "1/2" || value == "draw")
    code = db::ResultCode::kDraw;
  else if (value == "*")
    code = db::ResultCode::kUnknown;
  if (op != Op::kEq || !code) {
    error = "expected result=1-0, 0-1, 1/2-1/2 (or draw) or *";
    return false;
  }
  c.sql = "g.result = ?";
  c.params = {number_param(int64_t(*code))};
  return true;
}

// clang-format off
const FilterKey kKeys[] = {
    {"white",    "=NAME or ~NAME", "White's name contains NAME (ignoring case)", build_name, "g.white_id", "players"},
    {"black",    "=NAME or ~NAME", "Black's name contains NAME", build_name, "g.black_id", "players"},
    {"player",   "=NAME or ~NAME", "either player's name contains NAME; with * or ?, NAME is a pattern on the name or its player key (Kasparov, G*)", build_name, "", "players"},
    {"event",    "~TEXT or =TEXT", "the event's name contains TEXT", build_name, "g.event_id", "events"},
    {"site",     "~TEXT or =TEXT", "the site's name contains TEXT", build_name, "g.site_id", "sites"},
    {"elo",      ">=N <=N >N <N =N =N..M", "both players' Elo (games without both Elos fail)", build_both_elo, "", ""},
    {"whiteelo", ">=N ... =N..M", "White's Elo", build_number, "g.white_elo", ""},
    {"blackelo", ">=N ... =N..M", "Black's Elo", build_number, "g.black_elo", ""},
    {"year",     "=N =N..M =N.. >=N ...", "the year of the game's date", build_number, "g.year", ""},
    {"eco",      "=B20 =B2 =B20..B99 >=B20 ...", "the classified ECO code (the opening table, else the ECO tag; a prefix means all its codes)", build_eco, "", ""},
    {"result",   "=1-0 =0-1 =1/2-1/2 =draw =*", "the game's result", build_result, "", ""},
    {"plies",    "=N..M >=N ...", "the number of main-line plies (half-moves)", build_number, "g.plies", ""},
    {"id",       "=N..M >=N ...", "the game id", build_number, "g.id", ""},
};
// clang-format on

}  // namespace

bool parse_filter_term(std::string_view term, HeaderCondition& condition, std::string& error) {
  size_t key_end = 0;
  while (key_end < term.size() && std::isalpha(static_cast<unsigned char>(term[key_end])))
    ++key_end;
  std::string key_name(term.substr(0, key_end));
  std::transform(key_name.begin(), key_name.end(), key_name.begin(),
                 [](unsigned char ch) { return char(std::tolower(ch)); });
  const FilterKey* key = nullptr;
  for (const FilterKey& k : kKeys)
    if (k.name == key_name) key = &k;
  if (!key) {
    error = "'" + std::string(term) + "': unknown key '" + key_name + "' (keys:";
    for (const FilterKey& k : kKeys) error += " " + std::string(k.name);
    error += ")";
    return false;
  }
  std::string_view rest = term.substr(key_end);
  for (const auto& [spelling, op] : kOps) {
    if (rest.substr(0, spelling.size()) != spelling) continue;
    std::string message;
    if (!key->build(*key, op, rest.substr(spelling.size()), condition, message)) {
      error = "'" + std::string(term) + "': " + message;
      return false;
    }
    return true;
  }
  error = "'" + std::string(term) + "': expected an operator after '" + key_name + "' (" +
          std::string(key->syntax) + ")";
  return false;
}

std::string filter_key_help() {
  std::string out = "  keys (several terms must all hold):\n";
  for (const FilterKey& k : kKeys) {
    std::string head = "    " + std::string(k.name) + std::string(k.syntax);
    if (head.size() < 38) head.resize(38, ' ');
    out += head + "  " + std::string(k.help) + '\n';
  }
  out += "  e.g. filter player=carlsen elo>=2700 year=2010..2015 eco=B90..B99 result=1-0\n";
  return out;
}

std::optional<HeaderFilter> compile_filter_terms(const std::vector<std::string>& terms, std::string& error) {
  std::string where, rest;
  std::vector<SqlParam> params, rest_params;
  std::vector<db::BitmapTerm> bitmap;
  std::vector<PlayerTerm> players;
  for (const std::string& term : terms) {
    HeaderCondition c;
    if (!parse_filter_term(term, c, error)) return std::nullopt;
    where += (where.empty() ? "(" : " AND (") + c.sql + ")";
    params.insert(params.end(), c.params.begin(), c.params.end());
    if (!c.bitmap.empty() || !c.players.empty()) {  // decided by the header bitmaps when the database has them
      bitmap.insert(bitmap.end(), c.bitmap.begin(), c.bitmap.end());
      players.insert(players.end(), c.players.begin(), c.players.end());
      continue;
    }
    rest += (rest.empty() ? "(" : " AND (") + c.sql + ")";
    rest_params.insert(rest_params.end(), c.params.begin(), c.params.end());
  }
  if (bitmap.empty() && players.empty()) return HeaderFilter::from_where(std::move(where), std::move(params));
  return HeaderFilter::from_parts(std::move(where), std::move(params), std::move(bitmap), std::move(rest),
                                  std::move(rest_params), std::move(players));
}

}  // namespace headers
