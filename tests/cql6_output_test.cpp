// A CQL 6 script's `output FILE` (issue 36; SPEC-NOTES "CQL 6 scripts: decisions", Output):
// the matched games as CQL 6.2 marks them, `{Game number N}` opening each game and `CQL` at
// each matched position, joined to the game's own comment at that place; `quiet` drops the
// `CQL` marks, `silent` both. `--format pgn` keeps cqldb's `{MATCH}` comments. The expected
// shapes are what CQL 6.2 (build 9.493) writes for the same games.

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "cli_test_util.h"

namespace {

namespace fs = std::filesystem;

// Game 1: a comment before the first move, a NAG and a comment after the mating move;
// game 2: no comment at all.
constexpr const char* kPgn =
    "[Event \"a\"]\n[Result \"1-0\"]\n\n"
    "{Opening note} 1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# $1 {mate} 1-0\n\n"
    "[Event \"b\"]\n[Result \"0-1\"]\n\n"
    "1. f3 e5 2. g4 Qh4# 0-1\n\n";

class Cql6Output : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("cqldb-cql6-output-" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::ofstream(dir_ / "games.pgn") << kPgn;
    db_ = (dir_ / "db").string();
    ASSERT_EQ(cqltest::run_cqldb({"import", "--db", db_, (dir_ / "games.pgn").string()}, dir_).code, 0);
  }
  void TearDown() override { fs::remove_all(dir_); }

  /// Runs `script` (its header's `output OUT` becomes this test's out.pgn) and returns that
  /// file with blanks made single.
  std::string output_of(std::string script) {
    const std::string quoted = "\"" + (dir_ / "out.pgn").string() + "\"";
    script.replace(script.find("output OUT"), 10, "output " + quoted);
    std::ofstream(dir_ / "s.cql") << script;
    fs::remove(dir_ / "out.pgn");
    const cqltest::Outcome r = cqltest::run_cqldb({"query", "--db", db_, (dir_ / "s.cql").string()}, dir_);
    EXPECT_EQ(r.code, 0) << r.err;
    std::ifstream in(dir_ / "out.pgn");
    std::stringstream text;
    text << in.rdbuf();
    std::string flat;
    for (char ch : text.str()) {
      if (ch == '\n') ch = ' ';
      if (ch == ' ' && !flat.empty() && flat.back() == ' ') continue;
      flat += ch;
    }
    return flat;
  }

  fs::path dir_;
  std::string db_;
};

TEST_F(Cql6Output, MarksAsCql62) {
  const std::string out = output_of("cql(input games.pgn output OUT)\nmate\n");
  EXPECT_NE(out.find("{Opening note Game number 1} 1. e4"), std::string::npos) << out;
  EXPECT_NE(out.find("4. Qxf7# $1 {mate CQL} 1-0"), std::string::npos) << out;
  EXPECT_NE(out.find("{Game number 2} 1. f3"), std::string::npos) << out;
  EXPECT_NE(out.find("2. g4 Qh4# {CQL} 0-1"), std::string::npos) << out;
  EXPECT_EQ(out.find("MATCH"), std::string::npos) << out;
}

TEST_F(Cql6Output, StartPositionMarkJoinsTheFirstComment) {
  const std::string out = output_of("cql(input games.pgn output OUT)\ninitial\n");
  EXPECT_NE(out.find("{Opening note Game number 1 CQL} 1. e4"), std::string::npos) << out;
  EXPECT_NE(out.find("{Game number 2 CQL} 1. f3"), std::string::npos) << out;
}

TEST_F(Cql6Output, QuietAndSilent) {
  std::string out = output_of("cql(input games.pgn output OUT quiet)\nmate\n");
  EXPECT_NE(out.find("{Opening note Game number 1}"), std::string::npos) << out;
  EXPECT_NE(out.find("4. Qxf7# $1 {mate} 1-0"), std::string::npos) << out;
  EXPECT_EQ(out.find("CQL"), std::string::npos) << out;
  out = output_of("cql(input games.pgn output OUT silent)\nmate\n");
  EXPECT_NE(out.find("{Opening note} 1. e4"), std::string::npos) << out;
  EXPECT_EQ(out.find("Game number"), std::string::npos) << out;
  EXPECT_EQ(out.find("CQL"), std::string::npos) << out;
}

// CQL 6.2's output for the same scripts: "{mate HERE}", "Qh4# {HERE}"; with "" no mark.
TEST_F(Cql6Output, MatchstringIsTheMark) {
  std::string out = output_of("cql(input games.pgn output OUT matchstring \"HERE\")\nmate\n");
  EXPECT_NE(out.find("{Opening note Game number 1} 1. e4"), std::string::npos) << out;
  EXPECT_NE(out.find("4. Qxf7# $1 {mate HERE} 1-0"), std::string::npos) << out;
  EXPECT_NE(out.find("2. g4 Qh4# {HERE} 0-1"), std::string::npos) << out;
  EXPECT_EQ(out.find("CQL"), std::string::npos) << out;
  out = output_of("cql(input games.pgn output OUT matchstring \"\")\nmate\n");
  EXPECT_NE(out.find("4. Qxf7# $1 {mate} 1-0"), std::string::npos) << out;
  EXPECT_NE(out.find("{Game number 2} 1. f3 e5 2. g4 Qh4# 0-1"), std::string::npos) << out;
  EXPECT_EQ(out.find("CQL"), std::string::npos) << out;
}

// A path from the main line into the variations (`variations`): the comments of its best
// way only (the first of two equally long ones), written inside the variation, as CQL 6.2
// writes them for this game: `1.e4 ( 1.d4 {entered} 1...d5 {reply} ) ( 1.c4 e5 ) 1...e5
// 2.Nf3 ( 2.Nc3 {entered} 2...Nc6 {reply} ) 2...Nc6 *`.
TEST_F(Cql6Output, PathCommentsInsideVariations) {
  std::ofstream(dir_ / "v.pgn") << "[Event \"v\"]\n[Result \"*\"]\n\n"
                                   "1. e4 (1. d4 d5) (1. c4 e5) 1... e5 2. Nf3 (2. Nc3 Nc6) 2... Nc6 *\n\n";
  db_ = (dir_ / "vdb").string();  // output_of() queries this database
  ASSERT_EQ(cqltest::run_cqldb({"import", "--db", db_, (dir_ / "v.pgn").string()}, dir_).code, 0);
  const std::string out = output_of(
      "cql(input v.pgn output OUT variations quiet)\nmainline\n"
      "\u22a2 \u2015\u2015 secondary ///\"entered\"\n  \u2015\u2015 ///\"reply\"\n");
  EXPECT_NE(out.find("1. e4 (1. d4 {entered} 1... d5 {reply}) (1. c4 e5) 1... e5 2. Nf3 (2. Nc3 {entered} "
                     "2... Nc6 {reply}) 2... Nc6 *"),
            std::string::npos)
      << out;
}

TEST_F(Cql6Output, FormatPgnKeepsCqldbMarks) {
  std::ofstream(dir_ / "s.cql") << "cql(input games.pgn)\nmate\n";
  const cqltest::Outcome r =
      cqltest::run_cqldb({"query", "--db", db_, (dir_ / "s.cql").string(), "--format", "pgn"}, dir_);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("{MATCH}"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("Game number"), std::string::npos) << r.out;
}

}  // namespace
