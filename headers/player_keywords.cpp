#include "headers/player_keywords.h"

#include <array>
#include <cctype>
#include <string>
#include <string_view>

#include "cql/error.h"
#include "cql/keywords.h"

namespace headers {

namespace {

using cql::Keyword;

/// Which side(s) a keyword asks about.
enum class Side { kEither, kWhite, kBlack };

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = char(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

/// Two-letter ISO 3166 codes of common chess federations -> FIDE codes.
std::string fide_country(const std::string& code) {
  static const std::array<std::pair<const char*, const char*>, 48> kIso = {{
      {"DE", "GER"}, {"NL", "NED"}, {"RU", "RUS"}, {"US", "USA"}, {"GB", "ENG"}, {"FR", "FRA"},
      {"ES", "ESP"}, {"IT", "ITA"}, {"IN", "IND"}, {"CN", "CHN"}, {"UA", "UKR"}, {"AM", "ARM"},
      {"AZ", "AZE"}, {"HU", "HUN"}, {"PL", "POL"}, {"CZ", "CZE"}, {"NO", "NOR"}, {"SE", "SWE"},
      {"DK", "DEN"}, {"CH", "SUI"}, {"AT", "AUT"}, {"BG", "BUL"}, {"RO", "ROU"}, {"GR", "GRE"},
      {"IL", "ISR"}, {"GE", "GEO"}, {"BY", "BLR"}, {"LV", "LAT"}, {"LT", "LTU"}, {"EE", "EST"},
      {"FI", "FIN"}, {"IS", "ISL"}, {"CA", "CAN"}, {"BR", "BRA"}, {"AR", "ARG"}, {"CU", "CUB"},
      {"PE", "PER"}, {"VN", "VIE"}, {"PH", "PHI"}, {"IR", "IRI"}, {"EG", "EGY"}, {"KZ", "KAZ"},
      {"UZ", "UZB"}, {"RS", "SRB"}, {"HR", "CRO"}, {"SI", "SLO"}, {"SK", "SVK"}, {"BE", "BEL"},
  }};
  for (const auto& [iso, fide] : kIso)
    if (code == iso) return fide;
  return code;
}

/// The stored title of a title argument; "" for None; throws for an unknown title.
std::string title_code(const cql::KeywordItem& item, const std::string& written) {
  const std::string t = upper(written);
  if (t == "NONE") return "";
  if (t == "PROGRAM" || t == "COMPUTER" || t == "BOT") return "BOT";
  for (const char* known : {"GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM", "NM", "LM", "CGM", "CIM", "HGM"})
    if (t == known) return t;
  throw cql::CompileError(item.loc, "unknown title '" + written +
                                        "' (expected GM IM FM CM WGM WIM WFM WCM NM LM CGM CIM HGM "
                                        "BOT program None)");
}

/// "g.id IN (SELECT game_id FROM game_players WHERE <side> AND <condition>)".
std::string side_has(Side side, const std::string& condition) {
  std::string where = side == Side::kWhite ? "side = 0 AND " : side == Side::kBlack ? "side = 1 AND " : "";
  return "g.id IN (SELECT game_id FROM game_players WHERE " + where + condition + ")";
}

/// A side lacks the value `column` (no row, or NULL there); for kEither: either side does.
std::string side_lacks(Side side, const std::string& column) {
  if (side == Side::kEither)
    return "(" + side_lacks(Side::kWhite, column) + " OR " + side_lacks(Side::kBlack, column) + ")";
  return "NOT " + side_has(side, column + " IS NOT NULL");
}

std::string year_range(WhereBuilder& b, Side side, const char* column, const cql::Range& r,
                       const cql::KeywordItem& item) {
  if (r.kind == cql::Range::Kind::Any) return side_has(side, std::string(column) + " IS NOT NULL");
  if (r.kind == cql::Range::Kind::Missing) return side_lacks(side, column);
  if (r.percent || (r.lo && r.lo->from_end) || (r.hi && r.hi->from_end))
    throw cql::CompileError(item.loc, "percentages and 'end' are not allowed for " +
                                          cql::keyword_spelling(item.keyword));
  std::string sql = std::string(column) + " IS NOT NULL";
  if (r.lo) sql += std::string(" AND ") + column + (r.lo_strict ? " > " : " >= ") + b.number(r.lo->value);
  if (r.hi) sql += std::string(" AND ") + column + (r.hi_strict ? " < " : " <= ") + b.number(r.hi->value);
  return side_has(side, sql);
}

}  // namespace

bool add_player_data_condition(WhereBuilder& b, const cql::KeywordItem& item, bool flipped) {
  const Side white = flipped ? Side::kBlack : Side::kWhite;
  const Side black = flipped ? Side::kWhite : Side::kBlack;
  Side side = Side::kEither;
  enum { kCountry, kGender, kBirth, kDeath, kTitle } what;
  switch (item.keyword) {
    case Keyword::Country: what = kCountry; break;
    case Keyword::WhiteCountry: what = kCountry; side = white; break;
    case Keyword::BlackCountry: what = kCountry; side = black; break;
    case Keyword::Gender: what = kGender; break;
    case Keyword::WhiteGender: what = kGender; side = white; break;
    case Keyword::BlackGender: what = kGender; side = black; break;
    case Keyword::BirthYear: what = kBirth; break;
    case Keyword::WhiteBirthYear: what = kBirth; side = white; break;
    case Keyword::BlackBirthYear: what = kBirth; side = black; break;
    case Keyword::DeathYear: what = kDeath; break;
    case Keyword::WhiteDeathYear: what = kDeath; side = white; break;
    case Keyword::BlackDeathYear: what = kDeath; side = black; break;
    case Keyword::Title: what = kTitle; break;
    case Keyword::WhiteTitle: what = kTitle; side = white; break;
    case Keyword::BlackTitle: what = kTitle; side = black; break;
    default: return false;
  }
  std::string sql;
  auto either = [&](const std::string& part) { sql += (sql.empty() ? "" : " OR ") + part; };
  switch (what) {
    case kCountry: {
      std::string codes;
      for (const std::string& written : item.as<cql::CodeListArgs>().codes) {
        const std::string code = upper(written);
        if (code == "UNK" || code == "XX" || code == "0") {
          either(side_lacks(side, "country"));
          continue;
        }
        codes += (codes.empty() ? "" : ", ") + b.text(fide_country(code));
      }
      if (!codes.empty()) either(side_has(side, "country IN (" + codes + ")"));
      break;
    }
    case kGender:
      for (cql::Gender g : item.as<cql::GenderArgs>().values) {
        if (g == cql::Gender::Unknown) either(side_lacks(side, "sex"));
        else either(side_has(side, std::string("sex = '") + (g == cql::Gender::Female ? "f" : "m") + "'"));
      }
      break;
    case kBirth:
    case kDeath:
      sql = year_range(b, side, what == kBirth ? "birth" : "death",
                       item.as<cql::CountArgs>().ranges.at(0), item);
      break;
    case kTitle: {
      std::string titles;
      for (const std::string& written : item.as<cql::CodeListArgs>().codes) {
        const std::string t = title_code(item, written);
        if (!t.empty()) {
          titles += (titles.empty() ? "" : ", ") + b.text(t);
          continue;
        }
        // None: for one side, that side has no title; for :title, neither player has one.
        if (side == Side::kEither) either("NOT " + side_has(Side::kEither, "title IS NOT NULL"));
        else either(side_lacks(side, "title"));
      }
      if (!titles.empty()) either(side_has(side, "title IN (" + titles + ")"));
      break;
    }
  }
  b.add(sql.empty() ? "0" : sql);
  return true;
}

}  // namespace headers
