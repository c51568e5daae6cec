// Issue 40, item 1: `--limit` meets `--sort` (query::ExecuteOptions::sort and limit): the
// answer is the first N of the sorted answer, never the first N found, sorted; the summary
// says "3 of 76 matches". Checked for 30 queries and every sort key on a players-344k slice
// (the executor directly), and on the sample through the command (the example) and
// the shell's `list`.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "cli_test_util.h"
#include "eval_corpus_db.h"
#include "headers/game_order.h"
#include "query/executor.h"
#include "query/query.h"
#include "temp_dir.h"

namespace {

/// 30 queries of different kinds (bench/bench_queries.h's suite, headers-only, negated and
/// alternatives among them).
const char* const kQueries[] = {
    "(match (position Ra3))",
    "(match (position :piececount [Qq] 0 :piececount [RrBbNn] 0 :piececount P 2 :piececount p 1))",
    "(match (position :mate))",
    "(match (position :doublecheck))",
    "(match (position :check :movenumber 60 1000))",
    "(match (position :promote [RBNrbn]))",
    "(match (position :enpassant :movenumber 1 15))",
    "(match (position :iscastling [Qq] :movenumber >=20))",
    "(match (position :ray (R n k) :flipcolor))",
    "(match (position :flipcolor :btm :attackcount N k 1 :attackcount N q 1 :piececount N 1))",
    "(match (position Ke4 ke6 :shift :flip :wtm))",
    "(match (position :flipcolor :mate R?8 k?8 :btm))",
    "(match :player Alekhine (position :mate))",
    "(match :whiteelo >=2600 (position :stalemate))",
    "(match (position :result 1-0 :mate :btm :piececount [Qq] 0))",
    "(match (position :piececount [QqRrNn] 0 :piececount B 1 :piececount b 1 :piececount BL? 1 :piececount bD? 1 :flipcolor))",
    "(match (position :flipcolor R?7 k?8 :piececount [QqBbNn] 0))",
    "(match (position :fen \"rnbqkbnr/ppp2ppp/4p3/3p4/3PP3/8/PPP2PPP/RNBQKBNR w KQkq - 0 3\"))",
    "(match (position :iscastling :movenumber >=25))",
    "(match (position :flipcolor :pawncount P[d?] isolated >0 :movenumber >=15))",
    "(match (position :pawncount [Pp] isolated-double >0 :movenumber >=40))",
    "(match (position Nd4 kf3 :shift :flip :flipcolor))",
    "(match (position :check :wtm K[a-h1] :movenumber >=50))",
    "(match :result 1-0)",
    "(match :year 1990 2000)",
    "(match :player Kasparov)",
    "(match :eco B20-99 :result 0-1)",
    "(match :or ((match :result 1/2-1/2) (match :year 1920 1925)) (position :check :movenumber >=60))",
    "(match (position :check :movenumber 80 1000) :result 0-1)",
    "(match (position :sequence ((position :check) (position :check) (position :check))))",
};

/// Every sort name with both directions.
std::vector<std::string> sort_names() {
  std::vector<std::string> out;
  for (const char* key : {"date", "elo", "white", "black", "event", "result", "eco", "id"}) {
    out.push_back(key);
    out.push_back(std::string("-") + key);
  }
  return out;
}

/// n with thousands separators, as the summaries print counts.
std::string commas(uint64_t n) {
  std::string d = std::to_string(n), out;
  for (size_t i = 0; i < d.size(); ++i) out += (i && (d.size() - i) % 3 == 0 ? "," : "") + std::string(1, d[i]);
  return out;
}

std::vector<uint32_t> ids_of(const query::Result& r) {
  std::vector<uint32_t> ids;
  for (const eval::GameMatch& m : r.matches) ids.push_back(m.id);
  return ids;
}

TEST(SortLimit, LimitKeepsTheFirstNOfTheSortedAnswerForEveryQueryAndKey) {
  cqltest::CorpusDb corpus("sort-limit");
  corpus.add_players(3000);
  size_t runs = 0, cut = 0;
  for (const char* text : kQueries) {
    const query::Query q = query::Query::compile(text, "sort-limit.cql");
    query::ExecuteOptions all;
    all.threads = 2;
    const query::Result whole = query::execute(q, corpus.database(), all);
    const uint64_t total = whole.matches.size();
    for (const std::string& name : sort_names()) {
      query::ExecuteOptions sorted = all;
      sorted.sort = headers::parse_sort_order(name);
      ASSERT_TRUE(sorted.sort) << name;
      const query::Result full = query::execute(q, corpus.database(), sorted);
      ASSERT_EQ(full.matches.size(), total) << text << " --sort " << name;
      std::vector<uint32_t> order = ids_of(full);
      // The same games as without a sort, in some order.
      std::vector<uint32_t> ascending = order;
      std::sort(ascending.begin(), ascending.end());
      EXPECT_EQ(ascending, ids_of(whole)) << text << " --sort " << name;
      for (uint64_t limit : {uint64_t(7), total + 1}) {
        query::ExecuteOptions limited = sorted;
        limited.limit = limit;
        const query::Result first = query::execute(q, corpus.database(), limited);
        const size_t n = size_t(std::min(limit, total));
        EXPECT_EQ(ids_of(first), std::vector<uint32_t>(order.begin(), order.begin() + n))
            << text << " --sort " << name << " --limit " << limit;
        EXPECT_EQ(first.stats.matches, n);
        EXPECT_EQ(first.stats.matches_found, total) << text << " --sort " << name;
        EXPECT_TRUE(first.stats.search_complete);
        if (n < total) {
          EXPECT_EQ(query::matches_text(first.stats), commas(n) + " of " + commas(total) + " matches")
              << text;
          ++cut;
        }
        ++runs;
      }
    }
  }
  std::printf("%zu limited runs (%zu cut a longer answer) over %zu queries x %zu orders\n", runs, cut,
              std::size(kQueries), sort_names().size());
  EXPECT_GT(cut, 200u);  // most queries have more than 7 matches in 3,000 games
}

TEST(SortLimit, WithoutASortTheLimitKeepsTheLowestIdsAndSaysTheSearchStopped) {
  cqltest::CorpusDb corpus("limit-ids");
  corpus.add_players(3000);
  const query::Query q = query::Query::compile("(match (position :check))", "limit.cql");
  query::ExecuteOptions all;
  all.threads = 2;
  const std::vector<uint32_t> every = ids_of(query::execute(q, corpus.database(), all));
  ASSERT_GT(every.size(), 1000u);
  query::ExecuteOptions limited = all;
  limited.limit = 5;
  const query::Result first = query::execute(q, corpus.database(), limited);
  EXPECT_EQ(ids_of(first), std::vector<uint32_t>(every.begin(), every.begin() + 5));
  EXPECT_FALSE(first.stats.search_complete);
  EXPECT_EQ(query::matches_text(first.stats), "the first 5 matches");
}

/// The sample database of the README, as the CLI tests build it.
class SortLimitCli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new cqltest::TempDir("sort-limit-cli");
    const std::string sample = std::string(CQLDB_SOURCE_DIR) + "/examples/sample";
    db::Database database = db::Database::create_or_open(tmp_->path / "sample-db");
    import::import_files(database,
                         {sample + "/players-3000.pgn.zst", sample + "/annotated-40.pgn", sample + "/studies-30.pgn",
                          sample + "/mates-30.pgn"},
                         import::ImportOptions{}, nullptr);
  }
  static void TearDownTestSuite() {
    delete tmp_;
    tmp_ = nullptr;
  }
  static std::string db() { return (tmp_->path / "sample-db").string(); }
  static cqltest::Outcome run(const std::vector<std::string>& args, const std::string& input = "") {
    return cqltest::run_cqldb(args, tmp_->path, input);
  }
  static cqltest::TempDir* tmp_;
};

cqltest::TempDir* SortLimitCli::tmp_ = nullptr;

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1)
    out.push_back(text.substr(start, nl - start));
  return out;
}

// The example: the three newest mates, not three of 1911 and 1907.
TEST_F(SortLimitCli, NewestThreeMatesOfTheSample) {
  const std::string mate = "(match (position :mate))";
  const cqltest::Outcome all = run({"query", "--db", db(), "-e", mate, "--sort", "-date", "--format", "ids"});
  ASSERT_EQ(all.code, 0) << all.err;
  const std::vector<std::string> every = lines(all.out);
  ASSERT_EQ(every.size(), 76u) << all.err;
  const cqltest::Outcome three =
      run({"query", "--db", db(), "-e", mate, "--sort", "-date", "--limit", "3", "--format", "ids"});
  ASSERT_EQ(three.code, 0) << three.err;
  EXPECT_EQ(lines(three.out), std::vector<std::string>(every.begin(), every.begin() + 3));
  EXPECT_NE(three.err.find("3 of 76 matches"), std::string::npos) << three.err;
  const cqltest::Outcome table = run({"query", "--db", db(), "-e", mate, "--sort", "-date", "--limit", "3"});
  EXPECT_NE(table.out.find("2014"), std::string::npos) << table.out;
  EXPECT_EQ(table.out.find("1911"), std::string::npos) << table.out;
  // Every key: --sort K --limit 5 is the first 5 lines of --sort K.
  for (const std::string& name : sort_names()) {
    const cqltest::Outcome sorted = run({"query", "--db", db(), "-e", mate, "--sort", name, "--format", "ids"});
    const cqltest::Outcome limited =
        run({"query", "--db", db(), "-e", mate, "--sort", name, "--limit", "5", "--format", "ids"});
    const std::vector<std::string> s = lines(sorted.out);
    ASSERT_GE(s.size(), 5u) << name;
    EXPECT_EQ(lines(limited.out), std::vector<std::string>(s.begin(), s.begin() + 5)) << name;
  }
  // The shell's list: the first 3 of the same order.
  const cqltest::Outcome shell = run({"shell", "--db", db(), "-c", mate + "; list 3 sort by -date"});
  ASSERT_EQ(shell.code, 0) << shell.err;
  for (size_t i = 0; i < 3; ++i) EXPECT_NE(shell.out.find(every[i]), std::string::npos) << every[i] << shell.out;
}

}  // namespace
