// The match-list keywords of issue 17 B (tags, stored game, derived values, markers),
// answered by SQLite, checked against a brute-force reading of the same games: the tags and
// records of annotated.pgn, the players sample and a small PGN written here with the tags
// the corpora lack (TimeControl, Termination, EventType, Mode, WhiteType, FideId, DWZ...).
// The tag classifiers (headers/match_values.h) are also checked on their own.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cql/parser.h"
#include "db/database.h"
#include "db/game_header.h"
#include "db/game_markers.h"
#include "db/game_reader.h"
#include "db/record_view.h"
#include "headers/header_filter.h"
#include "headers/header_pattern.h"
#include "headers/header_store.h"
#include "headers/match_values.h"
#include "import/importer.h"
#include "query/executor.h"
#include "query/query.h"
#include "temp_dir.h"

namespace fs = std::filesystem;

namespace {

using Ids = std::vector<uint32_t>;

/// What the brute force reads of one game: its tags (all of them, by name as written) and
/// what its record holds.
struct Game {
  uint32_t id = 0;
  db::GameHeader header;
  std::map<std::string, std::string> tags;  // every tag, name lower-cased
  bool comments = false, nags = false, variations = false;
  std::vector<std::string> comment_texts;
};
using Predicate = std::function<bool(const Game&)>;

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// The tag `name` (any case) or "".
std::string tag(const Game& g, const std::string& name) {
  auto it = g.tags.find(lower(name));
  return it == g.tags.end() ? std::string() : it->second;
}

/// A rating tag as a number (0 = none).
int64_t rating(const Game& g, const std::string& name) {
  if (lower(name) == "whiteelo") return g.header.white_elo;
  if (lower(name) == "blackelo") return g.header.black_elo;
  const std::string v = tag(g, name);
  return v.empty() || !std::isdigit(static_cast<unsigned char>(v[0])) ? 0 : std::stoll(v);
}

// Tags the corpora do not have, on real games' moves.
const char* kWrittenPgn = R"([Event "Rated Blitz game"]
[Site "https://lichess.org/abcd1234"]
[Date "2021.03.04"]
[Round "-"]
[White "engineer"]
[Black "stockfish-bot"]
[Result "1-0"]
[WhiteTitle "GM"]
[BlackTitle "BOT"]
[TimeControl "180+2"]
[Termination "Time forfeit"]
[WhiteFideId "1503014"]

1. e4 e5 2. Nf3 Nc6 1-0

[Event "Norway Chess"]
[Site "Stavanger NOR"]
[Date "2019.06.05"]
[Round "3.2"]
[White "Carlsen, Magnus"]
[Black "Caruana, Fabiano"]
[Result "1/2-1/2"]
[WhiteElo "2875"]
[BlackElo "2819"]
[EventType "tourn"]
[EventDate "2019.06.03"]
[Mode "OTB"]
[TimeControl "40/7200:3600"]
[Termination "normal"]
[WhiteFideId "1503014"]
[BlackFideId "2020009"]
[WhiteType "human"]
[BlackType "human"]

1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be3 e5 7. Nb3 Be6 8. f3 Be7
9. Qd2 O-O 10. O-O-O Nbd7 11. g4 b5 12. g5 b4 13. Ne2 Ne8 14. f4 a5 15. f5 a4
16. Nbd4 exd4 17. Nxd4 b3 18. Kb1 bxc2+ 19. Nxc2 Bb3 20. axb3 axb3 21. Na3 Ne5 1/2-1/2

[Event "Bundesliga 2019/20"]
[Site "Berlin GER"]
[Date "2019.??.??"]
[Round "5"]
[White "Mueller, Hans"]
[Black "Schmidt, Otto"]
[Result "0-1"]
[WhiteDWZ "2105"]
[BlackDWZ "2390"]
[WhiteUSCF "2400"]
[EventType "team"]
[Mode "ICS"]
[TimeControl "900+10"]
[Termination "abandoned"]
[WhiteType "program"]
[Annotator "Fritz 17"]

1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O 6. Nf3 h6 7. Bh4 b6 8. cxd5 Nxd5
9. Bxe7 Qxe7 10. Nxd5 exd5 11. Rc1 Be6 12. Qa4 c5 13. Qa3 Rc8 14. Bb5 a6 15. dxc5 bxc5
16. O-O Ra7 17. Be2 Nd7 18. Nd4 Qf8 19. Nxe6 fxe6 20. e4 d4 21. f4 Qe7 0-1

[Event "Simul Moscow"]
[Site "Moscow URS"]
[Date "1987.05.??"]
[Round "1.12"]
[White "Kasparov, Garry"]
[Black "Amateur"]
[Result "1-0"]
[WhiteElo "2740"]
[TimeControl "1/259200"]
[EventType "simul"]
[Mode "PM"]
[Termination "adjudication"]
[WhiteICCF "2600"]
[BlackICCF "2100"]

1. e4 e6 2. d4 d5 3. Nc3 Bb4 4. e5 c5 5. a3 Bxc3+ 6. bxc3 Ne7 7. Qg4 O-O 8. Bd3 Nbc6
9. Qh5 Ng6 10. Nf3 Qc7 11. Be3 c4 12. Bxg6 fxg6 13. Qg4 Bd7 14. O-O Rf7 15. h4 Raf8
16. h5 gxh5 17. Qxh5 h6 18. Rfb1 b6 19. a4 Rxf3 20. gxf3 Qd8 1-0
)";

class MatchKeywordsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new cqltest::TempDir("match-keywords");
    dir_ = new fs::path(tmp_->db());
    const fs::path written = *tmp_ / "written.pgn";
    std::ofstream(written) << kWrittenPgn;
    const std::string corpus = CQLDB_CORPUS_DIR;
    const std::string sample = std::string(CQLDB_SOURCE_DIR) + "/examples/sample";
    db::Database database = db::Database::create_or_open(*dir_);
    import::import_files(database,
                         {corpus + "/annotated.pgn", sample + "/players-3000.pgn.zst", written.string()},
                         import::ImportOptions{}, nullptr);
    db::GameReader reader = database.reader();
    games_ = new std::vector<Game>();
    for (uint32_t id = 1; id <= reader.game_count(); ++id) {
      Game g;
      g.id = id;
      g.header = reader.header(id);
      const db::GameHeader& h = g.header;
      for (const auto& [n, v] : h.other_tags) g.tags.emplace(lower(n), v);
      g.tags.emplace("event", h.event);
      g.tags.emplace("site", h.site);
      g.tags.emplace("round", h.round);
      db::RecordView view;
      if (!reader.record_view(id, view)) continue;
      for (const db::Token& t : view.tokens()) {
        if (t.kind == db::TokenKind::kNag) g.nags = true;
        if (t.depth > 0) g.variations = true;
        if (t.kind == db::TokenKind::kComment || t.kind == db::TokenKind::kCommentBefore) {
          g.comments = true;
          g.comment_texts.emplace_back(t.comment);
        }
      }
      games_->push_back(std::move(g));
    }
  }
  static void TearDownTestSuite() {
    delete games_;
    delete dir_;
    delete tmp_;
  }

  static uint32_t count() { return uint32_t(games_->size()); }

  static Ids query(const std::string& items, bool flipped = false) {
    cql::Script script = cql::parse_or_throw("(match " + items + ")", "test.cql");
    return headers::HeaderStore(*dir_).candidates(headers::HeaderFilter::compile(script.match, flipped), count());
  }

  static Ids expected(const Predicate& p) {
    Ids ids;
    for (const Game& g : *games_)
      if (p(g)) ids.push_back(g.id);
    return ids;
  }

  /// `(match ITEMS)` against `p`: the same games, a proper non-empty subset unless
  /// `may_be_trivial`. Returns the number of games.
  static size_t check(const std::string& items, const Predicate& p, bool may_be_trivial = false,
                      bool flipped = false) {
    const Ids want = expected(p);
    const Ids got = query(items, flipped);
    if (!may_be_trivial) {
      EXPECT_FALSE(want.empty()) << items << ": the test selects no game";
      EXPECT_LT(want.size(), games_->size()) << items << ": the test selects every game";
    }
    EXPECT_EQ(got.size(), want.size()) << items;
    EXPECT_TRUE(got == want) << items;
    return want.size();
  }

  static cqltest::TempDir* tmp_;
  static fs::path* dir_;
  static std::vector<Game>* games_;
};

cqltest::TempDir* MatchKeywordsTest::tmp_ = nullptr;
fs::path* MatchKeywordsTest::dir_ = nullptr;
std::vector<Game>* MatchKeywordsTest::games_ = nullptr;

TEST_F(MatchKeywordsTest, CorpusIsLoaded) { EXPECT_GT(count(), 5500u); }

/// `:gamenumber` of the written games (the last four).
std::string written_only(uint32_t first) { return " :gamenumber >=" + std::to_string(first); }

TEST_F(MatchKeywordsTest, AnnotatorIsASubstringOrAPattern) {
  check(":annotator kasparov", [](const Game& g) { return lower(tag(g, "Annotator")).find("kasparov") != std::string::npos; });
  check(":annotator \"?*\"", [](const Game& g) { return !tag(g, "Annotator").empty(); });
  check(":annotator \"\"", [](const Game& g) { return tag(g, "Annotator").empty(); });
}

TEST_F(MatchKeywordsTest, EventDateComparesTheEventDateTag) {
  auto in = [](int64_t lo, int64_t hi) {
    return [=](const Game& g) {
      auto f = headers::pgn_date_first_key(tag(g, "EventDate"));
      auto l = headers::pgn_date_last_key(tag(g, "EventDate"));
      return f && l && *f >= lo && *l <= hi;
    };
  };
  check(":eventdate 1990 1999", in(19900101, 19991231));
  check(":eventdate >=2000-06-01", in(20000601, 99999999));
  check(":eventdate -", [](const Game& g) { return !headers::pgn_date_first_key(tag(g, "EventDate")); });
  check(":eventdate *", [](const Game& g) { return headers::pgn_date_first_key(tag(g, "EventDate")).has_value(); });
}

TEST_F(MatchKeywordsTest, EventCountryIsTheIocCodeEndingTheSite) {
  auto site_is = [](std::string code) {
    return [=](const Game& g) {
      const std::string& s = g.header.site;
      return s.size() > 4 && s.substr(s.size() - 4) == " " + code;
    };
  };
  check(":eventcountry NOR", site_is("NOR"));
  check(":eventcountry no", site_is("NOR"));            // ISO 3166-1 alpha-2
  check(":eventcountry DEU,ned", [&](const Game& g) {  // alpha-3 and alpha-2
    return site_is("GER")(g) || site_is("NED")(g);
  });
  check(":eventcountry UNK", [](const Game& g) { return headers::site_country(g.header.site).empty(); });
  EXPECT_THROW(query(":eventcountry qq"), cql::CompileError);
}

TEST_F(MatchKeywordsTest, SubroundIsTheNumberAfterTheDot) {
  auto sub = [](const Game& g) {
    const std::string& r = g.header.round;
    size_t i = 0;
    while (i < r.size() && std::isdigit(static_cast<unsigned char>(r[i]))) ++i;
    if (i == 0 || std::stoll(r.substr(0, i)) == 0) return int64_t(-1);  // no round: never matches
    if (i + 1 >= r.size() || r[i] != '.' || !std::isdigit(static_cast<unsigned char>(r[i + 1]))) return int64_t(0);
    return int64_t(std::stoll(r.substr(i + 1)));
  };
  check(":subround 2", [&](const Game& g) { return sub(g) == 2; });
  check(":subround 0", [&](const Game& g) { return sub(g) == 0; });
  check(":subround >=10", [&](const Game& g) { return sub(g) >= 10; });
}

TEST_F(MatchKeywordsTest, TagAnyOtherTag) {
  check(":tag Source", [](const Game& g) { return g.header.other_tags.end() != std::find_if(g.header.other_tags.begin(), g.header.other_tags.end(), [](const auto& t) { return lower(t.first) == "source"; }); });
  check(":tag Annotator \"*Kasparov*\"", [](const Game& g) { return lower(tag(g, "Annotator")).find("kasparov") != std::string::npos; });
  check(":not (match :tag *)", [](const Game& g) { return g.header.other_tags.empty(); });
  check(":tag * 1999", [](const Game& g) {
    for (const auto& [n, v] : g.header.other_tags)
      if (v.find("1999") != std::string::npos) return true;
    return false;
  });
}

TEST_F(MatchKeywordsTest, StoredGameFlags) {
  size_t c = check(":hascomments", [](const Game& g) { return g.comments; });
  size_t n = check(":hasannotation", [](const Game& g) { return g.nags; });
  size_t v = check(":hasvariations", [](const Game& g) { return g.variations; });
  check("!:hasvariations", [](const Game& g) { return !g.variations; });
  check(":hascomments en,de", [](const Game& g) { return g.comments; });
  std::printf("annotated + players-3000: %zu games with comments, %zu with NAGs, %zu with variations\n", c, n, v);
}

TEST_F(MatchKeywordsTest, CommentPatternThroughTheIndex) {
  auto has = [](std::string pattern) {
    return [=](const Game& g) {
      headers::NamePattern p("*" + pattern + "*");
      for (const std::string& t : g.comment_texts)
        if (p.matches(t)) return true;
      return false;
    };
  };
  size_t s = check(":comment \"sacrifice\"", has("sacrifice"));
  check(":comment \"decisive mistake\"", has("decisive mistake"));
  check(":comment \"Qx?7\"", has("Qx?7"));
  check(":comment \"!White\"", [](const Game& g) {  // case-sensitive: no index phrase is wrong
    headers::NamePattern p("!*White*");
    for (const std::string& t : g.comment_texts)
      if (p.matches(t)) return true;
    return false;
  });
  std::printf(":comment \"sacrifice\": %zu games\n", s);
}

TEST_F(MatchKeywordsTest, WrittenTagsTimeModeTerminationEventTypeAndMode) {
  // Written games are the last four: blitz lichess, classical Norway, rapid Bundesliga,
  // correspondence simul.
  const uint32_t first = count() - 3;
  EXPECT_EQ(query(":timemode blitz :site lichess"), (Ids{first}));
  EXPECT_EQ(query(":timemode normal" + written_only(first)), (Ids{first + 1}));
  EXPECT_EQ(query(":timemode rapid" + written_only(first)), (Ids{first + 2}));
  EXPECT_EQ(query(":timemode corr" + written_only(first)), (Ids{first + 3}));
  EXPECT_EQ(query(":termination timeforfeit"), (Ids{first}));
  EXPECT_EQ(query(":termination normal,abandoned"), (Ids{first + 1, first + 2}));
  EXPECT_EQ(query(":termination adjudication"), (Ids{first + 3}));
  check(":termination unknown", [&](const Game& g) { return g.id < first; });
  EXPECT_EQ(query(":eventtype tourn" + written_only(first)), (Ids{first + 1}));
  EXPECT_EQ(query(":eventtype team,simul" + written_only(first)), (Ids{first + 2, first + 3}));
  EXPECT_EQ(query(":eventmode otb" + written_only(first)), (Ids{first + 1}));
  EXPECT_EQ(query(":eventmode corr" + written_only(first)), (Ids{first + 3}));
  EXPECT_EQ(query(":eventmode internet" + written_only(first)), (Ids{first, first + 2}));  // lichess URL, Mode ICS
  check(":eventmode internet", [](const Game& g) {  // annotated.pgn has an http:// site
    return headers::classify_event_mode(tag(g, "Mode"), g.header.site) == cql::EventMode::Internet;
  });
  // Brute force over all games with the classifiers (the corpora: event names only).
  for (const char* mode : {"blitz", "rapid", "normal", "unknown"}) {
    auto m = cql::parse_time_mode(mode);
    check(std::string(":timemode ") + mode, [&](const Game& g) {
      return headers::classify_time_mode(tag(g, "TimeControl"), g.header.event) == *m;
    });
  }
}

TEST_F(MatchKeywordsTest, PlayerIdsAndEngines) {
  const uint32_t first = count() - 3;
  EXPECT_EQ(query(":whiteid 1503014"), (Ids{first, first + 1}));
  EXPECT_EQ(query(":blackid 2020009"), (Ids{first + 1}));
  EXPECT_EQ(query(":whiteid 2020009", true), (Ids{first + 1}));  // flipped: Black's id
  EXPECT_EQ(query(":blackid 1503014", true), (Ids{first, first + 1}));
  EXPECT_EQ(query(":iscomputer"), (Ids{first, first + 2}));  // BOT title, WhiteType program
  EXPECT_EQ(query(":blackiscomputer"), (Ids{first}));
  EXPECT_EQ(query(":whiteiscomputer"), (Ids{first + 2}));
  check(":whiteishuman", [&](const Game& g) { return g.id != first + 2; });
  check(":ishuman", [&](const Game&) { return true; }, true);
}

TEST_F(MatchKeywordsTest, RatingSystemsDifferenceAndAverage) {
  const uint32_t first = count() - 3;
  EXPECT_EQ(query(":rating DWZ >=2300"), (Ids{first + 2}));
  EXPECT_EQ(query(":whiterating DWZ 2100 2110"), (Ids{first + 2}));
  EXPECT_EQ(query(":blackrating USCF *"), (Ids{}));
  EXPECT_EQ(query(":whiterating ICCF >2500"), (Ids{first + 3}));
  check(":ratingdifference ELO <=50", [](const Game& g) {
    return g.header.white_elo > 0 && g.header.black_elo > 0 && std::abs(g.header.white_elo - g.header.black_elo) <= 50;
  });
  check(":ratingdifference ELO -", [](const Game& g) { return !(g.header.white_elo > 0 && g.header.black_elo > 0); });
  check(":averagerating ELO >=2600", [](const Game& g) {
    int w = g.header.white_elo, b = g.header.black_elo;
    double avg = w && b ? (w + b) / 2.0 : w + b;
    return avg >= 2600;
  });
  check(":averagerating ELO -", [](const Game& g) { return g.header.white_elo == 0 && g.header.black_elo == 0; });
  check(":averagerating* ELO >=2600", [](const Game& g) {
    int w = g.header.white_elo, b = g.header.black_elo;
    return w && b && (w + b) / 2.0 >= 2600;
  });
}

TEST_F(MatchKeywordsTest, EventCategoryFromTheMeanElo) {
  // Brute force: per (event, site, year) the players' highest Elo, their mean rounded.
  std::map<std::tuple<std::string, std::string, int>, std::map<std::string, int>> events;
  for (const Game& g : *games_) {
    auto key = std::make_tuple(g.header.event, g.header.site, db::parse_pgn_date(g.header.date).year.value_or(0));
    auto& players = events[key];
    if (g.header.white_elo) players[g.header.white] = std::max(players[g.header.white], g.header.white_elo);
    if (g.header.black_elo) players[g.header.black] = std::max(players[g.header.black], g.header.black_elo);
  }
  auto category = [&](const Game& g) {
    auto key = std::make_tuple(g.header.event, g.header.site, db::parse_pgn_date(g.header.date).year.value_or(0));
    const auto& players = events[key];
    if (players.empty()) return 0;
    double sum = 0;
    for (const auto& [n, e] : players) sum += e;
    const double mean = std::round(sum / double(players.size()));
    return mean >= 2251 ? int((mean - 2251) / 25) + 1 : 0;
  };
  check(":eventcategory >=XV", [&](const Game& g) { return category(g) >= 15; });
  check(":eventcategory 10 14", [&](const Game& g) { return category(g) >= 10 && category(g) <= 14; });
  check(":eventcategory 0", [&](const Game& g) { return category(g) == 0; });
}

TEST_F(MatchKeywordsTest, GoodGameFollowsThePageDefinition) {
  check(":goodgame", [](const Game& g) {
    auto mode = headers::classify_time_mode(tag(g, "TimeControl"), g.header.event);
    bool time_ok = mode == cql::TimeMode::Unknown || mode == cql::TimeMode::Normal || mode == cql::TimeMode::Correspondence;
    bool simul = headers::classify_event_type(tag(g, "EventType"), g.header.event) == cql::EventType::Simultaneous;
    bool draw = g.header.result == "1/2-1/2";
    auto titled = [&](const char* t) {
      std::string v = tag(g, t);
      for (char& c : v) c = char(std::toupper(static_cast<unsigned char>(c)));
      return v == "IM" || v == "GM" || v == "WIM" || v == "WGM" || v == "CIM" || v == "CGM";
    };
    auto r = [&](const char* sys, int min) {
      return rating(g, std::string("White") + sys) >= min || rating(g, std::string("Black") + sys) >= min;
    };
    bool quality = titled("WhiteTitle") || titled("BlackTitle") || r("Elo", 2350) || r("DWZ", 2350) ||
                   r("ACF", 2350) || r("ECF", 220) || r("ICCF", 2350) || r("USCF", 2375);
    return time_ok && !simul && g.header.plies >= 16 && (!draw || g.header.plies >= 40) && quality;
  });
}

TEST_F(MatchKeywordsTest, ErrorAndSpecialMarkersFromTheImportLog) {
  const Ids none = query(":error None");
  const Ids any = query(":not (match :error None)");
  EXPECT_EQ(none.size() + any.size(), count());
  EXPECT_TRUE(query(":error DecodingFailed").empty());
  EXPECT_TRUE(query(":hasspecialmarker deleted,illegalmove").empty());
  size_t kinds = 0;
  for (const char* e : {"UnexpectedEndOfStream", "CannotDecodeMove", "GameDataCorrupted", "IllegalStartPosition"}) {
    const Ids some = query(std::string(":error ") + e);
    EXPECT_TRUE(std::includes(any.begin(), any.end(), some.begin(), some.end())) << e;
    kinds += some.size();
  }
  EXPECT_GT(kinds, 0u);  // annotated.pgn has repaired tags and results
}

TEST_F(MatchKeywordsTest, MarkersSetClearAndFind) {
  EXPECT_TRUE(query(":hasmarker").empty());
  db::set_game_marker(*dir_, 5, "w", false);
  db::set_game_marker(*dir_, 7, "!", false);
  db::set_game_marker(*dir_, 7, "t", false);
  EXPECT_EQ(query(":hasmarker"), (Ids{5, 7}));
  EXPECT_EQ(query(":hasmarker w,b"), (Ids{5}));
  EXPECT_EQ(query(":hasmarker t"), (Ids{7}));
  EXPECT_EQ(db::game_markers(*dir_, 7), "t!");
  db::set_game_marker(*dir_, 7, "t", true);
  EXPECT_EQ(query(":hasmarker t"), (Ids{}));
  db::set_game_marker(*dir_, 7, "", true);
  db::set_game_marker(*dir_, 5, "", true);
  EXPECT_TRUE(query(":hasmarker").empty());
  EXPECT_THROW(db::set_game_marker(*dir_, 5, "z", false), std::invalid_argument);
  EXPECT_THROW(db::set_game_marker(*dir_, count() + 1, "w", false), std::invalid_argument);
  EXPECT_THROW(query(":hasmarker z"), cql::CompileError);
}

TEST_F(MatchKeywordsTest, PlannerOnEqualsOffWithPositionLists) {
  // Header keywords narrow the candidates in SQL before any replay; the answer is the same
  // with every pruning stage off (header conditions then tested after the replay).
  db::Database database = db::Database::open_readonly(*dir_);
  for (const char* text : {"(match :hascomments :hasvariations (position :check :btm))",
                           "(match :comment \"sacrifice\" (position :mate))",
                           "(match :eventdate >=1990 :annotator \"?*\" (position :check))",
                           "(match :eventcountry NED,GER :subround 0 (position :iscastling K))",
                           "(match :eithercolor :whiteid 1503014 (position :check))",
                           "(match :or ((match :timemode blitz) (match :goodgame)) (position :mate))",
                           "(match :not (match :error None) (position :check))"}) {
    query::Query q = query::Query::compile(text, "test.cql");
    query::ExecuteOptions on, off;
    off.planner_off();
    const query::Result a = query::execute(q, database, on), b = query::execute(q, database, off);
    Ids ids_on, ids_off;
    for (const auto& m : a.matches) ids_on.push_back(m.id);
    for (const auto& m : b.matches) ids_off.push_back(m.id);
    EXPECT_EQ(ids_on, ids_off) << text;
    EXPECT_LT(a.stats.candidates, count()) << text << ": the header conditions narrowed nothing";
    EXPECT_NE(query::explain_plan(q, true).find("header SQL:"), std::string::npos) << text;
  }
}

// ---- the classifiers on their own ----

TEST(MatchValues, TimeControlClasses) {
  using M = cql::TimeMode;
  EXPECT_EQ(headers::classify_time_mode("60+0", ""), M::Bullet);
  EXPECT_EQ(headers::classify_time_mode("120+1", ""), M::Bullet);   // 160 s
  EXPECT_EQ(headers::classify_time_mode("180+2", ""), M::Blitz);    // 260 s
  EXPECT_EQ(headers::classify_time_mode("300+3", ""), M::Blitz);    // 420 s
  EXPECT_EQ(headers::classify_time_mode("600+0", ""), M::Rapid);
  EXPECT_EQ(headers::classify_time_mode("900+10", ""), M::Rapid);   // 1300 s
  EXPECT_EQ(headers::classify_time_mode("1800+0", ""), M::Normal);
  EXPECT_EQ(headers::classify_time_mode("40/7200:3600", ""), M::Normal);
  EXPECT_EQ(headers::classify_time_mode("*180", ""), M::Blitz);
  EXPECT_EQ(headers::classify_time_mode("1/259200", ""), M::Correspondence);
  EXPECT_EQ(headers::classify_time_mode("-", "Rated Correspondence game"), M::Correspondence);
  EXPECT_EQ(headers::classify_time_mode("?", "Tata Steel Blitz"), M::Blitz);
  EXPECT_EQ(headers::classify_time_mode("", "World Rapid 2019"), M::Rapid);
  EXPECT_EQ(headers::classify_time_mode("", "Linares"), M::Unknown);
  EXPECT_EQ(headers::classify_time_mode("G/90", ""), M::Unknown);
}

TEST(MatchValues, TagWords) {
  EXPECT_EQ(headers::classify_termination("Time forfeit"), cql::Termination::TimeForfeit);
  EXPECT_EQ(headers::classify_termination("rules infraction"), cql::Termination::RulesInfraction);
  EXPECT_EQ(headers::classify_termination("mate in 3"), cql::Termination::Unknown);
  EXPECT_EQ(headers::classify_event_type("k.o.", ""), cql::EventType::Knockout);
  EXPECT_EQ(headers::classify_event_type("", "Kasparov simul"), cql::EventType::Simultaneous);
  EXPECT_EQ(headers::classify_event_mode("PM", ""), cql::EventMode::Correspondence);
  EXPECT_EQ(headers::classify_event_mode("", "https://lichess.org/x"), cql::EventMode::Internet);
  EXPECT_EQ(headers::site_country("Belgrade SRB"), "SRB");
  EXPECT_EQ(headers::site_country("Wijk aan Zee NED "), "NED");
  EXPECT_EQ(headers::site_country("Moscow"), "");
  EXPECT_EQ(headers::site_country("Nice FRa"), "");
  EXPECT_EQ(headers::ioc_country("de"), "GER");
  EXPECT_EQ(headers::ioc_country("CHE"), "SUI");
  EXPECT_EQ(headers::ioc_country("nor"), "NOR");
  EXPECT_EQ(headers::ioc_country("ENG"), "ENG");
  EXPECT_EQ(headers::ioc_country("xx"), "");
  EXPECT_EQ(headers::ioc_country("zz"), std::nullopt);
  EXPECT_EQ(headers::subround_number("11.16"), 16);
  EXPECT_EQ(headers::subround_number("3"), 0);
  EXPECT_EQ(headers::subround_number("?"), 0);
  EXPECT_EQ(headers::pgn_date_first_key("1985.03.??"), 19850301);
  EXPECT_EQ(headers::pgn_date_last_key("1985.??.??"), 19851231);
  EXPECT_EQ(headers::pgn_date_first_key("????.??.??"), std::nullopt);
  EXPECT_TRUE(headers::comment_matches("sacrifice", "a\x1fThe Sacrifices begin"));
  EXPECT_FALSE(headers::comment_matches("the*begin", "the end\x1f of it begin"));  // not across comments
  EXPECT_EQ(headers::comment_literal_runs("decisive mistake"), (std::vector<std::string>{"decisive", "mistake"}));
  EXPECT_TRUE(headers::comment_literal_runs("Qx?7").empty());
}

}  // namespace
