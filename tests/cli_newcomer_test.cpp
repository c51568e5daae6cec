// Issue 20, a newcomer's first hour: the command-line conventions (a directory without a
// database is refused, `-o -`, --version, inverted ranges, one size figure, table and help
// widths), help from the keyword table (`cqldb help :KEYWORD`, did-you-mean, CQL 6 scripts
// named as such) and move lines in standard algebraic notation. The CLI tests run the real
// binary on the bundled sample (examples/sample/).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli_test_util.h"
#include "cql/ast_print.h"
#include "cql/keyword_help.h"
#include "cql/parser.h"
#include "db/database.h"
#include "import/importer.h"
#include "query/executor.h"
#include "query/query.h"
#include "temp_dir.h"

namespace fs = std::filesystem;

namespace {

using cqltest::Outcome;

const std::string kSampleDir = std::string(CQLDB_SOURCE_DIR) + "/examples/sample";

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

/// Characters (UTF-8 code points) of a line.
size_t width_of(const std::string& line) {
  size_t n = 0;
  for (char c : line) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

class NewcomerTest : public ::testing::Test {
 protected:
  /// The sample database of the README: the four files of examples/sample.
  static void SetUpTestSuite() {
    tmp_ = new cqltest::TempDir("newcomer");
    db::Database database = db::Database::create_or_open(tmp_->path / "sample-db");
    import::import_files(database,
                         {kSampleDir + "/players-3000.pgn.zst", kSampleDir + "/annotated-40.pgn",
                          kSampleDir + "/studies-30.pgn", kSampleDir + "/mates-30.pgn"},
                         import::ImportOptions{}, nullptr);
  }
  static void TearDownTestSuite() {
    delete tmp_;
    tmp_ = nullptr;
  }
  static fs::path dir() { return tmp_->path; }
  static std::string db() { return (tmp_->path / "sample-db").string(); }
  static Outcome run(const std::vector<std::string>& args) { return cqltest::run_cqldb(args, dir()); }
  /// Runs with the environment assignment `env` (e.g. "COLUMNS=60") before the binary.
  static Outcome run_env(const std::string& env, const std::vector<std::string>& args) {
    std::string cmd = env + " " + cqltest::shell_quote(CQLDB_BINARY);
    for (const std::string& a : args) cmd += " " + cqltest::shell_quote(a);
    const fs::path out = dir() / "env-out", err = dir() / "env-err";
    cmd += " >" + cqltest::shell_quote(out.string()) + " 2>" + cqltest::shell_quote(err.string()) + " </dev/null";
    const int status = std::system(cmd.c_str());
    Outcome r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = cqltest::read_file(out);
    r.err = cqltest::read_file(err);
    return r;
  }
  static cqltest::TempDir* tmp_;
};

cqltest::TempDir* NewcomerTest::tmp_ = nullptr;

// ---- conventions

TEST_F(NewcomerTest, EveryCommandButImportRefusesADirectoryWithoutADatabase) {
  const std::string missing = (dir() / "nope").string();
  fs::create_directories(dir() / "empty-dir");
  const std::string empty = (dir() / "empty-dir").string();
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"info", "--db", missing},
                                             {"check", "--db", missing},
                                             {"export", "--db", missing},
                                             {"reindex", "--db", missing},
                                             {"query", "--db", missing, "-e", "(match (position :mate))"},
                                             {"shell", "--db", missing, "-c", "list"},
                                             {"--db", missing, "-c", "count"},
                                             {"info", "--db", empty},
                                             {"shell", "--db", empty, "-c", "list"}}) {
    Outcome r = run(args);
    EXPECT_EQ(r.code, 2) << args[0] << " " << r.err;
    EXPECT_NE(r.err.find("no cqldb database"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("cqldb import --db"), std::string::npos) << r.err;
  }
  EXPECT_FALSE(fs::exists(dir() / "nope")) << "a mistyped --db created a directory";
  EXPECT_FALSE(fs::exists(dir() / "empty-dir" / "headers.sqlite"));
  // `import` creates it, and so does the shell when asked to (--create).
  Outcome created = run({"shell", "--db", (dir() / "new").string(), "--create", "-c", "count"});
  EXPECT_EQ(created.code, 0) << created.err;
  EXPECT_EQ(created.out, "0 games\n");
}

TEST_F(NewcomerTest, DashAsOutputIsStandardOutput) {
  Outcome r = run({"query", "--db", db(), "-e", "(match (position :mate))", "--format", "ids", "-o", "-"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(fs::exists(dir() / "-"));
  EXPECT_GT(lines_of(r.out).size(), 30u);
  Outcome e = run({"export", "--db", db(), "--id", "3", "-o", "-"});
  ASSERT_EQ(e.code, 0) << e.err;
  EXPECT_EQ(e.out.rfind("[Event ", 0), 0u) << e.out.substr(0, 80);
  EXPECT_FALSE(fs::exists(dir() / "-"));
}

TEST_F(NewcomerTest, VersionIsPrinted) {
  for (const char* flag : {"--version", "version"}) {
    Outcome r = run({flag});
    EXPECT_EQ(r.code, 0);
    EXPECT_TRUE(std::regex_search(r.out, std::regex("^cqldb \\d+\\.\\d+\\.\\d+ \\(database format \\d+"))) << r.out;
  }
}

TEST_F(NewcomerTest, InvertedOrEmptyExportRangesAreErrors) {
  Outcome r = run({"export", "--db", db(), "--from", "5", "--to", "3"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--from 5 --to 3 is an empty range"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
  Outcome zero = run({"export", "--db", db(), "--from", "0", "--to", "3"});
  EXPECT_EQ(zero.code, 2) << zero.err;
  Outcome beyond = run({"export", "--db", db(), "--from", "5000"});
  EXPECT_EQ(beyond.code, 1);
  EXPECT_NE(beyond.err.find("no games from id 5000 on (the database has 3099 games)"), std::string::npos)
      << beyond.err;
  Outcome both = run({"export", "--db", db(), "--id", "4", "--from", "3"});
  EXPECT_EQ(both.code, 2) << both.err;
  Outcome ok = run({"export", "--db", db(), "--from", "3", "--to", "4"});
  EXPECT_EQ(ok.code, 0) << ok.err;
  EXPECT_EQ(std::count(ok.out.begin(), ok.out.end(), '\n') > 10, true);
}

TEST_F(NewcomerTest, InfoReportsOneSizeFigureOnTheCommandLineAndInTheShell) {
  Outcome cli = run({"info", "--db", db()});
  Outcome shell = run({"shell", "--db", db(), "-c", "info"});
  ASSERT_EQ(cli.code, 0) << cli.err;
  ASSERT_EQ(shell.code, 0) << shell.err;
  std::smatch a, b;
  ASSERT_TRUE(std::regex_search(cli.out, a, std::regex("size on disk: +([0-9.]+ [KMG]?i?B)"))) << cli.out;
  ASSERT_TRUE(std::regex_search(shell.out, b, std::regex("size: +([0-9.]+ [KMG]?i?B)"))) << shell.out;
  EXPECT_EQ(a[1].str(), b[1].str());
  std::smatch pa, pb;
  ASSERT_TRUE(std::regex_search(cli.out, pa, std::regex("bytes per game: +([0-9.]+)")));
  ASSERT_TRUE(std::regex_search(shell.out, pb, std::regex("\\(([0-9.]+) bytes per game\\)")));
  EXPECT_EQ(pa[1].str(), pb[1].str());
}

TEST_F(NewcomerTest, TablesFitColumnsAndHelpWrapsAt80) {
  for (const char* columns : {"60", "80", "120"}) {
    Outcome r = run_env(std::string("COLUMNS=") + columns,
                        {"query", "--db", db(), "-e", "(match (position :mate))", "--limit", "40"});
    ASSERT_EQ(r.code, 0) << r.err;
    size_t widest = 0;
    for (const std::string& line : lines_of(r.out)) widest = std::max(widest, width_of(line));
    EXPECT_LE(widest, size_t(std::stoi(columns))) << r.out;
    EXPECT_GT(lines_of(r.out).size(), 30u);
  }
  Outcome list = run_env("COLUMNS=60", {"shell", "--db", db(), "-c", "(match (position :mate)); list 30"});
  ASSERT_EQ(list.code, 0) << list.err;
  EXPECT_GT(lines_of(list.out).size(), 30u);
  for (const std::string& line : lines_of(list.out)) EXPECT_LE(width_of(line), 60u) << line;
  std::vector<std::vector<std::string>> helps = {{"help"}, {"query", "--help"}, {"shell", "--help"},
                                                 {"help", ":mate"}, {"help", "keywords"},
                                                 {"help", ":line"}, {"help", "query"}};
  for (const auto& args : helps) {
    Outcome r = run(args);
    EXPECT_EQ(r.code, 0) << args[0] << r.err;
    for (const std::string& line : lines_of(r.out)) EXPECT_LE(width_of(line), 80u) << line;
  }
  Outcome shell = run({"shell", "--db", db(), "-c", "help; help find; help :mate"});
  for (const std::string& line : lines_of(shell.out)) EXPECT_LE(width_of(line), 80u) << line;
}

}  // namespace

namespace {

// ---- help from the keyword table

TEST_F(NewcomerTest, HelpExplainsAKeyword) {
  for (const char* topic : {":mate", "mate", "!:mate", "position:mate"}) {
    Outcome r = run({"help", topic});
    ASSERT_EQ(r.code, 0) << topic << r.err;
    EXPECT_NE(r.out.find("usage:    :mate\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("meaning:  the position is checkmate"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("lists:    position list; may be negated (!:mate)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("source:   CQL 1.0 manual"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("example:  (match (position :mate))"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("try:      cqldb query --db sample-db -e '(match (position :mate))'"), std::string::npos);
  }
  Outcome line = run({"help", ":line"});
  EXPECT_NE(line.out.find("example:  (match (position :line (1.e4 e6 2.d4 d5)))"), std::string::npos) << line.out;
  Outcome listed = run({"help", "keywords"});
  ASSERT_EQ(listed.code, 0);
  EXPECT_NE(listed.out.find("Simple position keywords:\n"), std::string::npos) << listed.out;
  for (const cql::KeywordInfo& k : cql::all_keywords())
    EXPECT_NE(listed.out.find(":" + std::string(k.name)), std::string::npos) << k.name;
  Outcome command = run({"help", "export"});
  EXPECT_EQ(command.code, 0);
  EXPECT_NE(command.out.find("Usage: cqldb export --db DIR"), std::string::npos) << command.out;
}

TEST_F(NewcomerTest, UnknownKeywordsGetADidYouMean) {
  Outcome help = run({"help", ":stalemat"});
  EXPECT_EQ(help.code, 2);
  EXPECT_NE(help.err.find("no keyword ':stalemat' (did you mean :stalemate?)"), std::string::npos) << help.err;
  Outcome command = run({"help", "exprot"});
  EXPECT_EQ(command.code, 2);
  EXPECT_NE(command.err.find("no command or keyword 'exprot'"), std::string::npos) << command.err;
  Outcome query = run({"query", "--db", db(), "-e", "(match (position :stalemat))"});
  EXPECT_EQ(query.code, 2);
  EXPECT_NE(query.err.find("-e:1:18: unknown keyword ':stalemat' in position list (did you mean :stalemate?)"),
            std::string::npos)
      << query.err;
  Outcome shell = run({"shell", "--db", db(), "-c", "help :stalemat"});
  EXPECT_NE(shell.err.find("did you mean :stalemate?"), std::string::npos) << shell.err;
  EXPECT_EQ(cql::similar_keywords("chek").front(), "check");
  EXPECT_TRUE(cql::similar_keywords("zzzzzz").empty());
}

TEST_F(NewcomerTest, ACql6ScriptRuns) {
  // issue 36: a CQL 6 script runs; read as CQL-S it is named as CQL 6
  Outcome r = run({"query", "--db", db(), "-e", "cql() mate"});
  EXPECT_EQ(r.code, 0) << r.err;
  Outcome forced = run({"query", "--db", db(), "--dialect", "cqls", "-e", "cql() mate"});
  EXPECT_EQ(forced.code, 2);
  EXPECT_NE(forced.err.find("-e:1:1: this is a CQL 6 script"), std::string::npos) << forced.err;
  EXPECT_NE(forced.err.find("CQL 6's 'mate' is written (match (position :mate))"), std::string::npos) << forced.err;
  const fs::path script = dir() / "cql6.cql";
  std::ofstream(script) << "// a CQL 6 script\ncql(input games.pgn)\nplayer \"Alekhine\"\n";
  Outcome file = run({"query", "--db", db(), script.string()});
  EXPECT_EQ(file.code, 0) << file.err;
  Outcome unknown = run({"query", "--db", db(), "-e", "cql() frobnicate"});
  EXPECT_EQ(unknown.code, 2);
  EXPECT_NE(unknown.err.find("-e:1:7: unknown filter, variable or function 'frobnicate'"), std::string::npos)
      << unknown.err;
  Outcome overview = run({"help"});
  EXPECT_NE(overview.out.find("CQL 6"), std::string::npos) << overview.out;
}

TEST_F(NewcomerTest, ShellHelpExplainsKeywords) {
  Outcome r = run({"shell", "--db", db(), "-c", "help :mate; help keywords; help"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("meaning:  the position is checkmate"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("try:"), std::string::npos) << r.out;  // the example is typed as is
  EXPECT_NE(r.out.find("Transformations:\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("`help :KEYWORD` explains a CQL keyword"), std::string::npos) << r.out;
}

/// Every keyword's help example runs on the sample database (a keyword whose evaluation is
/// not implemented yet reports exactly that).
TEST_F(NewcomerTest, EveryHelpExampleRunsOnTheSample) {
  db::Database database = db::Database::open_readonly(dir() / "sample-db");
  size_t ran = 0, matched = 0, unsupported = 0;
  for (const cql::KeywordHelp& h : cql::all_keyword_help()) {
    const std::string script = cql::example_script(h);
    try {
      query::Query q = query::Query::compile(script, "example");
      query::ExecuteOptions options;
      options.limit = 1;
      matched += !query::execute(q, database, options).matches.empty();
      ++ran;
    } catch (const query::QueryError& e) {
      EXPECT_NE(std::string(e.what()).find("not yet supported"), std::string::npos) << script << ": " << e.what();
      ++unsupported;
    }
  }
  EXPECT_EQ(ran + unsupported, cql::all_keywords().size());
  for (const cql::KeywordInfo& k : cql::all_keywords())
    EXPECT_NE(cql::find_keyword_help(k.keyword), nullptr) << ":" << k.name << " has no help row (cql/keyword_help.cpp)";
  EXPECT_GT(ran, 150u);
  std::printf("help examples: %zu run (%zu match a game), %zu not yet supported\n", ran, matched, unsupported);
}

// ---- explain

TEST_F(NewcomerTest, ExplainPlansWithoutRunningAndAnalyzeRuns) {
  Outcome plan = run({"query", "--db", db(), "--explain", "-e", "(match :player Alekhine (position :mate))"});
  ASSERT_EQ(plan.code, 0) << plan.err;
  EXPECT_NE(plan.out.find("bound values:         ?1 = 'Alekhine', ?2 = 'Alekhine'"), std::string::npos) << plan.out;
  EXPECT_TRUE(std::regex_search(plan.out, std::regex("after posting index: +\\d+ of 3,099 games"))) << plan.out;
  EXPECT_TRUE(std::regex_search(plan.out, std::regex("after header SQL: +1,660 of 3,099 games"))) << plan.out;
  EXPECT_EQ(plan.out.find("games replayed"), std::string::npos) << plan.out;
  EXPECT_EQ(plan.err.find("matches"), std::string::npos) << plan.err;
  Outcome analyze = run({"query", "--db", db(), "--explain-analyze", "--format", "ids", "-e",
                         "(match :player Alekhine (position :mate))"});
  ASSERT_EQ(analyze.code, 0) << analyze.err;
  EXPECT_NE(analyze.err.find("games replayed"), std::string::npos) << analyze.err;
  EXPECT_NE(analyze.err.find("bound values:"), std::string::npos) << analyze.err;
  EXPECT_FALSE(analyze.out.empty());
  Outcome shell = run({"shell", "--db", db(), "-c", "explain (match (position :mate)); explain analyze (match (position :mate))"});
  ASSERT_EQ(shell.code, 0) << shell.err;
  EXPECT_NE(shell.out.find("estimates (before reading any game):"), std::string::npos) << shell.out;
  EXPECT_EQ(std::count(shell.out.begin(), shell.out.end(), '\n') > 10, true);
  EXPECT_NE(shell.out.find("games replayed"), std::string::npos) << shell.out;  // from analyze only
  EXPECT_EQ(shell.out.find("games replayed"), shell.out.rfind("games replayed"));
}

}  // namespace

namespace {

// ---- docs/cql.md: every ```cql example runs on the sample database and finds games

TEST_F(NewcomerTest, EveryExampleOfTheLanguageGuideRuns) {
  const std::string guide = cqltest::read_file(std::string(CQLDB_SOURCE_DIR) + "/docs/cql.md");
  ASSERT_FALSE(guide.empty());
  db::Database database = db::Database::open_readonly(dir() / "sample-db");
  size_t examples = 0;
  for (size_t at = guide.find("```cql\n"); at != std::string::npos; at = guide.find("```cql\n", at + 1)) {
    const size_t start = at + 7, end = guide.find("```", start);
    ASSERT_NE(end, std::string::npos);
    const std::string script = guide.substr(start, end - start);
    ++examples;
    try {
      query::Query q = query::Query::compile(script, "docs/cql.md");
      const query::Result r = query::execute(q, database, query::ExecuteOptions{});
      EXPECT_FALSE(r.matches.empty()) << "no game of the sample matches\n" << script;
    } catch (const std::exception& e) {
      ADD_FAILURE() << e.what() << "\n" << script;
    }
  }
  EXPECT_GE(examples, 15u);
}

}  // namespace

namespace {

// ---- CQL 1.0's :pgn and :output

TEST_F(NewcomerTest, PgnFileIsImportedOnceIntoACacheAndOutputWritesPgn) {
  const fs::path work = dir() / "cql10";
  fs::create_directories(work);
  const fs::path pgn = work / "mates.pgn";
  fs::copy_file(kSampleDir + "/mates-30.pgn", pgn, fs::copy_options::overwrite_existing);
  const fs::path found = work / "found.pgn";
  const fs::path script = work / "mate.cql";
  std::ofstream(script) << "; a CQL 1.0 script\n(match :pgn " << pgn.string() << " :output " << found.string()
                        << "\n  (position :mate))\n";
  Outcome first = run({"query", script.string()});
  ASSERT_EQ(first.code, 0) << first.err;
  EXPECT_NE(first.err.find("importing " + pgn.string() + " once into " + pgn.string() + ".cqldb"),
            std::string::npos) << first.err;
  EXPECT_TRUE(first.out.empty()) << first.out;
  const std::string written = cqltest::read_file(found);
  EXPECT_NE(written.find("{MATCH}"), std::string::npos) << written.substr(0, 400);
  EXPECT_NE(written.find("[Event "), std::string::npos);
  EXPECT_TRUE(fs::exists(pgn.string() + ".cqldb/headers.sqlite"));

  // The second run reuses the cache; the same games are written.
  Outcome second = run({"query", script.string()});
  ASSERT_EQ(second.code, 0) << second.err;
  EXPECT_NE(second.err.find("through its cached database"), std::string::npos) << second.err;
  EXPECT_EQ(second.err.find("importing"), std::string::npos) << second.err;
  EXPECT_EQ(cqltest::read_file(found), written);

  // A changed file is imported afresh: one game more, with a mate.
  std::ofstream(pgn, std::ios::app) << "\n[Event \"added\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n\n"
                                       "1. f3 e5 2. g4 Qh4# 0-1\n";
  Outcome third = run({"query", "--pgn", pgn.string(), "-e", "(match (position :mate))", "--format", "ids"});
  ASSERT_EQ(third.code, 0) << third.err;
  EXPECT_NE(third.err.find("importing"), std::string::npos) << third.err;
  EXPECT_NE(third.err.find("imported 31 games"), std::string::npos) << third.err;
  std::vector<std::string> ids = lines_of(third.out);
  ASSERT_FALSE(ids.empty());
  EXPECT_EQ(ids.back(), "31");

  // --db and --pgn together, or neither, are usage errors; a missing file is named.
  EXPECT_EQ(run({"query", "--db", db(), "--pgn", pgn.string(), "-e", "(match (position :mate))"}).code, 2);
  Outcome neither = run({"query", "-e", "(match (position :mate))"});
  EXPECT_EQ(neither.code, 2);
  EXPECT_NE(neither.err.find("give --db DIR, or a PGN file"), std::string::npos) << neither.err;
  Outcome missing = run({"query", "--pgn", (work / "none.pgn").string(), "-e", "(match (position :mate))"});
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.err.find("cannot read the PGN file"), std::string::npos) << missing.err;
}

}  // namespace

namespace {

// ---- set-up: `cmake --install` puts cqldb on PATH (README's first command does it)

TEST_F(NewcomerTest, CmakeInstallPutsTheCommandInBin) {
  const fs::path build = fs::path(CQLDB_BINARY).parent_path();
  const fs::path prefix = dir() / "prefix";
  const std::string cmd = "cmake --install " + cqltest::shell_quote(build.string()) + " --prefix " +
                          cqltest::shell_quote(prefix.string()) + " >/dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  ASSERT_TRUE(fs::exists(prefix / "bin" / "cqldb"));
  const fs::path version = dir() / "installed-version";
  const std::string by_name = "PATH=" + cqltest::shell_quote((prefix / "bin").string()) +
                              ":$PATH cqldb --version >" + cqltest::shell_quote(version.string());
  EXPECT_EQ(std::system(by_name.c_str()), 0) << by_name;
  EXPECT_EQ(cqltest::read_file(version).rfind("cqldb ", 0), 0u) << cqltest::read_file(version);
  const std::string script = cqltest::read_file(std::string(CQLDB_SOURCE_DIR) + "/examples/run-sample.sh");
  EXPECT_NE(script.find("bash .ci/build cqldb"), std::string::npos);
  EXPECT_NE(script.find("cmake --install build"), std::string::npos);
}

}  // namespace
