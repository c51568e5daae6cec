// HeaderFilter (match-list header keywords answered by SQLite) checked against a brute-force
// scan of the stored headers of a real corpus, plus the Pattern-Matching matcher and the
// date intervals on their own.
#include <gtest/gtest.h>

#include <set>

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "cql/parser.h"
#include "db/database.h"
#include "db/game_header.h"
#include "db/schema.h"
#include "db/sqlite_db.h"
#include "db/sqlite_statement.h"
#include "headers/header_date.h"
#include "headers/header_filter.h"
#include "headers/header_store.h"
#include "headers/header_pattern.h"
#include "eval/program.h"
#include "import/importer.h"
#include "temp_dir.h"

namespace fs = std::filesystem;

namespace {

using Ids = std::vector<uint32_t>;
using Predicate = std::function<bool(const db::GameHeader&)>;

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool icontains(const std::string& text, const std::string& needle) {
  return lower(text).find(lower(needle)) != std::string::npos;
}

/// Leading decimal digits of a round ("11.16" -> 11), 0 when there are none.
int64_t round_number(const std::string& round) {
  int64_t n = 0;
  for (char c : round) {
    if (c < '0' || c > '9') break;
    n = n * 10 + (c - '0');
  }
  return n;
}

/// The ECO code 0..499 of a header, or -1 when it has none.
int eco_code(const std::string& eco) {
  if (eco.size() < 3 || eco[0] < 'A' || eco[0] > 'E' || !std::isdigit((unsigned char)eco[1]) ||
      !std::isdigit((unsigned char)eco[2]))
    return -1;
  return (eco[0] - 'A') * 100 + (eco[1] - '0') * 10 + (eco[2] - '0');
}

/// First and last day (yyyymmdd) a header date can stand for; false without a year.
bool game_days(const db::GameHeader& h, int64_t& first, int64_t& last) {
  db::DateParts d = db::parse_pgn_date(h.date);
  if (!d.year) return false;
  int64_t y = int64_t(*d.year) * 10000;
  if (!d.month) {
    first = y + 101;
    last = y + 1231;
  } else {
    first = y + *d.month * 100 + (d.day ? *d.day : 1);
    last = y + *d.month * 100 + (d.day ? *d.day : 31);
  }
  return true;
}

/// Games whose every possible day lies in [lo, hi] (inclusive day keys).
Predicate dated_within(int64_t lo, int64_t hi) {
  return [=](const db::GameHeader& h) {
    int64_t first, last;
    return game_days(h, first, last) && first >= lo && last <= hi;
  };
}

class HeaderFilterTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new cqltest::TempDir("header-filter");
    dir_ = new fs::path(tmp_->db());
    const std::string corpus = CQLDB_CORPUS_DIR;
    const std::string sample = std::string(CQLDB_SOURCE_DIR) + "/examples/sample";
    db::Database database = db::Database::create_or_open(*dir_);
    import::import_files(
        database,
        {corpus + "/mates.pgn", corpus + "/studies.pgn", sample + "/players-3000.pgn.zst"},
        import::ImportOptions{}, nullptr);
    db::GameReader reader = database.reader();
    headers_ = new std::vector<db::GameHeader>();
    for (uint32_t id = 1; id <= reader.game_count(); ++id) headers_->push_back(reader.header(id));
    // Issue 17 A: the classified ECO codes :eco answers from (checked against a brute-force
    // classification in eco_classifier_test.cpp).
    classified_ = new std::map<uint32_t, std::string>();
    db::sqlite::Connection sql(*dir_ / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadOnly);
    db::sqlite::Statement q(sql, "SELECT game_id, eco FROM game_openings");
    while (q.step()) (*classified_)[uint32_t(q.column_int64(0))] = std::string(q.column_text(1));
  }
  static void TearDownTestSuite() {
    delete dir_;
    delete tmp_;
    dir_ = nullptr;
    tmp_ = nullptr;
    delete headers_;
    delete classified_;
  }

  /// The classified ECO code of a game ("" when it has none).
  static std::string eco_of(const db::GameHeader& h) {
    auto it = classified_->find(h.id);
    return it == classified_->end() ? std::string() : it->second;
  }

  static uint32_t count() { return uint32_t(headers_->size()); }

  static headers::HeaderFilter compile(const std::string& items, bool flipped = false) {
    cql::Script script = cql::parse_or_throw("(match " + items + ")", "test.cql");
    return headers::HeaderFilter::compile(script.match, flipped);
  }

  /// Candidates of the match list `(match ITEMS)`; the header bitmaps (db/header_bitmaps.h)
  /// and SQL alone must give the same.
  static Ids query(const std::string& items, bool flipped = false) {
    headers::HeaderStore store(*dir_);
    const headers::HeaderFilter filter = compile(items, flipped);
    const Ids got = store.candidates(filter, count());
    store.use_header_bitmaps(false);
    EXPECT_EQ(got, store.candidates(filter, count())) << items << ": the header bitmaps and SQL differ";
    return got;
  }

  /// Brute force: the ids whose header satisfies `p`.
  static Ids expected(const Predicate& p) {
    Ids ids;
    for (const db::GameHeader& h : *headers_)
      if (p(h)) ids.push_back(h.id);
    return ids;
  }

  /// Checks `(match ITEMS)` against `p`; the expected set must be a proper, non-empty
  /// subset unless `may_be_trivial`.
  static void check(const std::string& items, const Predicate& p, bool flipped = false,
                    bool may_be_trivial = false) {
    Ids want = expected(p);
    Ids got = query(items, flipped);
    if (!may_be_trivial) {
      EXPECT_FALSE(want.empty()) << items << ": the test selects no game";
      EXPECT_LT(want.size(), headers_->size()) << items << ": the test selects every game";
    }
    EXPECT_EQ(got.size(), want.size()) << items << (flipped ? " (flipped)" : "");
    EXPECT_TRUE(got == want) << items << (flipped ? " (flipped)" : "");
  }

  static cqltest::TempDir* tmp_;
  static fs::path* dir_;  ///< the database, inside tmp_
  static std::vector<db::GameHeader>* headers_;
  static std::map<uint32_t, std::string>* classified_;
};

cqltest::TempDir* HeaderFilterTest::tmp_ = nullptr;
fs::path* HeaderFilterTest::dir_ = nullptr;
std::vector<db::GameHeader>* HeaderFilterTest::headers_ = nullptr;
std::map<uint32_t, std::string>* HeaderFilterTest::classified_ = nullptr;

TEST_F(HeaderFilterTest, CorpusIsLoaded) {
  EXPECT_GT(count(), 3500u);
}

TEST_F(HeaderFilterTest, LogicOverSubMatchLists) {
  // :and :or :xor :not :cond over sub-match lists become SQL logic; compare with set algebra.
  Ids y1906 = query(":year 1906"), alek = query(":player alekhine");
  Ids either = query(":or ((match :year 1906) (match :player alekhine))");
  Ids both = query(":and ((match :year 1906) (match :player alekhine))");
  Ids one = query(":xor ((match :year 1906) (match :player alekhine))");
  Ids not1906 = query(":not (match :year 1906)");
  Ids cond = query(":cond ((match :year 1906) (match :player savrov) (match :result 1-0))");
  std::set<uint32_t> a(y1906.begin(), y1906.end()), b(alek.begin(), alek.end());
  size_t inter = 0;
  for (uint32_t id : a) inter += b.count(id);
  ASSERT_GT(inter, 0u);
  EXPECT_EQ(either.size(), a.size() + b.size() - inter);
  EXPECT_EQ(both.size(), inter);
  EXPECT_EQ(one.size(), a.size() + b.size() - 2 * inter);
  EXPECT_EQ(not1906.size(), count() - a.size());
  Ids savrov = query(":year 1906 :player savrov"), white_wins = query(":result 1-0");
  std::set<uint32_t> w(white_wins.begin(), white_wins.end());
  size_t expected_cond = savrov.size();
  for (uint32_t id : w) expected_cond += !a.count(id);
  EXPECT_EQ(cond.size(), expected_cond);
}

TEST_F(HeaderFilterTest, NoHeaderKeywordAcceptsAll) {
  EXPECT_TRUE(compile("").accepts_all());
  EXPECT_TRUE(compile("(position :mate)").accepts_all());
  EXPECT_TRUE(compile(":eithercolor (position :check)").accepts_all());
  Ids all = query("");
  ASSERT_EQ(all.size(), count());
  EXPECT_EQ(all.front(), 1u);
  EXPECT_EQ(all.back(), count());
}

TEST_F(HeaderFilterTest, PlayerSubstringIgnoresCase) {
  check(":player alekhine", [](const db::GameHeader& h) {
    return icontains(h.white, "alekhine") || icontains(h.black, "alekhine");
  });
  check(":whiteplayer ALEKHINE",
        [](const db::GameHeader& h) { return icontains(h.white, "alekhine"); });
  check(":blackplayer capa", [](const db::GameHeader& h) { return icontains(h.black, "capa"); });
}

TEST_F(HeaderFilterTest, PlayerSidesSwapWhenFlipped) {
  check(
      ":whiteplayer alekhine",
      [](const db::GameHeader& h) { return icontains(h.black, "alekhine"); }, true);
  check(
      ":blackplayer alekhine",
      [](const db::GameHeader& h) { return icontains(h.white, "alekhine"); }, true);
  check(
      ":player alekhine",
      [](const db::GameHeader& h) {
        return icontains(h.white, "alekhine") || icontains(h.black, "alekhine");
      },
      true);
}

TEST_F(HeaderFilterTest, QuotedPatterns) {
  check(":player \"alekhine, a*\"", [](const db::GameHeader& h) {
    return lower(h.white).rfind("alekhine, a", 0) == 0 ||
           lower(h.black).rfind("alekhine, a", 0) == 0;
  });
  // `(Alekhine)*`: the name starts with the word Alekhine ("Alekhine/Reilly" too).
  check(":whiteplayer \"(Alekhine)*\"", [](const db::GameHeader& h) {
    std::string w = lower(h.white);
    return w.rfind("alekhine", 0) == 0 && (w.size() == 8 || !std::isalnum((unsigned char)w[8]));
  });
  // Case-sensitive: nobody is spelled in lower case.
  check(
      ":player \"!alekhine*\"", [](const db::GameHeader&) { return false; }, false, true);
  check(":site \"*RUS\"", [](const db::GameHeader& h) {
    return lower(h.site).size() >= 3 && lower(h.site).substr(h.site.size() - 3) == "rus";
  });
  check(":event \"New York*\"",
        [](const db::GameHeader& h) { return lower(h.event).rfind("new york", 0) == 0; });
}

TEST_F(HeaderFilterTest, EventAndSiteSubstrings) {
  check(":event karlsbad", [](const db::GameHeader& h) { return icontains(h.event, "karlsbad"); });
  check(":site petersburg",
        [](const db::GameHeader& h) { return icontains(h.site, "petersburg"); });
  check(":event sim :site york", [](const db::GameHeader& h) {
    return icontains(h.event, "sim") && icontains(h.site, "york");
  });
}

TEST_F(HeaderFilterTest, UserTextIsBoundNotPasted) {
  headers::HeaderFilter f = compile(":player \"x'); DROP TABLE games; --\" :event \"%_\"");
  EXPECT_EQ(f.where_sql().find("DROP"), std::string::npos);
  EXPECT_EQ(f.where_sql().find('%'), std::string::npos);
  EXPECT_TRUE(headers::HeaderStore(*dir_).candidates(f, count()).empty());
  EXPECT_EQ(query("").size(), count());  // the table is still there
}

TEST_F(HeaderFilterTest, Elo) {
  check(":whiteelo >=2600", [](const db::GameHeader& h) { return h.white_elo >= 2600; });
  check(
      ":whiteelo >=2600", [](const db::GameHeader& h) { return h.black_elo >= 2600; }, true);
  check(":blackelo 2500 2599",
        [](const db::GameHeader& h) { return h.black_elo >= 2500 && h.black_elo <= 2599; });
  check(":elo 2700 unlimited",
        [](const db::GameHeader& h) { return h.white_elo >= 2700 || h.black_elo >= 2700; });
  // A missing Elo counts as 0.
  check(":elo 0", [](const db::GameHeader& h) { return h.white_elo == 0 || h.black_elo == 0; });
  check(":whiteelo <2000", [](const db::GameHeader& h) { return h.white_elo < 2000; });
  check(":elo *", [](const db::GameHeader& h) { return h.white_elo > 0 || h.black_elo > 0; });
  check(":blackelo -", [](const db::GameHeader& h) { return h.black_elo == 0; });
  check(":whiteelo * :blackelo *",
        [](const db::GameHeader& h) { return h.white_elo > 0 && h.black_elo > 0; });
}

TEST_F(HeaderFilterTest, Result) {
  check(":result 1-0,0-1",
        [](const db::GameHeader& h) { return h.result == "1-0" || h.result == "0-1"; });
  check(":result 1/2", [](const db::GameHeader& h) { return h.result == "1/2-1/2"; });
  check(":result 1/2-1/2", [](const db::GameHeader& h) { return h.result == "1/2-1/2"; });
  check(":result *", [](const db::GameHeader& h) { return h.result == "*"; });
  check(
      ":result 0-0", [](const db::GameHeader&) { return false; }, false, true);
  check(
      ":result 1-0", [](const db::GameHeader& h) { return h.result == "0-1"; }, true);
  check(
      ":result 0-1,*", [](const db::GameHeader& h) { return h.result == "1-0" || h.result == "*"; },
      true);
}

TEST_F(HeaderFilterTest, Year) {
  auto year = [](const db::GameHeader& h) { return db::parse_pgn_date(h.date).year; };
  check(":year 1900 1910", [&](const db::GameHeader& h) {
    auto y = year(h);
    return y && *y >= 1900 && *y <= 1910;
  });
  check(":year <1850", [&](const db::GameHeader& h) { return year(h) && *year(h) < 1850; });
  check(":year >2010", [&](const db::GameHeader& h) { return year(h) && *year(h) > 2010; });
  check(":year -", [&](const db::GameHeader& h) { return !year(h); });
  check(":year *", [&](const db::GameHeader& h) { return year(h).has_value(); });
}

TEST_F(HeaderFilterTest, Date) {
  check(":date 2013", dated_within(20130101, 20131231));
  check(":date 1930 1935", dated_within(19300101, 19351231));
  check(":date 2008-06", dated_within(20080601, 20080631));
  check(":date 2010-10-01 .. 2013-01-01", dated_within(20101001, 20121231));
  check(":date 2013-01-01 .. 2010-10-01", dated_within(20101002, 20130101));
  check(":date >=2008-06-15", dated_within(20080615, 99999999));
  check(":date >2008-06-15", dated_within(20080616, 99999999));
  check(":date >2012", dated_within(20130101, 99999999));
  check(":date <1925", dated_within(0, 19241231));
  check(":date <=1925-06", dated_within(0, 19250631));
  // 2013-05-10 - 30 days = 2013-04-10 (excluded).
  check(":date 2013-05-10 .. 2013-05-10-30d", dated_within(20130411, 20130510));
  // 2012-11-30 + 2 months = 2013-01-30 (excluded).
  check(":date 2012-11-30 .. 2012-11-30+2m", dated_within(20121130, 20130129));
  check(":date -", [](const db::GameHeader& h) { return !db::parse_pgn_date(h.date).year; });
  check(":date *",
        [](const db::GameHeader& h) { return db::parse_pgn_date(h.date).year.has_value(); });
}

TEST_F(HeaderFilterTest, PartialGameDatesMatchOnlyWhenCertain) {
  // A game dated "1933.??.??" was played in 1933, but not certainly in March 1933.
  Ids in_1933 = query(":date 1933");
  Ids in_march = query(":date 1933-03");
  uint32_t partial_1933 = 0;
  for (uint32_t id : in_1933) {
    const db::GameHeader& h = (*headers_)[id - 1];
    if (h.date == "1933.??.??") {
      ++partial_1933;
      EXPECT_FALSE(std::binary_search(in_march.begin(), in_march.end(), id));
    }
  }
  EXPECT_GT(partial_1933, 100u);
}

TEST_F(HeaderFilterTest, Eco) {
  check(":eco B00-99,C00-99", [](const db::GameHeader& h) {
    int c = eco_code(eco_of(h));
    return c >= 100 && c <= 299;
  });
  check(":eco A00-B09", [](const db::GameHeader& h) {
    int c = eco_code(eco_of(h));
    return c >= 0 && c <= 109;
  });
  check(":eco C11", [](const db::GameHeader& h) { return eco_code(eco_of(h)) == 211; });
  check(":eco E90-99", [](const db::GameHeader& h) { return eco_code(eco_of(h)) >= 490; });
  check(":eco -", [](const db::GameHeader& h) { return eco_code(eco_of(h)) < 0; });
  check(":eco *", [](const db::GameHeader& h) { return eco_code(eco_of(h)) >= 0; });
}

TEST_F(HeaderFilterTest, PlyCountAndGameNumber) {
  check(":plycount 40 60", [](const db::GameHeader& h) { return h.plies >= 40 && h.plies <= 60; });
  check(":plycount >200", [](const db::GameHeader& h) { return h.plies > 200; });
  check(":gamenumber 1 100", [](const db::GameHeader& h) { return h.id >= 1 && h.id <= 100; });
  check(":gamenumber >3000", [](const db::GameHeader& h) { return h.id > 3000; });
  check(
      ":gamenumber -", [](const db::GameHeader&) { return false; }, false, true);
  EXPECT_EQ(query(":plycount *").size(), count());
}

TEST_F(HeaderFilterTest, Round) {
  check(":round 0", [](const db::GameHeader& h) { return round_number(h.round) == 0; });
  check(":round 0 1", [](const db::GameHeader& h) { return round_number(h.round) <= 1; });
  check(":round >=10", [](const db::GameHeader& h) { return round_number(h.round) >= 10; });
  check(":round 2", [](const db::GameHeader& h) { return round_number(h.round) == 2; });
  check(":round *", [](const db::GameHeader& h) { return round_number(h.round) > 0; });
  check(":round -", [](const db::GameHeader& h) { return round_number(h.round) == 0; });
}

TEST_F(HeaderFilterTest, KeywordsAreAnded) {
  check(":player alekhine :result 1-0 :year 1920 1930 :plycount <80", [](const db::GameHeader& h) {
    auto y = db::parse_pgn_date(h.date).year;
    return (icontains(h.white, "alekhine") || icontains(h.black, "alekhine")) &&
           h.result == "1-0" && y && *y >= 1920 && *y <= 1930 && h.plies < 80;
  });
}

TEST_F(HeaderFilterTest, EitherColorExample) {
  // The CQL-Match-List :eithercolor example (a lower-rated player beats a higher-rated one),
  // with bounds that select games in this corpus: each colour alternative on its own.
  const std::string items = ":result 1-0 :whiteelo <=2600 :blackelo >=2650 :eithercolor";
  check(items, [](const db::GameHeader& h) {
    return h.result == "1-0" && h.white_elo <= 2600 && h.black_elo >= 2650;
  });
  check(
      items,
      [](const db::GameHeader& h) {
        return h.result == "0-1" && h.black_elo <= 2600 && h.white_elo >= 2650;
      },
      true);
}

TEST_F(HeaderFilterTest, CandidatesStopAtGameCount) {
  Ids ids = headers::HeaderStore(*dir_).candidates(compile(":result 1-0,0-1,1/2,*"), 50);
  EXPECT_EQ(ids.size(), 50u);
  EXPECT_EQ(ids.back(), 50u);
  EXPECT_EQ(headers::HeaderStore(*dir_).candidates(compile(""), 7).size(), 7u);
}

TEST_F(HeaderFilterTest, FormerlyUnsupportedHeaderKeywordsCompile) {
  // Since issue 17 (parts A and B) every match-list keyword answers.
  for (const char* items : {":title GM", ":birthyear 1963", ":country GER", ":annotator Kasparov",
                            ":hasvariations", ":eventdate 1930", ":comment \"x\""}) {
    EXPECT_NO_THROW(compile(std::string("\n  ") + items)) << items;
  }
}

TEST_F(HeaderFilterTest, GameInfoMatchesHeaders) {
  std::vector<headers::GameInfo> info = headers::HeaderStore(*dir_).game_info(count());
  ASSERT_EQ(info.size(), size_t(count()) + 1);
  for (const db::GameHeader& h : *headers_) {
    const headers::GameInfo& g = info[h.id];
    EXPECT_EQ(g.result, uint8_t(db::result_code(h.result))) << h.id;
    EXPECT_EQ(g.white_elo, h.white_elo) << h.id;
    EXPECT_EQ(g.black_elo, h.black_elo) << h.id;
  }
}

// ---- Pattern-Matching.txt examples ----

TEST(NamePattern, ReferenceExamples) {
  using headers::NamePattern;
  EXPECT_TRUE(NamePattern("Polgar, J*").matches("Polgar, J"));
  EXPECT_TRUE(NamePattern("Polgar, J*").matches("Polgar, Judit"));
  EXPECT_TRUE(NamePattern("A?erba?h").matches("Averbakh"));
  EXPECT_TRUE(NamePattern("A?erba?h").matches("Awerbach"));
  for (const char* s : {"Kasparov", "Kasparova", "Kasparov, Garry", "Kasparova, Tatiana"}) {
    EXPECT_TRUE(NamePattern("Kasparov*").matches(s)) << s;
    EXPECT_TRUE(NamePattern("Kasparov*)").matches(s)) << s;
  }
  EXPECT_FALSE(NamePattern("Kasparov*)").matches("Kasparov, G."));
  EXPECT_TRUE(NamePattern("(Kasparov*)").matches("Kasparov"));
  EXPECT_TRUE(NamePattern("(Kasparov*)").matches("Kasparova"));
  EXPECT_FALSE(NamePattern("(Kasparov*)").matches("Kasparov, Garry"));
  EXPECT_FALSE(NamePattern("(Kasparov*)").matches("Kasparova, Tatiana"));
  EXPECT_TRUE(NamePattern("(Kasparov)*").matches("Kasparov"));
  EXPECT_TRUE(NamePattern("(Kasparov)*").matches("Kasparov, Garry"));
  EXPECT_FALSE(NamePattern("(Kasparov)*").matches("Kasparova"));
  EXPECT_FALSE(NamePattern("(Kasparov)*").matches("Kasparova, Tatiana"));
  EXPECT_TRUE(NamePattern("Kasparov*,*").matches("Kasparov, Garry"));
  EXPECT_TRUE(NamePattern("Kasparov*,*").matches("Kasparova, Tatiana"));
  EXPECT_FALSE(NamePattern("Kasparov*,*").matches("Kasparov"));
  EXPECT_FALSE(NamePattern("Kasparov*,*").matches("Kasparova"));
  EXPECT_TRUE(NamePattern("Kasparov, Garry").matches("Kasparov, Garry"));
  EXPECT_TRUE(NamePattern("Kasparov, Garry").matches("Kasparov,Garry"));
  EXPECT_TRUE(NamePattern("Kasparov, Garry").matches("Kasparov,  Garry"));
  EXPECT_TRUE(NamePattern("Kasparov{,} Garry").matches("Kasparov, Garry"));
  EXPECT_FALSE(NamePattern("Kasparov{,} Garry").matches("Kasparov,Garry"));
  for (const char* p : {"Kasparov,\\ Garry", "{Kasparov, Garry}"}) {
    EXPECT_TRUE(NamePattern(p).matches("Kasparov, Garry")) << p;
    EXPECT_FALSE(NamePattern(p).matches("Kasparov,Garry")) << p;
    EXPECT_FALSE(NamePattern(p).matches("Kasparov,  Garry")) << p;
  }
  EXPECT_TRUE(NamePattern("\\{Kasparov, Garry}").matches("{Kasparov, Garry}"));
  EXPECT_TRUE(NamePattern("!MacDonald").matches("MacDonald"));
  EXPECT_FALSE(NamePattern("!MacDonald").matches("Macdonald"));
  EXPECT_TRUE(NamePattern("MacDonald").matches("Macdonald"));
  EXPECT_TRUE(NamePattern("\\!!").matches("!!"));
  EXPECT_FALSE(NamePattern("\\!!").matches("!"));
  EXPECT_TRUE(NamePattern("*\\(Berlin\\)").matches("Germany (Berlin)"));
  EXPECT_FALSE(NamePattern("*\\(Berlin\\)").matches("Germany Berlin"));
}

TEST(NamePattern, Details) {
  using headers::NamePattern;
  EXPECT_TRUE(NamePattern("").matches(""));
  EXPECT_FALSE(NamePattern("").matches("a"));
  EXPECT_TRUE(NamePattern("*").matches(""));
  EXPECT_FALSE(NamePattern("?*").matches(""));
  EXPECT_TRUE(NamePattern("a b").matches("a   b"));
  EXPECT_FALSE(NamePattern("a b").matches("ab"));
  EXPECT_TRUE(NamePattern("a. b").matches("a.b"));  // delimiter before the blank
  // Case folding beyond ASCII; `?` is one character, not one byte.
  EXPECT_TRUE(NamePattern("ÖSTERREICH").matches("österreich"));
  EXPECT_TRUE(NamePattern("Ljubojevi?").matches("Ljubojević"));
  EXPECT_TRUE(NamePattern("ШИРОВ").matches("Широв"));
  EXPECT_FALSE(NamePattern("!ÖSTERREICH").matches("österreich"));
  EXPECT_TRUE(headers::contains_ignoring_case("Ljubojević, Ljubomir", "JEVIĆ"));
  EXPECT_TRUE(headers::contains_ignoring_case("anything", ""));
  EXPECT_FALSE(headers::contains_ignoring_case("Tal", "tall"));
  // Invalid UTF-8 bytes are single characters.
  EXPECT_TRUE(NamePattern("M?ller").matches("M\xfcller"));
}

TEST(DayKeyInterval, Forms) {
  auto interval = [](const std::string& text) {
    cql::Script s = cql::parse_or_throw("(match :date " + text + ")", "t");
    return headers::day_key_interval(s.match.keywords()[0]->as<cql::DateArgs>().range);
  };
  headers::DayKeyInterval d = interval("2010-10");
  EXPECT_EQ(d.lo, 20101001);
  EXPECT_EQ(d.hi, 20101031);
  d = interval("2010-10-27 .. 2010-10-27-43d");  // Sep 14 excluded .. Oct 27 included
  EXPECT_EQ(d.lo, 20100914);
  EXPECT_TRUE(d.lo_strict);
  EXPECT_EQ(d.hi, 20101027);
  EXPECT_FALSE(d.hi_strict);
  d = interval("2010-10-01 .. 2010-10-01+1m");
  EXPECT_EQ(d.lo, 20101001);
  EXPECT_EQ(d.hi, 20101101);
  EXPECT_TRUE(d.hi_strict);
  d = interval(">=2010");
  EXPECT_EQ(d.lo, 20100101);
  EXPECT_FALSE(d.hi.has_value());
}

}  // namespace
