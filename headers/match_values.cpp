#include "headers/match_values.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <unordered_map>
#include <vector>

#include "db/game_header.h"
#include "headers/header_pattern.h"

namespace headers {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

/// The lower-case letters of `s` without blanks, '-' and '_' ("Time forfeit" -> "timeforfeit").
std::string squeezed(std::string_view s) {
  std::string out;
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c)) && c != '-' && c != '_')
      out += char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool contains(const std::string& haystack, std::string_view needle) {
  return haystack.find(needle) != std::string::npos;
}

/// A non-negative decimal number filling all of `s`.
std::optional<int64_t> number(std::string_view s) {
  int64_t v = 0;
  if (s.empty()) return std::nullopt;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || v < 0) return std::nullopt;
  return v;
}

constexpr int64_t kDay = 86400;

/// The time mode of one TimeControl period ("300+2", "40/7200", "*180", "5400").
std::optional<cql::TimeMode> period_mode(std::string_view p) {
  if (!p.empty() && p.front() == '*') p.remove_prefix(1);  // sandclock
  std::optional<int64_t> moves;
  if (size_t slash = p.find('/'); slash != std::string_view::npos) {
    moves = number(p.substr(0, slash));
    if (!moves || *moves == 0) return std::nullopt;
    p = p.substr(slash + 1);
  }
  int64_t increment = 0;
  if (size_t plus = p.find('+'); plus != std::string_view::npos) {
    std::optional<int64_t> inc = number(p.substr(plus + 1));
    if (!inc) return std::nullopt;
    increment = *inc;
    p = p.substr(0, plus);
  }
  std::optional<int64_t> base = number(p);
  if (!base) return std::nullopt;
  if (moves && *base / *moves >= kDay) return cql::TimeMode::Correspondence;
  if (*base >= kDay || increment >= kDay) return cql::TimeMode::Correspondence;
  const int64_t estimate = *base + 40 * increment;
  if (estimate < 180) return cql::TimeMode::Bullet;
  if (estimate < 480) return cql::TimeMode::Blitz;
  if (estimate < 1500) return cql::TimeMode::Rapid;
  return cql::TimeMode::Normal;
}

/// IOC code, ISO 3166-1 alpha-2, alpha-3 (the FIDE federations; "-" = none).
constexpr const char* kCountries =
    "AFG af AFG ALB al ALB ALG dz DZA AND ad AND ANG ao AGO ANT ag ATG ARG ar ARG ARM am ARM "
    "ARU aw ABW ASA as ASM AUS au AUS AUT at AUT AZE az AZE BAH bs BHS BAN bd BGD BAR bb BRB "
    "BDI bi BDI BEL be BEL BEN bj BEN BER bm BMU BHU bt BTN BIH ba BIH BIZ bz BLZ BLR by BLR "
    "BOL bo BOL BOT bw BWA BRA br BRA BRN bh BHR BRU bn BRN BUL bg BGR BUR bf BFA CAF cf CAF "
    "CAM kh KHM CAN ca CAN CAY ky CYM CGO cg COG CHA td TCD CHI cl CHL CHN cn CHN CIV ci CIV "
    "CMR cm CMR COD cd COD COK ck COK COL co COL COM km COM CPV cv CPV CRC cr CRI CRO hr HRV "
    "CUB cu CUB CYP cy CYP CZE cz CZE DEN dk DNK DJI dj DJI DMA dm DMA DOM do DOM ECU ec ECU "
    "EGY eg EGY ERI er ERI ESA sv SLV ESP es ESP EST ee EST ETH et ETH FAI fo FRO FIJ fj FJI "
    "FIN fi FIN FRA fr FRA FSM fm FSM GAB ga GAB GAM gm GMB GBR gb GBR GBS gw GNB GEO ge GEO "
    "GEQ gq GNQ GER de DEU GHA gh GHA GRE gr GRC GRN gd GRD GUA gt GTM GUI gn GIN GUM gu GUM "
    "GUY gy GUY HAI ht HTI HKG hk HKG HON hn HND HUN hu HUN INA id IDN IND in IND IRI ir IRN "
    "IRL ie IRL IRQ iq IRQ ISL is ISL ISR il ISR ISV vi VIR ITA it ITA IVB vg VGB JAM jm JAM "
    "JOR jo JOR JPN jp JPN KAZ kz KAZ KEN ke KEN KGZ kg KGZ KIR ki KIR KOR kr KOR KOS xk XKX "
    "KSA sa SAU KUW kw KWT LAO la LAO LAT lv LVA LBA ly LBY LBN lb LBN LBR lr LBR LCA lc LCA "
    "LES ls LSO LIE li LIE LTU lt LTU LUX lu LUX MAC mo MAC MAD mg MDG MAR ma MAR MAS my MYS "
    "MAW mw MWI MDA md MDA MDV mv MDV MEX mx MEX MGL mn MNG MHL mh MHL MKD mk MKD MLI ml MLI "
    "MLT mt MLT MNE me MNE MON mc MCO MOZ mz MOZ MRI mu MUS MTN mr MRT MYA mm MMR NAM na NAM "
    "NCA ni NIC NED nl NLD NEP np NPL NGR ng NGA NIG ne NER NOR no NOR NRU nr NRU NZL nz NZL "
    "OMA om OMN PAK pk PAK PAN pa PAN PAR py PRY PER pe PER PHI ph PHL PLE ps PSE PLW pw PLW "
    "PNG pg PNG POL pl POL POR pt PRT PRK kp PRK PUR pr PRI QAT qa QAT ROU ro ROU RSA za ZAF "
    "RUS ru RUS RWA rw RWA SAM ws WSM SEN sn SEN SEY sc SYC SGP sg SGP SKN kn KNA SLE sl SLE "
    "SLO si SVN SMR sm SMR SOL sb SLB SOM so SOM SRB rs SRB SRI lk LKA SSD ss SSD STP st STP "
    "SUD sd SDN SUI ch CHE SUR sr SUR SVK sk SVK SWE se SWE SWZ sz SWZ SYR sy SYR TAN tz TZA "
    "TGA to TON THA th THA TJK tj TJK TKM tm TKM TLS tl TLS TOG tg TGO TPE tw TWN TTO tt TTO "
    "TUN tn TUN TUR tr TUR TUV tv TUV UAE ae ARE UGA ug UGA UKR ua UKR URU uy URY USA us USA "
    "UZB uz UZB VAN vu VUT VEN ve VEN VIE vn VNM VIN vc VCT YEM ye YEM ZAM zm ZMB ZIM zw ZWE";

/// The country table: alpha-2 (lower case) -> IOC, alpha-3 that differs -> IOC, and the
/// IOC codes themselves (mapped to themselves).
struct CountryTable {
  std::unordered_map<std::string, std::string> alpha2, alpha3, ioc;
};

const CountryTable& countries() {
  static const CountryTable table = [] {
    CountryTable t;
    std::vector<std::string> words;
    std::string_view s = kCountries;
    while (!s.empty()) {
      size_t blank = s.find(' ');
      words.emplace_back(s.substr(0, blank));
      s = blank == std::string_view::npos ? std::string_view() : s.substr(blank + 1);
    }
    for (size_t i = 0; i + 2 < words.size(); i += 3) {
      t.ioc.emplace(words[i], words[i]);
      t.alpha2.emplace(words[i + 1], words[i]);
      if (words[i + 2] != words[i]) t.alpha3.emplace(words[i + 2], words[i]);
    }
    return t;
  }();
  return table;
}

}  // namespace

cql::TimeMode classify_time_mode(std::string_view time_control, std::string_view event) {
  std::string_view tc = trim(time_control);
  if (!tc.empty() && tc != "?" && tc != "-") {
    // The first period decides ("40/7200:3600" -> 40 moves in 7200 s).
    if (auto mode = period_mode(tc.substr(0, tc.find(':')))) return *mode;
  }
  const std::string e = lower(event);
  if (contains(e, "bullet")) return cql::TimeMode::Bullet;
  if (contains(e, "blitz")) return cql::TimeMode::Blitz;
  if (contains(e, "rapid")) return cql::TimeMode::Rapid;
  if (contains(e, "corr") || contains(e, "iccf")) return cql::TimeMode::Correspondence;
  return cql::TimeMode::Unknown;
}

cql::Termination classify_termination(std::string_view termination) {
  using T = cql::Termination;
  const std::string t = squeezed(termination);
  if (t == "normal") return T::Normal;
  if (t == "timeforfeit" || t == "time" || t == "lostontime" || t == "wonontime") return T::TimeForfeit;
  if (t == "abandoned") return T::Abandoned;
  if (t == "adjudication" || t == "adjudicated") return T::Adjudication;
  if (t == "death" || t == "emergency") return T::Emergency;
  if (t == "rulesinfraction") return T::RulesInfraction;
  if (t == "unterminated") return T::Unterminated;
  if (t == "disconnection" || t == "disconnected") return T::Disconnection;
  if (t == "unplayed" || t == "noopponent" || t == "forfeit") return T::Unplayed;
  return T::Unknown;
}

cql::EventType classify_event_type(std::string_view event_type, std::string_view event) {
  using T = cql::EventType;
  std::string_view v = trim(event_type);
  const std::string first = lower(v.substr(0, v.find_first_of(" \t(")));
  if (first == "game") return T::Game;
  if (first == "match") return T::Match;
  if (first == "tourn" || first == "tournament") return T::Tournament;
  if (first == "k.o." || first == "ko" || first == "knockout") return T::Knockout;
  if (first == "swiss") return T::Swiss;
  if (first == "team") return T::Team;
  if (first == "schev" || first == "scheveningen") return T::Scheveningen;
  if (first == "simul") return T::Simultaneous;
  if (contains(lower(event), "simul")) return T::Simultaneous;
  return T::Unknown;
}

cql::EventMode classify_event_mode(std::string_view mode, std::string_view site) {
  using M = cql::EventMode;
  const std::string m = squeezed(mode);
  if (m == "otb") return M::OverTheBoard;
  if (m == "pm" || m == "corr" || m == "correspondence") return M::Correspondence;
  if (m == "em" || m == "email") return M::Email;
  if (m == "ics" || m == "internet" || m == "online") return M::Internet;
  if (m == "tc" || m == "tele") return M::Telecommunication;
  if (m == "analysis") return M::Analysis;
  if (m == "composition") return M::Composition;
  const std::string s = lower(site);
  if (s.rfind("http://", 0) == 0 || s.rfind("https://", 0) == 0 || contains(s, "lichess") ||
      contains(s, "chess.com") || contains(s, "playchess") || s == "icc" || s == "fics" ||
      contains(s, "internet chess club") || contains(s, "freechess"))
    return M::Internet;
  return M::Unknown;
}

std::string site_country(std::string_view site) {
  site = trim(site);
  const size_t blank = site.find_last_of(" \t");
  if (blank == std::string_view::npos) return {};
  std::string_view last = site.substr(blank + 1);
  if (last.size() != 3) return {};
  for (char c : last)
    if (c < 'A' || c > 'Z') return {};
  return std::string(last);
}

std::optional<std::string> ioc_country(std::string_view code) {
  const std::string low = lower(code);
  if (low == "unk" || low == "xx" || low == "0") return std::string();
  if (code.size() == 2) {
    auto it = countries().alpha2.find(low);
    if (it == countries().alpha2.end()) return std::nullopt;
    return it->second;
  }
  if (code.size() != 3 || !std::all_of(code.begin(), code.end(), [](char c) {
        return std::isalpha(static_cast<unsigned char>(c));
      }))
    return std::nullopt;
  std::string upper(code);
  for (char& c : upper) c = char(std::toupper(static_cast<unsigned char>(c)));
  if (countries().ioc.count(upper)) return upper;
  if (auto it = countries().alpha3.find(upper); it != countries().alpha3.end()) return it->second;
  return upper;  // a code outside the table (FIDE's "ENG", "INT") is compared as written
}

int64_t subround_number(std::string_view round) {
  round = trim(round);
  size_t i = 0;
  while (i < round.size() && std::isdigit(static_cast<unsigned char>(round[i]))) ++i;
  if (i == 0 || i >= round.size() || round[i] != '.') return 0;
  size_t j = ++i;
  while (j < round.size() && std::isdigit(static_cast<unsigned char>(round[j]))) ++j;
  if (j == i) return 0;
  return number(round.substr(i, j - i)).value_or(0);
}

std::optional<int64_t> pgn_date_first_key(std::string_view date) {
  const db::DateParts p = db::parse_pgn_date(trim(date));
  if (!p.year) return std::nullopt;
  const int month = p.month.value_or(1);
  const int day = p.month ? p.day.value_or(1) : 1;
  return int64_t(*p.year) * 10000 + month * 100 + day;
}

std::optional<int64_t> pgn_date_last_key(std::string_view date) {
  const db::DateParts p = db::parse_pgn_date(trim(date));
  if (!p.year) return std::nullopt;
  const int month = p.month.value_or(12);
  const int day = p.month ? p.day.value_or(31) : 31;
  return int64_t(*p.year) * 10000 + month * 100 + day;
}

bool comment_matches(std::string_view pattern, std::string_view comments) {
  // A leading '!' (case-sensitive) stays in front of the surrounding stars.
  std::string p;
  std::string_view body = pattern;
  if (!body.empty() && body.front() == '!') {
    p = "!";
    body.remove_prefix(1);
  }
  p += "*";
  p += body;
  p += "*";
  const NamePattern compiled(p);
  while (true) {
    const size_t sep = comments.find(kCommentSeparator);
    if (compiled.matches(comments.substr(0, sep))) return true;
    if (sep == std::string_view::npos) return false;
    comments.remove_prefix(sep + 1);
  }
}

std::vector<std::string> comment_literal_runs(std::string_view pattern) {
  std::vector<std::string> runs;
  std::string run;
  auto flush = [&] {
    if (run.size() >= 3) runs.push_back(run);
    run.clear();
  };
  for (char c : pattern) {
    if (std::isalnum(static_cast<unsigned char>(c))) run += c;
    else flush();
  }
  flush();
  return runs;
}

}  // namespace headers
