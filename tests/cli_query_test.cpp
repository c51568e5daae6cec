// `cqldb query` end to end: runs the real binary (CQLDB_BINARY) on a database imported from
// the corpus and checks exit codes, located error messages and the output formats.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "db/database.h"
#include "cli_test_util.h"
#include "import/importer.h"
#include "temp_dir.h"

namespace fs = std::filesystem;

namespace {

using cqltest::Outcome;
using cqltest::read_file;

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

class CliQueryTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new cqltest::TempDir("cli-query");
    dir_ = &tmp_->path;
    // A game whose names need JSON escaping.
    std::ofstream(*dir_ / "escape.pgn", std::ios::binary)
        << "[Event \"Tab\there\"]\n[Site \"?\"]\n[Date \"2001.02.03\"]\n[Round \"1\"]\n"
           "[White \"O'Kelly \\\"Q\\\" \\\\ \xC3\x9cnal\"]\n[Black \"Zz\"]\n[Result \"0-1\"]\n\n"
           "1. f3 e5 2. g4 Qh4# 0-1\n\n";
    db::Database database = db::Database::create_or_open(*dir_ / "db");
    import::import_files(database,
                         {std::string(CQLDB_CORPUS_DIR) + "/mates.pgn",
                          std::string(CQLDB_SOURCE_DIR) + "/examples/sample/players-3000.pgn.zst",
                          (*dir_ / "escape.pgn").string()},
                         import::ImportOptions{}, nullptr);
  }
  static void TearDownTestSuite() {
    delete tmp_;
    tmp_ = nullptr;
    dir_ = nullptr;
  }

  /// Runs `cqldb query --db DB ARGS...`.
  static Outcome query(const std::vector<std::string>& args, bool with_db = true) {
    std::vector<std::string> all{"query"};
    if (with_db) all.insert(all.end(), {"--db", (*dir_ / "db").string()});
    all.insert(all.end(), args.begin(), args.end());
    return cqltest::run_cqldb(all, *dir_);
  }

  /// Writes `text` to a script file and returns its path.
  static std::string script(const std::string& name, const std::string& text) {
    fs::path p = *dir_ / name;
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }

  static cqltest::TempDir* tmp_;
  static const fs::path* dir_;  ///< tmp_->path
};

cqltest::TempDir* CliQueryTest::tmp_ = nullptr;
const fs::path* CliQueryTest::dir_ = nullptr;

const char* kAlekhineMates = "(match :player Alekhine (position :mate))";

TEST_F(CliQueryTest, UnknownKeywordIsLocated) {
  std::string path = script("unknown.cql", "; comment\n(match\n  (position :foo))\n");
  Outcome r = query({path});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.rfind(path + ":3:13: unknown keyword ':foo'", 0), 0u) << r.err;
  EXPECT_TRUE(r.out.empty());
}

TEST_F(CliQueryTest, UnbalancedParenthesisInExpression) {
  Outcome r = query({"-e", "(match (position :mate)"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(std::regex_search(r.err, std::regex("^-e:1:[0-9]+: "))) << r.err;
  EXPECT_NE(r.err.find("parenthes"), std::string::npos) << r.err;
}

TEST_F(CliQueryTest, KeywordCompileErrorIsLocated) {
  // Since issue 17 every match-list keyword answers; an unknown title is a compile error.
  std::string path =
      script("badtitle.cql", "(match\n  :title XYZ\n  (position :mate))\n");
  Outcome r = query({path});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.rfind(path + ":2:3: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("XYZ"), std::string::npos) << r.err;
}

TEST_F(CliQueryTest, WrongArgumentIsLocated) {
  Outcome r = query({"-e", "(match\n :year 2000 1990)"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.rfind("-e:2:", 0), 0u) << r.err;
}

TEST_F(CliQueryTest, UsageErrors) {
  EXPECT_EQ(query({}).code, 2);                                             // no script
  EXPECT_EQ(query({"-e", "(match)", script("x.cql", "(match)")}).code, 2);  // both
  EXPECT_EQ(query({"-e", "(match)", "--format", "xml"}).code, 2);
  EXPECT_EQ(query({(*dir_ / "missing.cql").string()}).code, 2);
  EXPECT_EQ(query({"-e", "(match)"}, false).code, 2);  // no --db
}

TEST_F(CliQueryTest, IdsAscendingWithSummary) {
  Outcome r = query({"-e", kAlekhineMates, "--format", "ids"});
  ASSERT_EQ(r.code, 0) << r.err;
  std::vector<std::string> ids = lines(r.out);
  ASSERT_GT(ids.size(), 10u);
  uint32_t previous = 0;
  for (const std::string& line : ids) {
    ASSERT_TRUE(std::regex_match(line, std::regex("[0-9]+"))) << line;
    uint32_t id = uint32_t(std::stoul(line));
    EXPECT_GT(id, previous);
    previous = id;
  }
  std::regex summary("^" + std::to_string(ids.size()) +
                     " matches, [0-9,]+ games searched, [0-9.]+ s.*\n$");
  EXPECT_TRUE(std::regex_search(r.err, summary)) << r.err;
}

TEST_F(CliQueryTest, JsonLinesCarryHeaderAndMatchedPlies) {
  Outcome ids = query({"-e", kAlekhineMates, "--format", "ids"});
  Outcome r = query({"-e", kAlekhineMates, "--format", "jsonl"});
  ASSERT_EQ(r.code, 0) << r.err;
  std::vector<std::string> objects = lines(r.out);
  ASSERT_EQ(objects.size(), lines(ids.out).size());
  std::regex shape(
      "\\{\"id\":([0-9]+),\"file\":\"([^\"]*)\",\"ordinal\":([0-9]+),"
      "\"white\":\"([^\"]*)\",\"black\":\"([^\"]*)\",\"event\":\"[^\"]*\",\"site\":\"[^\"]*\","
      "\"date\":\"[^\"]*\",\"round\":\"[^\"]*\",\"result\":\"(1-0|0-1|1/2-1/2|\\*)\","
      "\"white_elo\":(?:[0-9]+|null),\"black_elo\":(?:[0-9]+|null),\"eco\":\"[^\"]*\",\"opening\":\"[^\"]*\","
      "\"game_plies\":([0-9]+),\"time_control\":(?:\"[^\"]*\"|null),\"plies\":\\[([0-9]+)\\]\\}");
  for (size_t i = 0; i < objects.size(); ++i) {
    std::smatch m;
    ASSERT_TRUE(std::regex_match(objects[i], m, shape)) << objects[i];
    EXPECT_EQ(m[1].str(), lines(ids.out)[i]);
    // mates.pgn (914 games, all imported) comes first, then the sample file.
    uint32_t id = uint32_t(std::stoul(m[1].str())), ordinal = uint32_t(std::stoul(m[3].str()));
    if (m[2].str().ends_with("/mates.pgn")) {
      EXPECT_EQ(ordinal, id);
    } else {
      EXPECT_TRUE(m[2].str().ends_with("/players-3000.pgn.zst")) << m[2].str();
      EXPECT_EQ(ordinal, id - 914);
    }
    EXPECT_TRUE(m[4].str().find("Alekhine") != std::string::npos ||
                m[5].str().find("Alekhine") != std::string::npos);
    EXPECT_EQ(m[8].str(), m[7].str());  // the mate is the last position
  }
}

TEST_F(CliQueryTest, JsonEscapesNames) {
  Outcome r = query({"-e", "(match :player kelly)", "--format", "jsonl"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\"white\":\"O'Kelly \\\"Q\\\" \\\\ \xC3\x9cnal\""), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\"event\":\"Tab\\there\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"plies\":[]"), std::string::npos) << r.out;  // header-only query
}

TEST_F(CliQueryTest, PgnMarksMatches) {
  Outcome ids = query({"-e", kAlekhineMates, "--format", "ids"});
  Outcome r = query({"-e", kAlekhineMates, "--format", "pgn"});
  ASSERT_EQ(r.code, 0) << r.err;
  size_t games = lines(ids.out).size();
  EXPECT_EQ(count_of(r.out, "[Event "), games);
  EXPECT_EQ(count_of(r.out, "{MATCH}"), games);
  EXPECT_TRUE(std::regex_search(r.out, std::regex("# \\{MATCH\\} (1-0|0-1)")));
}

TEST_F(CliQueryTest, TableHasHeaderAndOneRowPerGame) {
  Outcome r = query({"-e", kAlekhineMates, "--format", "table"});
  ASSERT_EQ(r.code, 0) << r.err;
  std::vector<std::string> rows = lines(r.out);
  ASSERT_GT(rows.size(), 1u);
  EXPECT_TRUE(
      std::regex_search(rows[0], std::regex("^id +White +Black +Elo +result +date +ECO +event +opening +ply$")))
      << rows[0];
  EXPECT_EQ(rows.size() - 1, lines(query({"-e", kAlekhineMates, "--format", "ids"}).out).size());
}

TEST_F(CliQueryTest, LimitAndOutputFile) {
  std::vector<std::string> all = lines(query({"-e", kAlekhineMates, "--format", "ids"}).out);
  std::string file = (*dir_ / "first5.txt").string();
  Outcome r = query(
      {"-e", kAlekhineMates, "--format", "ids", "--limit", "5", "-o", file, "--threads", "1"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(r.out.empty());
  std::vector<std::string> first = lines(read_file(file));
  ASSERT_EQ(first.size(), 5u);
  EXPECT_TRUE(std::equal(first.begin(), first.end(), all.begin()));
}

TEST_F(CliQueryTest, ScriptFromFileWithEitherColor) {
  std::string path = script(
      "either.cql", "(match :eithercolor :whiteplayer Alekhine :result 1-0 :year 1930 1935)");
  Outcome r = query({path, "--format", "ids"});
  ASSERT_EQ(r.code, 0) << r.err;
  Outcome white =
      query({"-e", "(match :whiteplayer Alekhine :result 1-0 :year 1930 1935)", "--format", "ids"});
  Outcome black =
      query({"-e", "(match :blackplayer Alekhine :result 0-1 :year 1930 1935)", "--format", "ids"});
  std::vector<std::string> both = lines(white.out);
  for (const std::string& id : lines(black.out)) both.push_back(id);
  std::sort(both.begin(), both.end(), [](const std::string& a, const std::string& b) {
    return std::stoul(a) < std::stoul(b);
  });
  both.erase(std::unique(both.begin(), both.end()), both.end());
  EXPECT_FALSE(both.empty());
  EXPECT_EQ(lines(r.out), both);
}

}  // namespace
