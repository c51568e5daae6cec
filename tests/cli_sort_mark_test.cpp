// `cqldb query --sort`, the shell's `list ... sort by ...` (one order, HeaderStore::sort_ids),
// and `cqldb mark` / the shell's `mark` with match:hasmarker, end to end on the real binary
// over the players sample (issue 17 B).
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli_test_util.h"
#include "db/database.h"
#include "import/importer.h"
#include "temp_dir.h"

namespace {

using cqltest::Outcome;

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

class CliSortMarkTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new cqltest::TempDir("cli-sort");
    db::Database database = db::Database::create_or_open(tmp_->db());
    import::import_files(database, {std::string(CQLDB_SOURCE_DIR) + "/examples/sample/players-3000.pgn.zst"},
                         import::ImportOptions{}, nullptr);
  }
  static void TearDownTestSuite() { delete tmp_; }

  static Outcome run(std::vector<std::string> args) {
    args.insert(args.begin() + 1, {"--db", tmp_->db().string()});
    return cqltest::run_cqldb(args, tmp_->path);
  }

  /// The `"key":"value"` (or number) of every jsonl line.
  static std::vector<std::string> field(const std::string& jsonl, const std::string& key) {
    std::vector<std::string> out;
    const std::regex re("\"" + key + "\":(\"[^\"]*\"|[0-9]+|null)");
    for (const std::string& l : lines(jsonl)) {
      std::smatch m;
      if (std::regex_search(l, m, re)) out.push_back(m[1].str());
    }
    return out;
  }

  static cqltest::TempDir* tmp_;
};

cqltest::TempDir* CliSortMarkTest::tmp_ = nullptr;

/// "1921.03.??" -> 19210300 (unknown parts 00), -1 without a year.
long date_key(std::string d) {
  d = d.substr(1, d.size() - 2);
  if (d.size() < 10 || d[0] == '?') return -1;
  auto part = [&](size_t at, size_t n) { return d[at] == '?' ? 0L : std::stol(d.substr(at, n)); };
  return part(0, 4) * 10000 + part(5, 2) * 100 + part(8, 2);
}

TEST_F(CliSortMarkTest, QuerySortsByDateBothWays) {
  const char* q = "(match :player Alekhine)";
  for (bool reversed : {false, true}) {
    Outcome r = run({"query", "-e", q, "--format", "jsonl", "--sort", reversed ? "-date" : "date"});
    ASSERT_EQ(r.code, 0) << r.err;
    std::vector<std::string> dates = field(r.out, "date");
    ASSERT_GT(dates.size(), 20u);
    std::vector<long> keys;
    for (const std::string& d : dates) keys.push_back(date_key(d));
    bool seen_unknown = false;
    for (size_t i = 1; i < keys.size(); ++i) {
      if (keys[i] < 0) {
        seen_unknown = true;
        continue;
      }
      EXPECT_FALSE(seen_unknown) << "a dated game after an undated one";
      EXPECT_TRUE(reversed ? keys[i - 1] >= keys[i] : keys[i - 1] <= keys[i]) << dates[i - 1] << " " << dates[i];
    }
    EXPECT_NE(keys.front(), keys.back());
  }
}

TEST_F(CliSortMarkTest, QuerySortsByEloAndNamesAndRejectsUnknownKeys) {
  Outcome r = run({"query", "-e", "(match :year 1990 2000)", "--format", "jsonl", "--sort", "elo"});
  ASSERT_EQ(r.code, 0) << r.err;
  std::vector<std::string> w = field(r.out, "white_elo"), b = field(r.out, "black_elo");
  ASSERT_EQ(w.size(), b.size());
  ASSERT_GT(w.size(), 20u);
  auto average = [](const std::string& x, const std::string& y) {
    long a = x == "null" ? 0 : std::stol(x), c = y == "null" ? 0 : std::stol(y);
    return a && c ? (a + c) / 2 : a + c;
  };
  for (size_t i = 1; i < w.size(); ++i)
    if (average(w[i], b[i])) {
      EXPECT_GE(average(w[i - 1], b[i - 1]), average(w[i], b[i])) << i;
    }
  Outcome names = run({"query", "-e", "(match :year 1990 2000)", "--format", "jsonl", "--sort", "white"});
  ASSERT_EQ(names.code, 0) << names.err;
  std::vector<std::string> whites = field(names.out, "white");
  for (size_t i = 1; i < whites.size(); ++i) {
    std::string a = whites[i - 1], c = whites[i];
    for (char& ch : a) ch = char(std::tolower(static_cast<unsigned char>(ch)));
    for (char& ch : c) ch = char(std::tolower(static_cast<unsigned char>(ch)));
    EXPECT_LE(a, c);
  }
  Outcome bad = run({"query", "-e", "(match)", "--sort", "colour"});
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("cannot sort by 'colour'"), std::string::npos) << bad.err;
}

TEST_F(CliSortMarkTest, ShellListSortsLikeQuery) {
  Outcome q = run({"query", "-e", "(match :player Capablanca)", "--format", "ids", "--sort", "-date"});
  ASSERT_EQ(q.code, 0) << q.err;
  Outcome s = run({"shell", "-c", "filter player=Capablanca; list 10 sort by -date"});
  ASSERT_EQ(s.code, 0) << s.err;
  std::vector<std::string> ids;
  bool rows = false;  // after the table's heading
  for (const std::string& l : lines(s.out)) {
    std::smatch m;
    if (l.rfind("id ", 0) == 0) rows = true;
    else if (rows && std::regex_search(l, m, std::regex("^([0-9]+) "))) ids.push_back(m[1].str());
  }
  std::vector<std::string> want = lines(q.out);
  want.resize(std::min<size_t>(10, want.size()));
  EXPECT_EQ(ids, want) << s.out;
}

TEST_F(CliSortMarkTest, MarkSetsFindsAndClears) {
  Outcome set = run({"mark", "--id", "12", "--marker", "w"});
  ASSERT_EQ(set.code, 0) << set.err;
  EXPECT_EQ(set.out, "game 12 markers: w\n");
  EXPECT_EQ(run({"mark", "--id", "40", "--marker", "!"}).code, 0);
  EXPECT_EQ(run({"query", "-e", "(match :hasmarker)", "--format", "ids"}).out, "12\n40\n");
  EXPECT_EQ(run({"query", "-e", "(match :hasmarker w,b)", "--format", "ids"}).out, "12\n");
  Outcome shell = run({"shell", "-c", "mark 40 t; mark 12 -w"});
  ASSERT_EQ(shell.code, 0) << shell.err;
  EXPECT_NE(shell.out.find("game 40 markers: t!"), std::string::npos) << shell.out;
  EXPECT_EQ(run({"query", "-e", "(match :hasmarker)", "--format", "ids"}).out, "40\n");
  EXPECT_EQ(run({"mark", "--id", "40", "--clear"}).code, 0);
  EXPECT_EQ(run({"query", "-e", "(match :hasmarker)", "--format", "ids"}).out, "");
  Outcome bad = run({"mark", "--id", "40", "--marker", "z"});
  EXPECT_EQ(bad.code, 1);
  EXPECT_NE(bad.err.find("unknown game marker 'z'"), std::string::npos) << bad.err;
  EXPECT_EQ(run({"mark", "--id", "99999", "--marker", "w"}).code, 1);
  EXPECT_EQ(run({"mark", "--id", "3"}).code, 2);
}

}  // namespace
