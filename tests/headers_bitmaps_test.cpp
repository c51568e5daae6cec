// Header bitmaps (db/header_bitmaps.h, issue 42): header filters on the year, the Elos,
// the classified ECO code and the player names answered through the bitmaps equal the plain
// SQL route, for ranges, open ends, missing values, name substrings and patterns, after
// appends, with the file missing, behind or of the version before the player columns; a
// damaged file is a clear db::FormatError, a damaged player column a finding of check.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "cql/parser.h"
#include "db/database.h"
#include "db/errors.h"
#include "db/game_writer.h"
#include "db/header_bitmaps.h"
#include "headers/filter_terms.h"
#include "headers/header_filter.h"
#include "headers/header_store.h"
#include "import/importer.h"
#include "cli_test_util.h"
#include "temp_dir.h"

namespace fs = std::filesystem;

namespace {

using Ids = std::vector<uint32_t>;

const std::string kCorpus = CQLDB_CORPUS_DIR;
const std::string kSample = std::string(CQLDB_SOURCE_DIR) + "/examples/sample";

/// Match lists the bitmaps take apart (top-level year, Elo, ECO and date conditions), mixed
/// with conditions left to SQL, and some they cannot take apart (logic over sub-lists).
const std::vector<std::string> kMatchLists = {
    ":year 1990 2000",
    ":year <1900",
    ":year >=2010",
    ":year -",
    ":year *",
    ":elo 2700 unlimited",
    ":elo 0",
    ":elo <2000",
    ":elo *",
    ":elo -",
    ":whiteelo >2600",
    ":blackelo 2500 2599",
    ":whiteelo * :blackelo -",
    ":rating ELO 2600 2700",
    ":whiterating ELO >2650",
    ":eco B00-99,C00-99",
    ":eco C11",
    ":eco -",
    ":eco *",
    ":eco A00-B09 :year 1980 2005",
    ":year 1995 2005 :result 1-0",
    ":elo 2500 2800 :player Kasparov",
    ":date 1990-03-01 1999-06-30",
    ":date <1950 :elo -",
    ":date 2013-05-10 .. 2013-05-10-30d",
    ":date >2012",
    ":date -",
    ":or ((match :year 1990 1991) (match :elo 2700 3000))",
    ":not (match :year 1990 2000) :eco B00-99",
    ":year 1980 2000 :whiteplayer \"K*\"",
    // Session 7: names through the player columns.
    ":player Alekhine",
    ":whiteplayer Alekhine :blackplayer Bogoljubow",
    ":blackplayer \"Alekseev*\"",
    ":player \"*Max\"",
    ":player a",
    ":player zzznobody",
    ":whiteplayer Euwe :year 1930 1940 :result 1-0",
    ":player Alekhine :elo *",
    ":or ((match :player Euwe) (match :player Bogoljubow))",
    // Session 8: an :or of names alone is one player term (a union).
    ":or ((match :whiteplayer Euwe) (match :blackplayer Alekhine)) :year 1930 1940",
    ":or ((match :whiteplayer \"K*\") (match :blackplayer zzznobody) (match :player Bogoljubow))",
    ":or ((match :player Euwe) (match :player Euwe :year 1935))",
    ":not (match :player Alekhine) :year 1920 1930",
};

/// Filter terms of `filter`, `cqldb tree --year/--elo` and the web filters.
const std::vector<std::vector<std::string>> kFilterTerms = {
    {"year=1990..2000"}, {"year=2000.."},      {"year=..1900"},      {"year>1995"},
    {"year<1900"},       {"elo>=2500"},        {"whiteelo<2000"},    {"blackelo=2400..2500"},
    {"eco=B2"},          {"eco>B29"},          {"eco<C"},            {"eco=A00..B09", "year>=1990"},
    {"eco<=B99"},        {"eco>=E9"},          {"elo>2600", "result=1-0"}, {"player=carlsen", "year=2010.."},
    {"player=alekhine"}, {"white=alekhine", "black=euwe"}, {"black=Alekseev*"}, {"player=*max*", "result=0-1"},
    {"white=zzznobody"}, {"player=alekhine", "event~olympiad"},
};

/// Candidates of `filter` through the bitmaps and through SQL alone, which must agree.
Ids both_routes(const fs::path& dir, const headers::HeaderFilter& filter, uint32_t games, const std::string& what) {
  headers::HeaderStore store(dir);
  const Ids with = store.candidates(filter, games);
  store.use_header_bitmaps(false);
  const Ids without = store.candidates(filter, games);
  EXPECT_EQ(with, without) << what;
  return with;
}

headers::HeaderFilter match_filter(const std::string& items, bool flipped = false) {
  cql::Script script = cql::parse_or_throw("(match " + items + ")", "test.cql");
  return headers::HeaderFilter::compile(script.match, flipped);
}

headers::HeaderFilter terms_filter(const std::vector<std::string>& terms) {
  std::string error;
  std::optional<headers::HeaderFilter> f = headers::compile_filter_terms(terms, error);
  EXPECT_TRUE(f.has_value()) << error;
  return f ? *f : headers::HeaderFilter();
}

/// Every match list and filter term set of this file over `dir`: both routes equal; the
/// total of the answers' sizes (so that a caller can see they are not all empty).
size_t check_all(const fs::path& dir, uint32_t games) {
  size_t total = 0;
  for (const std::string& items : kMatchLists)
    for (bool flipped : {false, true}) total += both_routes(dir, match_filter(items, flipped), games, items).size();
  for (const auto& terms : kFilterTerms) total += both_routes(dir, terms_filter(terms), games, terms.front()).size();
  return total;
}

uint32_t import_into(const fs::path& dir, const std::vector<std::string>& files) {
  db::Database database = db::Database::create_or_open(dir);
  import::import_files(database, files, import::ImportOptions{}, nullptr);
  return database.reader().game_count();
}

}  // namespace

TEST(HeaderBitmaps, TopLevelYearEloAndEcoConditionsBecomeTerms) {
  EXPECT_EQ(match_filter(":year 1990 2000 :elo 2500 2600 :eco B00-99").bitmap_terms().size(), 3u);
  EXPECT_TRUE(match_filter(":year 1990 2000 :elo 2500 2600").rest_sql().empty());
  EXPECT_EQ(match_filter(":year 1990 :result 1-0").bitmap_terms().size(), 1u);
  EXPECT_FALSE(match_filter(":year 1990 :result 1-0").rest_sql().empty());
  // :date gives a year superset and stays SQL; logic over sub-lists stays SQL.
  EXPECT_EQ(match_filter(":date 1990-01-01 1995-12-31").bitmap_terms().size(), 1u);
  EXPECT_FALSE(match_filter(":date 1990-01-01 1995-12-31").rest_sql().empty());
  EXPECT_TRUE(match_filter(":or ((match :year 1990) (match :elo 2700 3000))").bitmap_terms().empty());
  EXPECT_EQ(terms_filter({"elo>=2500", "year=1990..2000", "result=1-0"}).bitmap_terms().size(), 3u);
}

TEST(HeaderBitmaps, TopLevelPlayerNamesBecomePlayerTerms) {
  const headers::HeaderFilter f = match_filter(":whiteplayer Kasparov :blackplayer \"Karpov*\" :year 1985");
  ASSERT_EQ(f.player_terms().size(), 2u);
  EXPECT_TRUE(f.player_terms()[0].white && !f.player_terms()[0].black);
  EXPECT_TRUE(!f.player_terms()[1].white && f.player_terms()[1].black);
  EXPECT_TRUE(f.rest_sql().empty());
  // Colours flipped: White's name is Black's column.
  const headers::HeaderFilter flipped = match_filter(":whiteplayer Kasparov", true);
  ASSERT_EQ(flipped.player_terms().size(), 1u);
  EXPECT_TRUE(!flipped.player_terms()[0].white && flipped.player_terms()[0].black);
  const headers::HeaderFilter either = match_filter(":player Kasparov :event Linares");
  ASSERT_EQ(either.player_terms().size(), 1u);
  EXPECT_TRUE(either.player_terms()[0].white && either.player_terms()[0].black);
  EXPECT_FALSE(either.rest_sql().empty());  // the event stays SQL
  // Inside logic over sub-lists a name stays SQL, but for an :or of names alone: one term
  // whose alternatives are the other names (colours flipped like the rest).
  EXPECT_FALSE(match_filter(":or ((match :player Euwe) (match :year 1930))").has_bitmap_terms());
  EXPECT_FALSE(match_filter(":or ((match :player Euwe) (match :player Euwe :year 1935))").has_bitmap_terms());
  const headers::HeaderFilter names =
      match_filter(":or ((match :whiteplayer Euwe) (match :blackplayer Aljechin)) :year 1935", true);
  ASSERT_EQ(names.player_terms().size(), 1u);
  ASSERT_EQ(names.player_terms()[0].alternatives.size(), 1u);
  EXPECT_TRUE(!names.player_terms()[0].white && names.player_terms()[0].black);
  EXPECT_TRUE(names.player_terms()[0].alternatives[0].white && !names.player_terms()[0].alternatives[0].black);
  EXPECT_TRUE(names.rest_sql().empty());
  const headers::HeaderFilter terms = terms_filter({"player=carlsen", "black=*sen", "event~olympiad"});
  EXPECT_EQ(terms.player_terms().size(), 2u);
  EXPECT_FALSE(terms.rest_sql().empty());
}

TEST(HeaderBitmaps, AFileOfTheVersionBeforeThePlayerColumnsIsAnsweredBySql) {
  cqltest::TempDir tmp("header-bitmaps-v1");
  const uint32_t games = import_into(tmp.db(), {kCorpus + "/mates.pgn", kSample + "/players-3000.pgn.zst"});
  const fs::path file = tmp.db() / db::kHeaderBitmapsFile;
  {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(8);
    const char v1[4] = {1, 0, 0, 0};
    f.write(v1, 4);
  }
  EXPECT_FALSE(db::HeaderBitmaps::open(tmp.db()).has_value());
  const size_t total = check_all(tmp.db(), games);  // the SQL route on both sides
  EXPECT_GT(total, 10000u);
  {
    db::Database database = db::Database::create_or_open(tmp.db());
    db::GameWriter writer = database.writer();
    const db::HeaderBitmapsUpdate u = db::update_header_bitmaps(database);
    EXPECT_TRUE(u.rebuilt);
    EXPECT_EQ(u.covered, games);
  }
  ASSERT_TRUE(db::HeaderBitmaps::open(tmp.db()).has_value());
  EXPECT_EQ(check_all(tmp.db(), games), total);
}

TEST(HeaderBitmaps, CheckFindsAGameInTwoPlayersBitmaps) {
  cqltest::TempDir tmp("header-bitmaps-players");
  const uint32_t games = import_into(tmp.db(), {kSample + "/mates-30.pgn"});
  ASSERT_GE(games, 3u);
  // A file of the right format whose White column lists game 2 under two players rows
  // (every other column as the builder makes it): only check() can tell.
  db::HeaderBitmapsBuilder builder;
  for (uint32_t id = 1; id <= games; ++id) {
    db::HeaderValues v{2000, 2500, 2500, 0, int32_t(id), int32_t(id + 1)};
    builder.add(id, v);
    if (id == 2) {
      v[size_t(db::HeaderColumn::kWhitePlayer)] = 1;
      builder.add(id, v);
    }
  }
  builder.write(tmp.db(), 1, games);
  std::optional<db::HeaderBitmaps> b = db::HeaderBitmaps::open(tmp.db());
  ASSERT_TRUE(b.has_value());
  uint64_t read = 0;
  const std::vector<std::string> problems = b->check(read);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("white player"), std::string::npos) << problems[0];
  const cqltest::Outcome r = cqltest::run_cqldb({"check", "--db", tmp.db().string()}, tmp.path);
  EXPECT_NE(r.code, 0);
  EXPECT_NE((r.out + r.err).find("white player"), std::string::npos) << r.out << r.err;
  // reindex rebuilds it from headers.sqlite.
  const cqltest::Outcome re = cqltest::run_cqldb({"reindex", "--db", tmp.db().string()}, tmp.path);
  ASSERT_EQ(re.code, 0) << re.out << re.err;
  b = db::HeaderBitmaps::open(tmp.db());
  ASSERT_TRUE(b.has_value());
  EXPECT_TRUE(b->check(read).empty());
  EXPECT_EQ(b->covered(), games);
  check_all(tmp.db(), games);
}

TEST(HeaderBitmaps, AnswersEqualSqlOverTheSamples) {
  cqltest::TempDir tmp("header-bitmaps");
  const uint32_t games = import_into(tmp.db(), {kCorpus + "/mates.pgn", kCorpus + "/studies.pgn",
                                                kSample + "/players-3000.pgn.zst"});
  ASSERT_GT(games, 3000u);
  std::optional<db::HeaderBitmaps> bitmaps = db::HeaderBitmaps::open(tmp.db());
  ASSERT_TRUE(bitmaps.has_value());
  EXPECT_EQ(bitmaps->covered(), games);
  uint64_t read = 0;
  EXPECT_TRUE(bitmaps->check(read).empty());
  EXPECT_GT(read, 100u);
  EXPECT_GT(check_all(tmp.db(), games), 10000u);
  // A query that counts fewer games than the database holds gets only those.
  const Ids few = both_routes(tmp.db(), match_filter(":year *"), 100, "first 100");
  ASSERT_FALSE(few.empty());
  EXPECT_LE(few.back(), 100u);
}

TEST(HeaderBitmaps, AppendsAddSegmentsAndAnswerAsARebuild) {
  cqltest::TempDir tmp("header-bitmaps-append");
  // Largest first, so that the later imports stay segments of their own (the earlier
  // segment is larger: no merge), then a larger one that merges them.
  import_into(tmp.db(), {kSample + "/players-3000.pgn.zst"});
  import_into(tmp.db(), {kCorpus + "/mates.pgn"});
  std::optional<db::HeaderBitmaps> two = db::HeaderBitmaps::open(tmp.db());
  ASSERT_TRUE(two.has_value());
  EXPECT_EQ(two->segments(), 2u);
  two.reset();
  import_into(tmp.db(), {kCorpus + "/studies.pgn"});
  const uint32_t games = import_into(tmp.db(), {kSample + "/players-3000.pgn.zst"});
  std::optional<db::HeaderBitmaps> chain = db::HeaderBitmaps::open(tmp.db());
  ASSERT_TRUE(chain.has_value());
  EXPECT_EQ(chain->covered(), games);
  uint64_t read = 0;
  EXPECT_TRUE(chain->check(read).empty());
  check_all(tmp.db(), games);
  // The same answers as bitmaps rebuilt from headers.sqlite in one file.
  std::vector<Ids> appended;
  for (const std::string& items : kMatchLists) appended.push_back(headers::HeaderStore(tmp.db()).candidates(match_filter(items), games));
  {
    db::Database database = db::Database::create_or_open(tmp.db());
    db::GameWriter writer = database.writer();
    const db::HeaderBitmapsUpdate u = db::update_header_bitmaps(database, /*rebuild=*/true);
    EXPECT_TRUE(u.rebuilt);
    EXPECT_EQ(u.segments, 1u);
  }
  for (size_t i = 0; i < kMatchLists.size(); ++i)
    EXPECT_EQ(headers::HeaderStore(tmp.db()).candidates(match_filter(kMatchLists[i]), games), appended[i])
        << kMatchLists[i];
}

TEST(HeaderBitmaps, MissingOrBehindFilesFallBackToSql) {
  cqltest::TempDir tmp("header-bitmaps-missing");
  import_into(tmp.db(), {kSample + "/players-3000.pgn.zst"});
  const uint32_t games = import_into(tmp.db(), {kCorpus + "/studies.pgn"});
  // The last segment gone (an import killed before its catch-up): the bitmaps cover the
  // first import, SQL answers for the games above.
  bool removed = false;
  for (const auto& e : fs::directory_iterator(tmp.db()))
    if (e.path().extension() == ".seg" && e.path().filename().string().rfind("header-bitmaps-", 0) == 0)
      removed = fs::remove(e.path());
  ASSERT_TRUE(removed);
  ASSERT_LT(db::HeaderBitmaps::open(tmp.db())->covered(), games);
  check_all(tmp.db(), games);
  // No file at all (a database made before them): SQL alone.
  db::remove_header_bitmaps(tmp.db());
  EXPECT_FALSE(db::HeaderBitmaps::open(tmp.db()).has_value());
  check_all(tmp.db(), games);
  // The next writer's catch-up builds them from headers.sqlite.
  {
    db::Database database = db::Database::create_or_open(tmp.db());
    db::GameWriter writer = database.writer();
    const db::HeaderBitmapsUpdate u = db::update_header_bitmaps(database);
    EXPECT_TRUE(u.rebuilt);
    EXPECT_EQ(u.covered, games);
  }
  EXPECT_EQ(db::HeaderBitmaps::open(tmp.db())->covered(), games);
  check_all(tmp.db(), games);
}

TEST(HeaderBitmaps, DamagedFileIsAClearFormatError) {
  cqltest::TempDir tmp("header-bitmaps-damaged");
  const uint32_t games = import_into(tmp.db(), {kSample + "/players-3000.pgn.zst"});
  const fs::path file = tmp.db() / db::kHeaderBitmapsFile;
  const uintmax_t size = fs::file_size(file);
  ASSERT_GT(size, 1000u);
  // A byte of the bitmaps changed: the bitmap's checksum fails when a filter reads it.
  {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(std::streamoff(size - 10));
    char c = 0;
    f.read(&c, 1);
    f.seekp(std::streamoff(size - 10));
    c = char(c ^ 0x5a);
    f.write(&c, 1);
  }
  headers::HeaderStore store(tmp.db());
  bool thrown = false;
  for (const char* items : {":year *", ":year -", ":elo *", ":elo -", ":eco *", ":eco -", ":whiteplayer \"*\"",
                            ":blackplayer \"*\""}) {
    try {
      store.candidates(match_filter(items), games);
    } catch (const db::FormatError& e) {
      thrown = true;
      EXPECT_NE(std::string(e.what()).find("header-bitmaps.bin is damaged"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("cqldb reindex"), std::string::npos) << e.what();
    }
  }
  EXPECT_TRUE(thrown);
  uint64_t read = 0;
  EXPECT_FALSE(db::HeaderBitmaps::open(tmp.db())->check(read).empty());
  // A truncated table: the open fails clearly.
  fs::resize_file(file, 60);
  EXPECT_THROW(db::HeaderBitmaps::open(tmp.db()), db::FormatError);
  EXPECT_THROW(headers::HeaderStore(tmp.db()).candidates(match_filter(":year 2000"), games), db::FormatError);
  // Not even the magic: the same.
  fs::resize_file(file, 4);
  EXPECT_THROW(db::HeaderBitmaps::open(tmp.db()), db::FormatError);
  // The next writer rebuilds a damaged file.
  {
    db::Database database = db::Database::create_or_open(tmp.db());
    db::GameWriter writer = database.writer();
    EXPECT_TRUE(db::update_header_bitmaps(database).rebuilt);
  }
  check_all(tmp.db(), games);
}

TEST(HeaderBitmaps, EveryChangedByteIsCaughtOrHarmless) {
  // Each byte of a small file changed in turn (two ways): opening and reading every bitmap
  // either throws db::FormatError, ignores the file (another version), or answers as the
  // intact file does; never a crash, never another answer.
  cqltest::TempDir tmp("header-bitmaps-bytes");
  const uint32_t games = import_into(tmp.db(), {kSample + "/mates-30.pgn", kSample + "/studies-30.pgn"});
  const fs::path file = tmp.db() / db::kHeaderBitmapsFile;
  std::string intact;
  {
    std::ifstream in(file, std::ios::binary);
    intact.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  ASSERT_GT(intact.size(), 200u);
  using db::HeaderColumn;
  const std::vector<std::vector<db::BitmapTerm>> queries = {
      {{{HeaderColumn::kYear, db::kNoValue, db::kMaxValue}}},
      {{{HeaderColumn::kWhiteElo, db::kNoValue, db::kMaxValue}}},
      {{{HeaderColumn::kBlackElo, db::kNoValue, db::kMaxValue}}},
      {{{HeaderColumn::kOpeningEco, db::kNoValue, db::kMaxValue}}},
      {{{HeaderColumn::kYear, 1900, 2000}}, {{HeaderColumn::kOpeningEco, db::kNoValue, db::kNoValue}}},
      {{{HeaderColumn::kWhiteElo, 2000, 2800}, {HeaderColumn::kBlackElo, db::kNoValue, 0}}},
      {{{HeaderColumn::kWhitePlayer, db::kNoValue, db::kMaxValue}}},
      {{{HeaderColumn::kBlackPlayer, db::kNoValue, db::kMaxValue}}},
      {{{HeaderColumn::kWhitePlayer, 1, 5}}, {{HeaderColumn::kBlackPlayer, 3, 40}}},
  };
  std::vector<Ids> want;
  for (const auto& q : queries) want.push_back(db::HeaderBitmaps::open(tmp.db())->select(q, games));
  EXPECT_EQ(want[0].size(), games);
  size_t caught = 0, ignored = 0, same = 0;
  for (size_t i = 0; i < intact.size(); ++i)
    for (uint8_t mask : {uint8_t(0x01), uint8_t(0xa5)}) {
      std::string bytes = intact;
      bytes[i] = char(uint8_t(bytes[i]) ^ mask);
      {
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), std::streamsize(bytes.size()));
      }
      try {
        const std::optional<db::HeaderBitmaps> b = db::HeaderBitmaps::open(tmp.db());
        if (!b) {
          ++ignored;
          continue;
        }
        for (size_t q = 0; q < queries.size(); ++q)
          ASSERT_EQ(b->select(queries[q], games), want[q]) << "byte " << i << " ^ " << int(mask);
        ++same;
      } catch (const db::FormatError&) {
        ++caught;
      }
    }
  EXPECT_GT(caught, intact.size());  // nearly every change
  EXPECT_GT(ignored, 0u);            // the version field
  std::printf("[ header bitmaps ] %zu bytes: %zu changes caught, %zu ignored, %zu harmless\n", intact.size(), caught,
              ignored, same);
}
